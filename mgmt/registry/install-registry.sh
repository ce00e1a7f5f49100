#!/usr/bin/env bash
# Installs a private Docker registry on this VM. Run as root (the hook uses `sudo -n`).
#   install-registry.sh [install]   install, or converge to the parameters
#   install-registry.sh remove      stop and disable the registry, remove its TLS/auth files; the
#                                   stored images stay (an existing host's terminate hook)
#
# Parameters arrive on stdin as key=value lines, never on the command line (they hold secrets):
#   MODE=container|native          container: Docker + registry image; native: Debian's docker-registry
#   PORT=5000                      host TCP port (1-65535)
#   REGISTRY_IMAGE=registry:2.8.3  container mode: pinned image reference (no `latest`)
#   IMAGE_TARBALL=/path.tar        container mode: `docker save` tarball loaded instead of pulling
#   DOCKER_PACKAGE_VERSION=...     container mode: apt version of docker.io (optional pin)
#   REGISTRY_PACKAGE_VERSION=...   native mode: apt version of docker-registry (optional pin)
#   APT_PROXY_CONF_B64=...         optional proxy for apt: apt.conf lines, base64
#   PROXY_DROPIN_B64=...           optional proxy for the service: a systemd drop-in, base64
#                                  (both written and escaped by pulumi-nfv, components/host-files:
#                                  this script never puts a value into apt or systemd syntax)
#   TLS_CERT_B64 / TLS_KEY_B64     optional TLS, base64 of PEM
#   AUTH_USER / AUTH_PASSWORD      optional htpasswd auth (bcrypt)
#   STORAGE_VOLUME_ID=<cinder id>  optional: format (once) and mount that volume on STORAGE_DIR
#   STORAGE_DIR=/var/lib/nfv-registry
# Output: key=value lines on stdout (registry_mode, registry_port, registry_scheme, registry_status,
# registry_storage). Every step checks before it acts, so a second run changes nothing, and a
# service that stopped is started again (what heal relies on).
# Services are managed by systemd when it runs the host, otherwise by the packages' SysV init
# scripts through `service` (containers, the lab's namespace hosts); the proxy then reaches apt
# only, as the service environment is a systemd drop-in.
set -euo pipefail

ROOT="${NFV_ROOT:-}"            # tests point this at a scratch directory
DEV_DIR="${NFV_DEV_DIR:-/dev/disk/by-id}"
WAIT_TRIES="${NFV_WAIT_TRIES:-30}"
WAIT_SLEEP="${NFV_WAIT_SLEEP:-2}"
SYSTEMD_DIR="${NFV_SYSTEMD_DIR:-/run/systemd/system}"   # exists only when systemd runs the host
CONTAINER_NAME="nfv-registry"

MODE="container" PORT="5000" REGISTRY_IMAGE="registry:2.8.3" IMAGE_TARBALL="" DOCKER_PACKAGE_VERSION=""
REGISTRY_PACKAGE_VERSION="" APT_PROXY_CONF_B64="" PROXY_DROPIN_B64="" TLS_CERT_B64="" TLS_KEY_B64=""
AUTH_USER="" AUTH_PASSWORD="" STORAGE_VOLUME_ID="" STORAGE_DIR="/var/lib/nfv-registry"

log() { echo "install-registry: $*" >&2; }
die() { log "error: $*"; exit 1; }

read_params() {
  local line key value
  while IFS= read -r line || [[ -n "$line" ]]; do
    [[ -z "$line" || "$line" == \#* ]] && continue
    [[ "$line" == *=* ]] || die "stdin line is not key=value"
    key="${line%%=*}" value="${line#*=}"
    case "$key" in
      MODE|PORT|REGISTRY_IMAGE|IMAGE_TARBALL|DOCKER_PACKAGE_VERSION|REGISTRY_PACKAGE_VERSION|APT_PROXY_CONF_B64|PROXY_DROPIN_B64|TLS_CERT_B64|TLS_KEY_B64|AUTH_USER|AUTH_PASSWORD|STORAGE_VOLUME_ID|STORAGE_DIR)
        printf -v "$key" '%s' "$value" ;;
      *) die "unknown parameter $key" ;;
    esac
  done
}

