# shellcheck shell=bash
# Heat (orchestration, the engine Tacker drives) as an optional part of the lab: `up --with-heat`
# or NFV_LAB_HEAT=1. Sourced by `up` after the rest of the lab is ready; needs lib/common.sh,
# lib/configs.sh (db_url, authtoken, RABBIT_URL) and the lab's secrets.
#
# Debian bookworm's heat-api/heat-engine (Heat 19, Zed), run like the other services: without
# systemd, on 127.0.0.1, each started by `start` (pid recorded, so `down` stops it). heat-api is the
# eventlet console script (no uwsgi, so no keep-alive trouble), heat-engine forks
# HEAT_ENGINE_WORKERS workers (default: the number of cores, Heat's own default would be at least 4).
#
#   heat_up    install (if missing), config, database, keystone registration, start, wait ready
#   heat_down  stop heat-api, heat-engine and the heat-agent stand-in only (`down --heat-only`); `down`
#              stops them with the rest
#
# Keystone: service user `heat` (admin + service in project service), service `orchestration` at
# http://127.0.0.1:8004/v1/%(tenant_id)s, roles heat_stack_owner and heat_stack_user, the stack
# domain `heat` with its admin `heat_domain_admin` (admin on the domain), heat_stack_owner for
# nfv_user in nfv (as Heat's install guide does for the demo user).

HEAT_PACKAGES=(heat-api heat-engine python3-heatclient)
HEAT_PORT=8004
HEAT_ENGINE_WORKERS="${NFV_LAB_HEAT_ENGINE_WORKERS:-$(nproc)}"

# shellcheck source=../../lib/debian.sh
. "$LAB_DIR/../lib/debian.sh"

heat_secrets() { # the domain admin's password and the auth encryption key (32 characters), kept in the state dir
  if [[ ! -s "$S/heat-secrets.env" ]]; then
    umask 077
    {
      echo "HEAT_DOMAIN_PASSWORD=$(head -c 18 /dev/urandom | base64 | tr -d '/+=')"
      echo "HEAT_AUTH_KEY=$(head -c 48 /dev/urandom | base64 | tr -d '/+=' | cut -c1-32)"
    } >"$S/heat-secrets.env"
    umask 022
  fi
  # shellcheck source=/dev/null
  . "$S/heat-secrets.env"
  export HEAT_DOMAIN_PASSWORD
}

write_heat_conf() {
  mkdir -p "$S/etc/heat" "$S/data/heat/lock"
  umask 077
  cat >"$S/etc/heat/heat.conf" <<EOT
[DEFAULT]
transport_url = $RABBIT_URL
region_name_for_services = $REGION
num_engine_workers = $HEAT_ENGINE_WORKERS
# servers' cfn metadata URL (heat-api-cfn is not run: no server here reads it, the fake driver boots nothing)
heat_metadata_server_url = http://127.0.0.1:8000
heat_waitcondition_server_url = http://127.0.0.1:8000/v1/waitcondition
stack_user_domain_name = heat
stack_domain_admin = heat_domain_admin
stack_domain_admin_password = $HEAT_DOMAIN_PASSWORD
auth_encryption_key = $HEAT_AUTH_KEY
environment_dir = /etc/heat/environment.d
template_dir = /etc/heat/templates
[database]
connection = $(db_url heat)
$(authtoken heat)
[trustee]
auth_type = password
auth_url = http://127.0.0.1:5000
username = heat
password = $SERVICE_PASSWORD
user_domain_name = Default
[clients_keystone]
auth_uri = http://127.0.0.1:5000
[heat_api]
bind_host = 127.0.0.1
bind_port = $HEAT_PORT
workers = 1
[paste_deploy]
api_paste_config = /etc/heat/api-paste.ini
[oslo_concurrency]
lock_path = $S/data/heat/lock
[oslo_messaging_notifications]
driver = noop
EOT
  umask 022
}

# Keystone objects Heat needs, idempotent (lib/bootstrap.py heat).
register_heat() {
  [[ -e "$S/run/heat-catalog.done" ]] && return 0
  admin_env
  python3 "$LAB_DIR/lib/bootstrap.py" heat >"$S/log/bootstrap-heat.log" 2>&1 ||
    die "heat keystone registration failed: $S/log/bootstrap-heat.log"
  touch "$S/run/heat-catalog.done"
}

heat_ready() { # heat-api answers and every engine worker has registered
  curl -sf "http://127.0.0.1:$HEAT_PORT/" >/dev/null || return 1
  local up
  up="$(heat-manage --config-file "$S/etc/heat/heat.conf" service list 2>/dev/null | grep -c ' up ' || true)"
  ((up >= HEAT_ENGINE_WORKERS))
}

heat_up() {
  local t0; t0=$(date +%s)
  install_debian_packages "${HEAT_PACKAGES[@]}" || die "apt-get install ${HEAT_PACKAGES[*]} failed"
  heat_secrets
  write_heat_conf
  if [[ ! -e "$S/run/heat-db.done" ]]; then
    mariadb --socket="$S/run/mysqld.sock" <<<"CREATE DATABASE IF NOT EXISTS heat;"
    heat-manage --config-file "$S/etc/heat/heat.conf" db_sync >"$S/log/sync-heat.log" 2>&1 ||
      die "heat db_sync failed: $S/log/sync-heat.log"
    touch "$S/run/heat-db.done"
  fi
  register_heat
  local fresh=0 t1
  running heat-engine && running heat-api || fresh=1
  t1=$(date +%s.%N)
  start heat-engine heat-engine --config-file "$S/etc/heat/heat.conf" --log-file "$S/log/heat-engine.log"
  start heat-api heat-api --config-file "$S/etc/heat/heat.conf" --log-file "$S/log/heat-api.log"
  wait_for 120 "heat-api on :$HEAT_PORT and $HEAT_ENGINE_WORKERS heat-engine workers" heat_ready
  # the lab's servers boot nothing: this stand-in signals their software deployments (see its header)
  (admin_env && start heat-agent python3 "$LAB_DIR/standins/heat-agent" --state "$S")
  if ((fresh)); then # facts of this start, printed by up's summary (kept while Heat runs)
    {
      echo "heat_started=$(date -u +%FT%TZ)"
      echo "heat_start_seconds=$(awk -v a="$t1" -v b="$(date +%s.%N)" 'BEGIN {printf "%.1f", b - a}')"
      echo "heat_setup_seconds=$(($(date +%s) - t0))"
      echo "heat_engine_workers=$HEAT_ENGINE_WORKERS"
    } >"$S/heat.facts"
  fi
  step "heat: api on :$HEAT_PORT, $HEAT_ENGINE_WORKERS engine workers ($(($(date +%s) - t0))s)"
}

heat_down() { # stop what heat_up started (recorded pids, whole sessions), keep config and database
  local n pid i
  for n in heat-agent heat-api heat-engine; do
    if running "$n"; then
      pid="$(<"$(pidfile "$n")")"
      kill -TERM -- "-$pid" 2>/dev/null || kill -TERM "$pid" 2>/dev/null || true
      for ((i = 0; i < 30; i++)); do running "$n" || break; sleep 1; done
      running "$n" && { kill -KILL -- "-$pid" 2>/dev/null || true; }
      log "stopped $n (pid $pid)"
    fi
    rm -f "$(pidfile "$n")"
  done
  rm -f "$S/heat.facts"
}
