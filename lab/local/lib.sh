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
# shellcheck source-path=SCRIPTDIR source=../lib/debian.sh
. "$LOCAL_ROOT/lab/lib/debian.sh"

use_toolchain() {
  # shellcheck source-path=SCRIPTDIR source=../toolchain/env.sh
  . "$LOCAL_ROOT/lab/toolchain/env.sh"
  command -v pulumi >/dev/null || die "pulumi is not built; run lab/toolchain/build.sh"
}

# lab/k8s/up writes the vim-config.yaml that stacks/Pulumi.local.yaml registers; down removes it.
k8s_lab_running() { [[ -f "${NFV_LAB_STATE:-/var/lib/pulumi-nfv-lab}/k8s/vim-config.yaml" ]]; }

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

# The "existing host" of the stack's private registry: a lab host (network namespace with its own
# sshd) at the address stacks/Pulumi.local.yaml names.
start_registry_host() {
  [[ "$STACK" == local ]] || return 0
  log "lab host 'registry' at 10.254.0.10 (lab/hosts/host)"
  "$LOCAL_ROOT/lab/hosts/host" up registry 10.254.0.10 >/dev/null
}

select_stack() {
  (cd "$LOCAL_ROOT" && pulumi stack select "$STACK" 2>/dev/null) ||
    (cd "$LOCAL_ROOT" && pulumi stack init "$STACK" --secrets-provider passphrase >/dev/null)
}
