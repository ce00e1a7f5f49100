# shellcheck shell=bash disable=SC2034
# Shared settings of lab/oidc/{up,down}. Sourced, not run.
#
# Environment (all optional):
#   NFV_OIDC_STATE       state directory (CA, keys, config, sqlite database, secrets, log, pid)
#                        (default ${NFV_LAB_STATE:-/var/lib/pulumi-nfv-lab}/oidc, beside the other labs)
#   NFV_OIDC_PORT        https port of the issuer on 127.0.0.1 (default 4593)
#   NFV_OIDC_TOKEN_TTL   lifetime in seconds of access tokens and id_tokens (default 3600)
#   NFV_OIDC_REFRESH_TTL lifetime in seconds of refresh tokens (default 1209600, 14 days)
#   NFV_OIDC_TIMEOUT     seconds to wait for glewlwyd to answer (default 60)

STATE="${NFV_OIDC_STATE:-${NFV_LAB_STATE:-/var/lib/pulumi-nfv-lab}/oidc}"
ADDR=127.0.0.1
PORT="${NFV_OIDC_PORT:-4593}"
TOKEN_TTL="${NFV_OIDC_TOKEN_TTL:-3600}"
REFRESH_TTL="${NFV_OIDC_REFRESH_TTL:-1209600}"
TIMEOUT="${NFV_OIDC_TIMEOUT:-60}"

BASE_URL="https://$ADDR:$PORT"
PLUGIN=oidc                                   # plugin instance name: path /api/oidc
ISSUER="$BASE_URL/api/$PLUGIN"
TOKEN_URL="$ISSUER/token"
DISCOVERY_URL="$ISSUER/.well-known/openid-configuration"

CLIENT_ID=pulumi-nfv
USERNAME=nfv-operator

MARK="$STATE/.nfv-oidc"                       # down removes only a directory carrying this
CONFIGURED="$STATE/.configured"               # written once the admin API calls all passed
PIDFILE="$STATE/glewlwyd.pid"
CONF="$STATE/glewlwyd.conf"
DB="$STATE/glewlwyd.db"
LOG="$STATE/glewlwyd.log"
CA="$STATE/ca.pem"
COOKIES="$STATE/admin.cookies"
ADMIN_PASSWORD_FILE="$STATE/admin_password"
CLIENT_SECRET_FILE="$STATE/client_secret"
PASSWORD_FILE="$STATE/password"
GLEWLWYD=/usr/bin/glewlwyd

log() { printf '[%s] oidc: %s\n' "$(date -u '+%Y-%m-%dT%H:%M:%SZ')" "$*" >&2; }
die() { log "ERROR: $*"; exit 1; }

# running_pid: prints the pid of the glewlwyd this state dir started, if it still runs it
# (the pid is checked to run $GLEWLWYD with this state's config, not some reused pid).
running_pid() {
  local pid
  [[ -f "$PIDFILE" ]] || return 1
  pid="$(cat "$PIDFILE")"
  [[ "$pid" =~ ^[0-9]+$ && -r "/proc/$pid/cmdline" ]] || return 1
  tr '\0' ' ' <"/proc/$pid/cmdline" | grep -qF -- "$GLEWLWYD --config=$CONF" || return 1
  echo "$pid"
}