validate_params() {
  [[ "$MODE" == container || "$MODE" == native ]] || die "MODE must be container or native, got $MODE"
  if ! [[ "$PORT" =~ ^[0-9]{1,5}$ ]] || (( 10#$PORT < 1 || 10#$PORT > 65535 )); then die "PORT must be 1-65535, got $PORT"; fi
  if [[ "$MODE" == container ]]; then
    [[ "$REGISTRY_IMAGE" == *:* && "$REGISTRY_IMAGE" != *:latest ]] || die "REGISTRY_IMAGE must be pinned (name:tag, not latest)"
    [[ -z "$IMAGE_TARBALL" || -f "$IMAGE_TARBALL" ]] || die "IMAGE_TARBALL $IMAGE_TARBALL does not exist"
  fi
  if [[ -n "$TLS_CERT_B64" && -z "$TLS_KEY_B64" ]] || [[ -z "$TLS_CERT_B64" && -n "$TLS_KEY_B64" ]]; then die "TLS needs both TLS_CERT_B64 and TLS_KEY_B64"; fi
  if [[ -n "$AUTH_USER" && -z "$AUTH_PASSWORD" ]] || [[ -z "$AUTH_USER" && -n "$AUTH_PASSWORD" ]]; then die "auth needs both AUTH_USER and AUTH_PASSWORD"; fi
  [[ "$STORAGE_DIR" == /* ]] || die "STORAGE_DIR must be absolute"
}

configure_apt_proxy() {
  local conf="$ROOT/etc/apt/apt.conf.d/95nfv-proxy"
  if [[ -z "$APT_PROXY_CONF_B64" ]]; then rm -f "$conf"; return 0; fi
  write_if_changed "$conf" 600 "$(b64 "$APT_PROXY_CONF_B64")"$'\n'
}

# b64 TEXT: decodes base64 (the transport of file contents on key=value lines).
b64() { printf '%s' "$1" | base64 -d; }

# write_if_changed FILE MODE CONTENT: rewrites FILE only when CONTENT differs; prints nothing.
write_if_changed() {
  local file="$1" mode="$2" content="$3"
  mkdir -p "$(dirname "$file")"
  if [[ -f "$file" ]] && [[ "$(cat "$file")" == "${content%$'\n'}" ]]; then return 1; fi
  ( umask 077; printf '%s' "$content" >"$file" )
  chmod "$mode" "$file"
  return 0
}

install_packages() {
  local pkgs=()
  if [[ "$MODE" == container ]]; then
    pkgs+=("docker.io${DOCKER_PACKAGE_VERSION:+=$DOCKER_PACKAGE_VERSION}")
  else
    pkgs+=("docker-registry${REGISTRY_PACKAGE_VERSION:+=$REGISTRY_PACKAGE_VERSION}")
  fi
  [[ -n "$AUTH_USER" ]] && pkgs+=(apache2-utils)
  local missing=() p
  for p in "${pkgs[@]}"; do
    dpkg-query -W -f='${Status}' "${p%%=*}" 2>/dev/null | grep -q "install ok installed" || missing+=("$p")
  done
  (( ${#missing[@]} == 0 )) && return 0
  DEBIAN_FRONTEND=noninteractive apt-get update -q >&2
  DEBIAN_FRONTEND=noninteractive apt-get install -y -q --no-install-recommends "${missing[@]}" >&2
}

prepare_storage() {
  mkdir -p "$ROOT$STORAGE_DIR"
  [[ -z "$STORAGE_VOLUME_ID" ]] && return 0
  local dev="$DEV_DIR/virtio-${STORAGE_VOLUME_ID:0:20}" i uuid
  for ((i = 0; i < WAIT_TRIES; i++)); do [[ -e "$dev" ]] && break; sleep "$WAIT_SLEEP"; done
  [[ -e "$dev" ]] || die "volume $STORAGE_VOLUME_ID not attached ($dev missing)"
  if ! blkid -o value -s TYPE "$dev" >/dev/null 2>&1; then
    log "formatting $dev (empty volume)"
    mkfs.ext4 -q -L nfv-registry "$dev" >&2
  fi
  uuid="$(blkid -o value -s UUID "$dev")"
  local fstab="$ROOT/etc/fstab"
  mkdir -p "$(dirname "$fstab")"
  touch "$fstab"
  grep -q "^UUID=$uuid " "$fstab" || echo "UUID=$uuid $STORAGE_DIR ext4 defaults,nofail 0 2" >>"$fstab"
  mountpoint -q "$ROOT$STORAGE_DIR" || mount "$ROOT$STORAGE_DIR"
}

write_tls_and_auth() {
  local dir="$ROOT/etc/nfv-registry"
  mkdir -p "$dir"
  if [[ -n "$TLS_CERT_B64" ]]; then
    write_if_changed "$dir/tls.crt" 644 "$(b64 "$TLS_CERT_B64")" || true
    write_if_changed "$dir/tls.key" 600 "$(b64 "$TLS_KEY_B64")" || true
  else
    rm -f "$dir/tls.crt" "$dir/tls.key"
  fi
  if [[ -n "$AUTH_USER" ]]; then
    # The password goes through stdin (-i), never argv.
    if [[ -f "$dir/htpasswd" ]] && htpasswd -vi "$dir/htpasswd" "$AUTH_USER" <<<"$AUTH_PASSWORD" >/dev/null 2>&1; then return 0; fi
    local line
    line="$(htpasswd -niB "$AUTH_USER" <<<"$AUTH_PASSWORD")"
    write_if_changed "$dir/htpasswd" 640 "$line"$'\n' || true
  else
    rm -f "$dir/htpasswd"
  fi
}

configure_docker_proxy() {
  local conf="$ROOT/etc/systemd/system/docker.service.d/http-proxy.conf"
  [[ -z "$PROXY_DROPIN_B64" ]] && { rm -f "$conf"; return 0; }
  if write_if_changed "$conf" 600 "$(b64 "$PROXY_DROPIN_B64")"$'\n'; then
    svc daemon-reload
    svc restart docker
  fi
}

have_systemd() { [[ -d "$SYSTEMD_DIR" ]]; }

# svc ACTION UNIT, ACTION one of daemon-reload, enable, disable, start, stop, restart, is-active.
# Under SysV, start, stop and restart first ask `status`, because the init scripts fail to start a
# running service and to stop a stopped one.
svc() {
  local action="$1" unit="${2:-}"
  if have_systemd; then
    case "$action" in
      daemon-reload) systemctl daemon-reload ;;
      is-active) systemctl is-active --quiet "$unit" ;;
      *) systemctl "$action" "$unit" >&2 ;;
    esac
    return
  fi
  case "$action" in
    daemon-reload | enable | disable) ;; # no unit files; the package's postinst ran update-rc.d
    is-active) service "$unit" status >/dev/null 2>&1 ;;
    start) service "$unit" status >/dev/null 2>&1 || service "$unit" start >&2 ;;
    stop) if service "$unit" status >/dev/null 2>&1; then service "$unit" stop >&2; fi ;;
    restart)
      if service "$unit" status >/dev/null 2>&1; then service "$unit" stop >&2; fi
      service "$unit" start >&2
      ;;
  esac
}

wait_active() {
  local unit="$1" i
  for ((i = 0; i < WAIT_TRIES; i++)); do
    svc is-active "$unit" && return 0
    sleep "$WAIT_SLEEP"
  done
  die "$unit is not active"
}

ensure_image() {
  docker image inspect "$REGISTRY_IMAGE" >/dev/null 2>&1 && return 0
  if [[ -n "$IMAGE_TARBALL" ]]; then
    docker load -i "$IMAGE_TARBALL" >&2
  else
    docker pull "$REGISTRY_IMAGE" >&2
  fi
  docker image inspect "$REGISTRY_IMAGE" >/dev/null 2>&1 || die "image $REGISTRY_IMAGE not present after load/pull"
}

run_container() {
  local dir="/etc/nfv-registry" args hash current
  args=(-d --restart=always --name "$CONTAINER_NAME" -p "$PORT:5000" -v "$STORAGE_DIR:/var/lib/registry")
  if [[ -n "$TLS_CERT_B64" ]]; then
    args+=(-v "$dir/tls.crt:/certs/tls.crt:ro" -v "$dir/tls.key:/certs/tls.key:ro"
      -e REGISTRY_HTTP_TLS_CERTIFICATE=/certs/tls.crt -e REGISTRY_HTTP_TLS_KEY=/certs/tls.key)
  fi
  if [[ -n "$AUTH_USER" ]]; then
    args+=(-v "$dir/htpasswd:/auth/htpasswd:ro" -e REGISTRY_AUTH=htpasswd
      -e REGISTRY_AUTH_HTPASSWD_REALM=nfv-registry -e REGISTRY_AUTH_HTPASSWD_PATH=/auth/htpasswd)
  fi
  # The hash covers the run arguments and the secret files' contents, so a changed password or
  # certificate restarts the container, while an unchanged configuration leaves it alone.
  hash="$( { printf '%s\n' "${args[@]}" "$REGISTRY_IMAGE"; cat "$ROOT$dir"/* 2>/dev/null || true; } | sha256sum | cut -c1-16)"
  current="$(docker inspect -f '{{ index .Config.Labels "nfv.config-hash" }}' "$CONTAINER_NAME" 2>/dev/null || true)"
  if [[ "$current" == "$hash" ]]; then
    [[ "$(docker inspect -f '{{.State.Running}}' "$CONTAINER_NAME")" == true ]] || docker start "$CONTAINER_NAME" >&2
    return 0
  fi
  [[ -n "$current" ]] && docker rm -f "$CONTAINER_NAME" >&2
  docker run "${args[@]}" --label "nfv.config-hash=$hash" "$REGISTRY_IMAGE" >&2
}

wait_container() {
  local i
  for ((i = 0; i < WAIT_TRIES; i++)); do
    [[ "$(docker inspect -f '{{.State.Running}}' "$CONTAINER_NAME" 2>/dev/null || true)" == true ]] && return 0
    sleep "$WAIT_SLEEP"
  done
  die "container $CONTAINER_NAME is not running"
}

configure_native() {
  local dir="/etc/nfv-registry" conf="$ROOT/etc/docker/registry/config.yml" want
  want="version: 0.1
log:
  level: info
storage:
  filesystem:
    rootdirectory: $STORAGE_DIR
  delete:
    enabled: true
http:
  addr: :$PORT
"
  [[ -n "$TLS_CERT_B64" ]] && want+="  tls:
    certificate: $dir/tls.crt
    key: $dir/tls.key
"
  [[ -n "$AUTH_USER" ]] && want+="auth:
  htpasswd:
    realm: nfv-registry
    path: $dir/htpasswd
"
  local changed=0 envconf="$ROOT/etc/systemd/system/docker-registry.service.d/http-proxy.conf"
  write_if_changed "$conf" 644 "$want" && changed=1
  if [[ -n "$PROXY_DROPIN_B64" ]]; then
    write_if_changed "$envconf" 600 "$(b64 "$PROXY_DROPIN_B64")"$'\n' && changed=1
  fi
  # The packaged service runs as docker-registry: it must own the storage and read the secrets.
  chown -R docker-registry: "$ROOT$STORAGE_DIR" 2>/dev/null || true
  if [[ -e "$ROOT$dir/tls.key" ]]; then chgrp docker-registry "$ROOT$dir/tls.key" && chmod 640 "$ROOT$dir/tls.key"; fi
  if [[ -e "$ROOT$dir/htpasswd" ]]; then chgrp docker-registry "$ROOT$dir/htpasswd"; fi
  svc daemon-reload
  svc enable docker-registry
  if (( changed )); then svc restart docker-registry; else svc start docker-registry; fi
}

report() {
  echo "registry_mode=$MODE"
  echo "registry_port=$PORT"
  if [[ -n "$TLS_CERT_B64" ]]; then echo "registry_scheme=https"; else echo "registry_scheme=http"; fi
  echo "registry_auth=$([[ -n "$AUTH_USER" ]] && echo htpasswd || echo none)"
  echo "registry_storage=$STORAGE_DIR"
  echo "registry_status=running"
}

remove() {
  if [[ "$MODE" == container ]]; then
    if docker inspect "$CONTAINER_NAME" >/dev/null 2>&1; then docker rm -f "$CONTAINER_NAME" >&2; fi
  else
    svc stop docker-registry
    svc disable docker-registry
  fi
  # The files, not the directory: it may be a mount point (a lab host's private directory).
  rm -f "$ROOT/etc/nfv-registry/tls.crt" "$ROOT/etc/nfv-registry/tls.key" "$ROOT/etc/nfv-registry/htpasswd"
  log "registry stopped; the stored images stay in $STORAGE_DIR"
  echo "registry_status=removed"
}

main() {
  read_params
  validate_params
  case "${1:-install}" in
    install) ;;
    remove) remove; return ;;
    *) die "unknown action $1 (install or remove)" ;;
  esac
  configure_apt_proxy || true
  install_packages
  prepare_storage
  write_tls_and_auth
  if [[ "$MODE" == container ]]; then
    configure_docker_proxy
    wait_active docker
    ensure_image
    run_container
    wait_container
  else
    configure_native
    wait_active docker-registry
  fi
  report
}

if [[ "${BASH_SOURCE[0]}" == "$0" ]]; then
  main "$@"
fi
