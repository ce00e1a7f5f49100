# shellcheck shell=bash disable=SC2034
# Shared settings of lab/k8s/{up,down,check}. Sourced, not run.
#
# Environment (all optional):
#   NFV_CACHE            binary cache root            (default $HOME/.cache/pulumi-nfv)
#   NFV_LAB_STATE        lab state root               (default /var/lib/pulumi-nfv-lab)
#   NFV_K8S_API_PORT     kube-apiserver secure port   (default 6443)
#   NFV_K8S_ETCD_PORT    etcd client port             (default 2379; peer port = this + 1)
#   NFV_K8S_KWOK_PORT    kwok health/metrics port     (default 10247)
#   NFV_K8S_NODES        number of simulated nodes    (default 3)
#   NFV_K8S_TIMEOUT      seconds to wait for readiness (default 180)

K8S_LIB_DIR="$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)"

# Versions: must match build.sh (read from it, so there is one source of truth).
K8S_VERSION="$(sed -n 's/^K8S_VERSION=\([^ ]*\).*/\1/p' "$K8S_LIB_DIR/build.sh")"
ETCD_VERSION="$(sed -n 's/^ETCD_VERSION=\([^ ]*\).*/\1/p' "$K8S_LIB_DIR/build.sh")"
KWOK_VERSION="$(sed -n 's/^KWOK_VERSION=\([^ ]*\).*/\1/p' "$K8S_LIB_DIR/build.sh")"

NFV_CACHE="${NFV_CACHE:-$HOME/.cache/pulumi-nfv}"
ETCD_BIN="$NFV_CACHE/k8s/etcd-$ETCD_VERSION/bin/etcd"
KWOK_BIN="$NFV_CACHE/k8s/kwok-$KWOK_VERSION/bin/kwok"
KWOK_STAGES="$NFV_CACHE/k8s/kwok-$KWOK_VERSION/stages/kwok-stages.yaml"
KUBECTL="$NFV_CACHE/k8s/kubectl-$K8S_VERSION/bin/kubectl"

STATE="${NFV_LAB_STATE:-/var/lib/pulumi-nfv-lab}/k8s"
LOCK="$STATE.lock"                            # beside the state: down removes the state
HOLDERS="$STATE/holders"                      # one empty file per user of the running lab
PKI="$STATE/pki"
PIDS="$STATE/pids"
LOGS="$STATE/logs"
API_PORT="${NFV_K8S_API_PORT:-6443}"
ETCD_PORT="${NFV_K8S_ETCD_PORT:-2379}"
ETCD_PEER_PORT="$((ETCD_PORT + 1))"
KWOK_PORT="${NFV_K8S_KWOK_PORT:-10247}"
NODES="${NFV_K8S_NODES:-3}"
TIMEOUT="${NFV_K8S_TIMEOUT:-180}"
API_URL="https://127.0.0.1:$API_PORT"
ADMIN_KUBECONFIG="$STATE/admin.kubeconfig"   # client cert, system:masters
VIM_CONFIG="$STATE/vim-config.yaml"          # Tacker-style, bearer token of nfv-admin
TOKEN_KUBECONFIG="$STATE/kubeconfig"         # bearer token of nfv-admin, CA verified
AUTHN_CONFIG="$STATE/authentication.yaml"    # JWT (OIDC) issuers the API trusts; reloaded on change

# Start order; down stops in reverse.
COMPONENTS=(etcd kube-apiserver kube-controller-manager kube-scheduler kwok)

log() { printf '[%s] %s\n' "$(date -u '+%Y-%m-%dT%H:%M:%SZ')" "$*"; }
# The script's own stderr, kept as it was when this was sourced: a die inside a condition that
# wait_for polls with its stderr sent to /dev/null (`alive` in etcd_healthy) still says why the
# script ends, instead of ending it in silence. Services the scripts start do not keep it (start).
exec {STDERR_FD}>&2
die() { log "ERROR: $*" >&"$STDERR_FD"; exit 1; }

kc() { "$KUBECTL" --kubeconfig "$ADMIN_KUBECONFIG" "$@"; }

# api METHOD PATH [CURL ARGS...]: the API as the lab admin (client cert), TLS
# verified with the lab CA; body on stdout, fails on HTTP errors.
api() {
  local method="$1" path="$2"
  shift 2
  curl -sSf --max-time 20 --cacert "$PKI/ca.crt" --cert "$PKI/admin.crt" --key "$PKI/admin.key" \
    -X "$method" "$@" "$API_URL$path"
}

# apply PATH < YAML: server-side apply (creates or updates), field manager nfv-lab.
apply() {
  api PATCH "$1?fieldManager=nfv-lab&force=true" -H 'Content-Type: application/apply-patch+yaml' \
    --data-binary @- >/dev/null
}

# The binary a component runs.
component_bin() {
  case "$1" in
    etcd) echo "$ETCD_BIN" ;;
    kwok) echo "$KWOK_BIN" ;;
    *) echo "$NFV_CACHE/k8s/$1-$K8S_VERSION/bin/$1" ;;
  esac
}

# PID of a component if its pid file names a live process running that binary.
component_pid() {
  local f="$PIDS/$1.pid" pid exe
  [[ -f "$f" ]] || return 1
  pid="$(cat "$f")"
  [[ "$pid" =~ ^[0-9]+$ ]] || return 1
  exe="$(readlink "/proc/$pid/exe" 2>/dev/null)" || return 1
  [[ "$exe" == "$(component_bin "$1")" ]]
}

api_ready() {
  curl -sf --max-time 5 --cacert "$PKI/ca.crt" --cert "$PKI/admin.crt" --key "$PKI/admin.key" \
    "$API_URL/readyz" >/dev/null 2>&1
}

# One up or down at a time: the test files that share the lab run them from separate processes.
# The lock's descriptor (8) must not reach the daemons that up starts (start closes it), or the
# lock would outlive the script. up runs down inside the lock (NFV_K8S_LOCK_HELD).
take_lock() {
  [[ -n "${NFV_K8S_LOCK_HELD:-}" ]] && return 0
  mkdir -p "$(dirname "$LOCK")"
  exec 8>"$LOCK"
  flock -w "$((TIMEOUT * 5))" 8 || die "another lab/k8s up or down holds $LOCK"
  export NFV_K8S_LOCK_HELD=1
}

# curl_bearer TOKEN CURL_ARGS...: the header on stdin (-H @-), never on a command line, where every
# process on the machine could read the token.
curl_bearer() {
  local token="$1"
  shift
  printf 'Authorization: Bearer %s\n' "$token" | curl -H @- "$@"
}

holders() { find "$HOLDERS" -mindepth 1 -maxdepth 1 -printf '%f ' 2>/dev/null || true; }

# --holder NAME (default: manual, a person at a shell): who uses the lab. up records the holder;
# down with --holder releases it and stops the lab only when no holder is left; a plain down stops
# it whoever holds it.
parse_holder() {
  HOLDER=""
  while (($#)); do
    case "$1" in
      --holder) HOLDER="${2:-}"; shift 2 || die "--holder needs a name" ;;
      *) die "unknown argument '$1' (usage: $(basename "$0") [--holder NAME])" ;;
    esac
  done
  [[ -z "$HOLDER" || "$HOLDER" =~ ^[A-Za-z0-9][A-Za-z0-9._-]{0,63}$ ]] || die "holder '$HOLDER' must match [A-Za-z0-9][A-Za-z0-9._-]{0,63}"
}
