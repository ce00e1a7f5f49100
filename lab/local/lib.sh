# shellcheck shell=bash
# Shared by lab/local/up and lab/local/down: the environment of the `local` stack.

LOCAL_ROOT="$(cd "$(dirname "${BASH_SOURCE[0]}")/../.." && pwd)"
# `local` targets the lab's Kubernetes API; `local-render` (--render) writes manifests instead.
STACK=local
if [[ "${1:-}" == "--render" ]]; then
  STACK=local-render
elif [[ $# -gt 0 ]]; then
  printf 'usage: %s [--render]\n' "$0" >&2
  exit 2
fi
# The local stack's secrets are lab values; its passphrase is public by design, so that a
# newcomer can run it with no setup. Real stacks use their own secrets provider.
export PULUMI_CONFIG_PASSPHRASE="${PULUMI_CONFIG_PASSPHRASE:-pulumi-nfv-local-lab}"

log() { printf '[local %s] %s\n' "$(date -u +%H:%M:%S)" "$*" >&2; }
die() { log "ERROR: $*"; exit 1; }

use_toolchain() {
  # shellcheck source-path=SCRIPTDIR source=../toolchain/env.sh
  . "$LOCAL_ROOT/lab/toolchain/env.sh"
  command -v pulumi >/dev/null || die "pulumi is not built; run lab/toolchain/build.sh"
}

# pulumi's TMPDIR: a directory of this run's own (0700), removed at exit. The kubernetes provider
# writes each kubeconfig it is given (the lab API's token) to a file in $TMPDIR and never removes
# it (cli/operation-tmp.ts does the same for `nfv`). Set just before pulumi runs: the lab's daemons
# started earlier keep the system's.
# ts-node's cache (Pulumi's runner transpiles the program with it) stays where it is without a
# private TMPDIR, as cli/operation-tmp.ts keeps it: in a fresh one, each run transpiled everything.
use_private_tmpdir() {
  local home_hash
  home_hash="$(printf '%s' "$HOME" | sha256sum | cut -d' ' -f1)"
  export TS_NODE_CACHE_DIRECTORY="${TS_NODE_CACHE_DIRECTORY:-${TMPDIR:-/tmp}/ts-node-$home_hash}"
  PRIVATE_TMP="$(mktemp -d "${TMPDIR:-/tmp}/nfv-local-XXXXXX")"
  trap 'rm -rf "$PRIVATE_TMP"' EXIT
  export TMPDIR="$PRIVATE_TMP"
}

# lab/k8s/up writes the vim-config.yaml that stacks/Pulumi.local.yaml registers; down removes it.
k8s_lab_running() { [[ -f "${NFV_LAB_STATE:-/var/lib/pulumi-nfv-lab}/k8s/vim-config.yaml" ]]; }
openstack_lab_running() { "$LOCAL_ROOT/lab/openstack/status" >/dev/null 2>&1; }

# The API server the `local` stack deploys to (built from the Go module proxy, or reused).
start_k8s_lab() {
  [[ "$STACK" == local ]] || return 0
  log "lab Kubernetes API (lab/k8s/up)"
  "$LOCAL_ROOT/lab/k8s/up" >/dev/null
}

stop_k8s_lab() {
  [[ "$STACK" == local ]] || return 0
  "$LOCAL_ROOT/lab/k8s/down"
}

# The lab OpenStack the registry VNF of the `local` stack is deployed on (about 4 min from nothing).
start_openstack_lab() {
  [[ "$STACK" == local ]] || return 0
  log "lab OpenStack (lab/openstack/up)"
  "$LOCAL_ROOT/lab/openstack/up" >/dev/null
}

stop_openstack_lab() {
  [[ "$STACK" == local ]] || return 0
  "$LOCAL_ROOT/lab/openstack/down"
}

select_stack() {
  (cd "$LOCAL_ROOT" && pulumi stack select "$STACK" 2>/dev/null) ||
    (cd "$LOCAL_ROOT" && pulumi stack init "$STACK" --secrets-provider passphrase >/dev/null)
}
