# shellcheck shell=sh
# Environment for the offline Pulumi toolchain built by lab/toolchain/build.sh.
# Source it (". lab/toolchain/env.sh"); it builds nothing, it only points at
# the cache. POSIX sh, safe under "set -eu".
#
#   NFV_CACHE                  cache root (default: $HOME/.cache/pulumi-nfv)
#   PULUMI_HOME                $NFV_CACHE/pulumi-home (plugins, credentials)
#   PATH                       $NFV_CACHE/bin first: pulumi + pulumi-language-nodejs
#   PULUMI_BACKEND_URL         file://$NFV_CACHE/state unless already set
#   PULUMI_CONFIG_PASSPHRASE_FILE  $NFV_CACHE/passphrase (made on first use)
#                              unless PULUMI_CONFIG_PASSPHRASE(_FILE) is set
NFV_CACHE="${NFV_CACHE:-$HOME/.cache/pulumi-nfv}"
export NFV_CACHE
export PULUMI_HOME="$NFV_CACHE/pulumi-home"
case ":$PATH:" in
  *":$NFV_CACHE/bin:"*) ;;
  *) PATH="$NFV_CACHE/bin:$PATH" ;;
esac
export PATH
# No update checks, never download plugins, ignore pulumi-resource-* on PATH
# (the language host next to the pulumi binary is still found: it is bundled).
export PULUMI_SKIP_UPDATE_CHECK=true
export PULUMI_DISABLE_AUTOMATIC_PLUGIN_ACQUISITION=true
export PULUMI_IGNORE_AMBIENT_PLUGINS=true
export PULUMI_DIY_BACKEND_NO_LEGACY_WARNING="${PULUMI_DIY_BACKEND_NO_LEGACY_WARNING:-true}"
# Local file backend, unless the caller chose one.
export PULUMI_BACKEND_URL="${PULUMI_BACKEND_URL:-file://$NFV_CACHE/state}"
case "$PULUMI_BACKEND_URL" in
  "file://$NFV_CACHE/state") mkdir -p "$NFV_CACHE/state" ;;
esac
# Passphrase secrets provider (the default of the file backend).
if [ -z "${PULUMI_CONFIG_PASSPHRASE+set}" ] && [ -z "${PULUMI_CONFIG_PASSPHRASE_FILE:-}" ]; then
  export PULUMI_CONFIG_PASSPHRASE_FILE="$NFV_CACHE/passphrase"
  if [ ! -s "$PULUMI_CONFIG_PASSPHRASE_FILE" ]; then
    mkdir -p "$NFV_CACHE"
    (umask 077 && od -An -N24 -tx1 /dev/urandom | tr -d ' \n' >"$PULUMI_CONFIG_PASSPHRASE_FILE")
  fi
fi
