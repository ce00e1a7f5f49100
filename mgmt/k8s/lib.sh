#!/usr/bin/env bash
# Shared by the mgmt/k8s scripts (sourced). Parameters arrive on stdin as key=value lines, never on
# the command line: several are secrets (join tokens, keys, registry passwords).
# NFV_ROOT prefixes every file path (tests point it at a scratch directory).

ROOT="${NFV_ROOT:-}"
WAIT_TRIES="${NFV_WAIT_TRIES:-60}"
WAIT_SLEEP="${NFV_WAIT_SLEEP:-5}"
# shellcheck disable=SC2034 # used by the scripts that source this file
STATE_DIR="$ROOT/var/lib/nfv-k8s"

log() { echo "${SCRIPT_NAME:-k8s}: $*" >&2; }
die() { log "error: $*"; exit 1; }

# read_params KEY...: reads key=value lines from stdin into the named variables (which the caller
# has set to their defaults). A name given as KEY[] is a list: each KEY= line appends to the array KEY.
read_params() {
  local line key value allowed=" $* "
  while IFS= read -r line || [[ -n "$line" ]]; do
    [[ -z "$line" || "$line" == \#* ]] && continue
    [[ "$line" == *=* ]] || die "stdin line is not key=value"
    key="${line%%=*}" value="${line#*=}"
    if [[ "$allowed" == *" ${key}[] "* ]]; then
      local -n list="$key"
      list+=("$value")
      unset -n list
    elif [[ "$allowed" == *" $key "* ]]; then
      printf -v "$key" '%s' "$value"
    else
      die "unknown parameter $key"
    fi
  done
}

# require KEY...: every named parameter is set.
require() {
  local k
  for k in "$@"; do [[ -n "${!k:-}" ]] || die "parameter $k is required"; done
}

# write_if_changed FILE MODE CONTENT: rewrites FILE only when CONTENT differs; status 0 = changed.
write_if_changed() {
  local file="$1" mode="$2" content="$3"
  mkdir -p "$(dirname "$file")"
  if [[ -f "$file" ]] && [[ "$(cat "$file")" == "${content%$'\n'}" ]]; then return 1; fi
  ( umask 077; printf '%s' "$content" >"$file" )
  chmod "$mode" "$file"
  return 0
}

# check_pin NAME [VERSION]: NAME is a Debian package name and VERSION (if given) a Debian version
# (Policy 5.6.1, 5.6.12), so that `NAME=VERSION` is one apt argument and never an option (`-o ...`).
# pulumi-nfv checks the same grammar first; this is the script's own guard.
check_pin() {
  # Ranges like [a-z] follow the locale's collation; C makes them ASCII.
  local LC_ALL=C
  [[ "$1" =~ ^[a-z0-9][a-z0-9+.-]+$ ]] || die "package name $1 is not a Debian package name"
  [[ -z "${2:-}" || "$2" =~ ^([0-9]+:)?[0-9][A-Za-z0-9.+~:-]*$ ]] || die "the version of $1 is not a Debian package version"
}

# b64 TEXT: decodes base64 (the transport of multi-line values on key=value lines).
b64() { printf '%s' "$1" | base64 -d; }

# temp_file VAR CONTENT: writes CONTENT to a file only root can read and sets VAR to its path.
# The file is removed when the script exits, whether it succeeds or not.
TEMP_FILES=()
remove_temp_files() { (( ${#TEMP_FILES[@]} == 0 )) || rm -f "${TEMP_FILES[@]}"; }
trap remove_temp_files EXIT
temp_file() {
  local f
  f="$(umask 077; mktemp "${TMPDIR:-/tmp}/nfv-k8s.XXXXXX")"
  TEMP_FILES+=("$f")
  printf '%s' "$2" >"$f"
  printf -v "$1" '%s' "$f"
}

# retry CMD...: runs CMD until it succeeds, WAIT_TRIES times, WAIT_SLEEP seconds apart.
retry() {
  local i
  for ((i = 1; i <= WAIT_TRIES; i++)); do
    "$@" && return 0
    sleep "$WAIT_SLEEP"
  done
  return 1
}

# Admin kubeconfig of a control-plane node.
KUBECONFIG_ADMIN="$ROOT/etc/kubernetes/admin.conf"
kctl() { kubectl --kubeconfig "$KUBECONFIG_ADMIN" "$@"; }
