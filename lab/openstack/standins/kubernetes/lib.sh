#!/usr/bin/env bash
# shellcheck disable=SC2034 # settings used by the stand-ins that source this file
# Shared by the lab's recording stand-ins (sourced). They run on VM hosts (network namespace +
# chroot of a Debian tree, no container runtime, no systemd), on sudo's PATH before the real tools,
# for the Kubernetes images (image property nfv_lab_standins=kubernetes). They RECORD every call
# and EMULATE just enough state for the mgmt/k8s scripts to be checked end to end: packages,
# units, cluster membership (nodes, etcd members, bootstrap tokens, uploaded certificates). They
# never pretend that a Kubernetes component ran: no API server, kubelet, etcd or container exists.
#
# Files:
#   $SHARED  (bind mount of <lab state>/standins/kubernetes, one for the whole lab, survives hosts)
#     calls/<host>.log           one line per call and per emulated outcome, tab-separated:
#                                <epoch.ns> <host> call|emul <tool> <text>   (never a secret)
#     clusters/<id>/             a cluster made by `kubeadm init`: endpoint, name, CA and keys
#                                (made with the real openssl), nodes/<name>, etcd/<name>,
#                                tokens/<sha256 of token>, certkey, objects/<kind>/<ns>/<name>
#     endpoints/<host:port>      the cluster id an endpoint leads to
#   $LOCAL   (in the host's own tree: gone when the host is replaced, as a VM's disk would be)
#     packages/<name>            "installed" version;   held/<name>;   units/<unit>.{enabled,active}

SHARED="${NFV_LAB_STANDIN_SHARED:-/var/lib/nfv-lab-shared}"
LOCAL="${NFV_LAB_STANDIN_LOCAL:-/var/lib/nfv-lab-standin}"
ROOT="${NFV_ROOT:-}"
HOST_ENV="${NFV_LAB_HOST_ENV:-/etc/nfv-lab/host.env}"
NFV_LAB_HOST=""
# shellcheck source=/dev/null
[[ -f "$HOST_ENV" ]] && . "$HOST_ENV"
HOST="${NFV_LAB_HOST:-$(cat /proc/sys/kernel/hostname 2>/dev/null || echo unknown)}"
TOOL="$(basename "$0")"
mkdir -p "$SHARED/calls" "$LOCAL" 2>/dev/null || true

# Values that look like secrets (bootstrap tokens, 64-hex keys) never reach the log.
mask() { sed -E 's/[a-z0-9]{6}\.[a-z0-9]{16}/<token>/g; s/[0-9a-f]{64}/<hex64>/g'; }

_log() {
  local kind="$1"; shift
  local line
  line="$(printf '%s\t%s\t%s\t%s\t%s' "$(date +%s.%N)" "$HOST" "$kind" "$TOOL" "$*" | tr '\n' ' ' | mask)"
  ( flock 8; printf '%s\n' "$line" >>"$SHARED/calls/$HOST.log" ) 8>>"$SHARED/calls/.lock"
}
# record: the call as made (tool and arguments).
record() { _log call "$*"; }
# emul: what the stand-in did instead of the real tool (its emulated outcome).
emul() { _log emul "$*"; }
fail() { emul "FAILED: $*"; echo "$TOOL (lab stand-in): $*" >&2; exit 1; }

# Cluster-state changes are serialised lab-wide.
with_lock() { ( flock 9; "$@" ) 9>>"$SHARED/.lock"; }

# yaml_get FILE KEY: the first scalar value of KEY at any depth (flow `{key: v}` or block `key: v`).
yaml_get() {
  awk -v k="$2" '
    { line = $0; sub(/^[ \t-]*/, "", line) }
    index(line, k ": ") == 1 { v = substr(line, length(k) + 3); gsub(/^["'\'']|["'\'']$/, "", v); print v; exit }
  ' "$1"
}
# yaml_list FILE KEY: the items of the block sequence under KEY.
yaml_list() {
  awk -v k="$2" '
    on && /^[ \t]*- / { v = $0; sub(/^[ \t]*- /, "", v); gsub(/^["'\'']|["'\'']$/, "", v); print v; next }
    on { exit }
    { line = $0; sub(/^[ \t]*/, "", line) }
    line == k ":" { on = 1 }
  ' "$1"
}

sha() { printf '%s' "$1" | sha256sum | cut -d' ' -f1; }

# The cluster id behind an endpoint (host:port), or empty.
cluster_of_endpoint() { local f="$SHARED/endpoints/$1"; [[ -f "$f" ]] && cat "$f"; return 0; }

# The cluster id behind a kubeconfig (its server: line).
cluster_of_kubeconfig() {
  local server
  [[ -f "$1" ]] || return 0
  server="$(yaml_get "$1" server)"
  cluster_of_endpoint "${server#https://}"
}

# ca_hash CERT: sha256 of the DER public key, as kubeadm's --discovery-token-ca-cert-hash (real openssl).
ca_hash() { echo "sha256:$(openssl x509 -pubkey -noout -in "$1" | openssl pkey -pubin -outform der | sha256sum | cut -d' ' -f1)"; }

# kv FILE KEY: value of KEY=... in a key=value file.
kv() { sed -n "s/^$2=//p" "$1" 2>/dev/null | head -n1; }

unit_active() { [[ -e "$LOCAL/units/$1.active" ]]; }
package_version() { cat "$LOCAL/packages/$1" 2>/dev/null || true; }
