# shellcheck shell=bash
# Magnum (containers as a service) as an optional part of the lab: `up --with-magnum` (implies
# Heat: Magnum's drivers are Heat templates). Sourced by `up` after heat_up; needs lib/common.sh,
# lib/configs.sh (db_url, authtoken, RABBIT_URL), lib/heat.sh and the lab's secrets.
#
# Debian bookworm's magnum-api/magnum-conductor (Magnum 15, Zed), run like the other services:
# without systemd, on 127.0.0.1, each started by `start` (pid recorded, so `down` stops it).
#
#   magnum_up    install (if missing), config, database, keystone registration, start, wait ready
#
# What a real cloud has that the lab replaces, and why:
#   * etcd discovery: Magnum asks discovery.etcd.io for a discovery URL at every cluster create.
#     The lab must send nothing off the machine, so [cluster] points at the loopback stand-in
#     standins/etcd-discovery (as an air-gapped site points it at its own discovery service).
#   * the nodes' Heat agent: standins/heat-agent (started by heat_up) acknowledges the software
#     deployments Magnum's templates give its servers, which boot nothing under the fake driver.
#   * certificates: the x509keypair manager keeps the cluster CA in Magnum's database (no Barbican).
#   * the COE image: `fedora-coreos-lab`, a few bytes with os_distro=fedora-coreos (Magnum picks its
#     k8s_fedora_coreos_v1 driver by that property); nothing boots it.
#
# Keystone: service user `magnum` (admin in project service), service `container-infra` at
# http://127.0.0.1:9511/v1, the trustee domain `magnum` with its admin `magnum_domain_admin`.

MAGNUM_PACKAGES=(magnum-api magnum-conductor python3-magnumclient)
MAGNUM_PORT=9511
ETCD_DISCOVERY_PORT=9519

magnum_secrets() { # the trustee domain admin's password, kept in the state dir
  if [[ ! -s "$S/magnum-secrets.env" ]]; then
    umask 077
    echo "MAGNUM_DOMAIN_PASSWORD=$(head -c 18 /dev/urandom | base64 | tr -d '/+=')" >"$S/magnum-secrets.env"
    umask 022
  fi
  # shellcheck source=/dev/null
  . "$S/magnum-secrets.env"
  export MAGNUM_DOMAIN_PASSWORD
}

write_magnum_conf() {
  mkdir -p "$S/etc/magnum" "$S/data/magnum/lock"
  local c
  umask 077
  {
    cat <<EOT
[DEFAULT]
transport_url = $RABBIT_URL
host = oslab
state_path = $S/data/magnum
[api]
host = 127.0.0.1
port = $MAGNUM_PORT
workers = 1
[database]
connection = $(db_url magnum)
$(authtoken magnum)
[keystone_auth]
auth_type = password
auth_url = http://127.0.0.1:5000
username = magnum
password = $SERVICE_PASSWORD
project_name = service
user_domain_name = Default
project_domain_name = Default
[trust]
trustee_domain_name = magnum
trustee_domain_admin_name = magnum_domain_admin
trustee_domain_admin_password = $MAGNUM_DOMAIN_PASSWORD
trustee_keystone_interface = public
[certificates]
cert_manager_type = x509keypair
[cluster]
etcd_discovery_service_endpoint_format = http://127.0.0.1:$ETCD_DISCOVERY_PORT/new?size=%(size)d
[oslo_concurrency]
lock_path = $S/data/magnum/lock
[oslo_messaging_notifications]
driver = noop
EOT
    for c in cinder_client glance_client heat_client magnum_client neutron_client nova_client octavia_client; do
      printf '[%s]\nregion_name = %s\nendpoint_type = publicURL\n' "$c" "$REGION"
    done
  } >"$S/etc/magnum/magnum.conf"
  umask 022
}

# Keystone objects and the COE image Magnum needs, idempotent (lib/bootstrap.py magnum).
register_magnum() {
  [[ -e "$S/run/magnum-catalog.done" ]] && return 0
  admin_env
  python3 "$LAB_DIR/lib/bootstrap.py" magnum >"$S/log/bootstrap-magnum.log" 2>&1 ||
    die "magnum keystone registration failed: $S/log/bootstrap-magnum.log"
  touch "$S/run/magnum-catalog.done"
}

magnum_ready() { # the API answers, the conductor has registered (its first periodic task), discovery answers
  curl -sf "http://127.0.0.1:$MAGNUM_PORT/" >/dev/null || return 1
  curl -sf "http://127.0.0.1:$ETCD_DISCOVERY_PORT/health" >/dev/null || return 1
  [[ "$(mariadb --socket="$S/run/mysqld.sock" -N magnum <<<"SELECT COUNT(*) FROM magnum_service;" 2>/dev/null)" =~ ^[1-9] ]]
}

magnum_up() {
  local t0; t0=$(date +%s)
  install_debian_packages "${MAGNUM_PACKAGES[@]}" || die "apt-get install ${MAGNUM_PACKAGES[*]} failed"
  magnum_secrets
  write_magnum_conf
  if [[ ! -e "$S/run/magnum-db.done" ]]; then
    mariadb --socket="$S/run/mysqld.sock" <<<"CREATE DATABASE IF NOT EXISTS magnum;"
    magnum-db-manage --config-file "$S/etc/magnum/magnum.conf" upgrade >"$S/log/sync-magnum.log" 2>&1 ||
      die "magnum db upgrade failed: $S/log/sync-magnum.log"
    touch "$S/run/magnum-db.done"
  fi
  register_magnum
  start etcd-discovery python3 "$LAB_DIR/standins/etcd-discovery" --port "$ETCD_DISCOVERY_PORT"
  start magnum-conductor magnum-conductor --config-file "$S/etc/magnum/magnum.conf" --log-file "$S/log/magnum-conductor.log"
  start magnum-api magnum-api --config-file "$S/etc/magnum/magnum.conf" --log-file "$S/log/magnum-api.log"
  wait_for 120 "magnum-api on :$MAGNUM_PORT, magnum-conductor registered, etcd discovery on :$ETCD_DISCOVERY_PORT" magnum_ready
  echo "magnum_setup_seconds=$(($(date +%s) - t0))" >"$S/magnum.facts"
  step "magnum: api on :$MAGNUM_PORT ($(($(date +%s) - t0))s)"
}
