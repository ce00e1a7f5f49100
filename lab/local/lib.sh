# shellcheck shell=bash
# Shared by lab/local/up and lab/local/down: the environment of the `local` stack.

LOCAL_ROOT="$(cd "$(dirname "${BASH_SOURCE[0]}")/../.." && pwd)"
STACK=local
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

select_stack() {
  (cd "$LOCAL_ROOT" && pulumi stack select "$STACK" 2>/dev/null) ||
    (cd "$LOCAL_ROOT" && pulumi stack init "$STACK" --secrets-provider passphrase >/dev/null)
}
