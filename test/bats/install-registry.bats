#!/usr/bin/env bats
# mgmt/registry/install-registry.sh with PATH stubs (test/bats/stubs): apt-get, dpkg-query, docker,
# systemctl, service, blkid, mkfs.ext4, mount, mountpoint, htpasswd, chown, chgrp, sleep. Files land
# under NFV_ROOT. Proves the steps, their idempotence and where secrets go; not a real Docker or apt.
# The host runs systemd (NFV_SYSTEMD_DIR exists) unless a test removes it.

SCRIPT="$BATS_TEST_DIRNAME/../../mgmt/registry/install-registry.sh"

setup() {
  export PATH="$BATS_TEST_DIRNAME/stubs:$PATH"
  export STUB_STATE="$BATS_TEST_TMPDIR/state" STUB_LOG="$BATS_TEST_TMPDIR/calls.log"
  export NFV_ROOT="$BATS_TEST_TMPDIR/root" NFV_DEV_DIR="$BATS_TEST_TMPDIR/dev" NFV_WAIT_TRIES=2 NFV_WAIT_SLEEP=0
  export NFV_SYSTEMD_DIR="$BATS_TEST_TMPDIR/run-systemd-system"
  mkdir -p "$STUB_STATE" "$NFV_ROOT" "$NFV_DEV_DIR" "$NFV_SYSTEMD_DIR"
  : >"$STUB_LOG"
}

install() { printf '%s\n' "$@" | bash "$SCRIPT"; }

@test "container mode: installs docker.io, pulls the pinned image, runs it on the port, reports key=value" {
  run install MODE=container PORT=5000 REGISTRY_IMAGE=registry:2.8.3
  [ "$status" -eq 0 ]
  [ "${lines[0]}" = "registry_mode=container" ]
  [[ "$output" == *"registry_port=5000"* && "$output" == *"registry_scheme=http"* && "$output" == *"registry_status=running"* ]]
  grep -q "^apt-get install -y -q --no-install-recommends docker.io$" "$STUB_LOG"
  grep -q "^docker pull registry:2.8.3$" "$STUB_LOG"
  grep -qx -- "5000:5000" "$STUB_STATE/run-args"
  grep -qx -- "/var/lib/nfv-registry:/var/lib/registry" "$STUB_STATE/run-args"
}

@test "idempotent: a second run installs nothing and leaves the container alone" {
  install MODE=container PORT=5000
  : >"$STUB_LOG"
  run install MODE=container PORT=5000
  [ "$status" -eq 0 ]
  ! grep -q "^apt-get" "$STUB_LOG"
  ! grep -q "^docker run" "$STUB_LOG"
  ! grep -q "^docker rm" "$STUB_LOG"
  ! grep -q "^docker pull" "$STUB_LOG"
}

@test "a changed port recreates the container" {
  install MODE=container PORT=5000
  : >"$STUB_LOG"
  run install MODE=container PORT=5443
  [ "$status" -eq 0 ]
  grep -q "^docker rm -f nfv-registry$" "$STUB_LOG"
  grep -qx -- "5443:5000" "$STUB_STATE/run-args"
}

@test "image tarball: loaded instead of pulled; a pinned docker.io version is passed to apt" {
  touch "$BATS_TEST_TMPDIR/registry.tar"
  run install MODE=container IMAGE_TARBALL="$BATS_TEST_TMPDIR/registry.tar" DOCKER_PACKAGE_VERSION=20.10.24+dfsg1-1+b3
  [ "$status" -eq 0 ]
  grep -q "^docker load -i $BATS_TEST_TMPDIR/registry.tar$" "$STUB_LOG"
  ! grep -q "^docker pull" "$STUB_LOG"
  grep -q "docker.io=20.10.24+dfsg1-1+b3$" "$STUB_LOG"
}

@test "native mode: Debian's docker-registry with a config on the port and storage; no Docker" {
  run install MODE=native PORT=5001 STORAGE_DIR=/srv/registry
  [ "$status" -eq 0 ]
  grep -q "^apt-get install -y -q --no-install-recommends docker-registry$" "$STUB_LOG"
  ! grep -q "^docker" "$STUB_LOG"
  grep -q "addr: :5001" "$NFV_ROOT/etc/docker/registry/config.yml"
  grep -q "rootdirectory: /srv/registry" "$NFV_ROOT/etc/docker/registry/config.yml"
  grep -q "^systemctl restart docker-registry$" "$STUB_LOG"
  : >"$STUB_LOG"
  run install MODE=native PORT=5001 STORAGE_DIR=/srv/registry
  [ "$status" -eq 0 ]
  ! grep -q "^systemctl restart" "$STUB_LOG"
}

@test "native mode without systemd: the SysV init script, started once, restarted on a change, started again when it stopped" {
  rmdir "$NFV_SYSTEMD_DIR"
  run install MODE=native PORT=5001
  [ "$status" -eq 0 ]
  ! grep -q "^systemctl" "$STUB_LOG"
  # Not running yet: no stop before the start (the init script would fail).
  ! grep -q "^service docker-registry stop$" "$STUB_LOG"
  grep -q "^service docker-registry start$" "$STUB_LOG"
  [ -e "$STUB_STATE/running-docker-registry" ]
  : >"$STUB_LOG"
  run install MODE=native PORT=5001
  [ "$status" -eq 0 ]
  ! grep -Eq "^service docker-registry (start|stop)$" "$STUB_LOG"
  run install MODE=native PORT=5002
  [ "$status" -eq 0 ]
  grep -q "^service docker-registry stop$" "$STUB_LOG"
  grep -q "^service docker-registry start$" "$STUB_LOG"
  # Heal: the registry died; the same parameters start it again.
  rm "$STUB_STATE/running-docker-registry"
  : >"$STUB_LOG"
  run install MODE=native PORT=5002
  [ "$status" -eq 0 ]
  grep -q "^service docker-registry start$" "$STUB_LOG"
  [ -e "$STUB_STATE/running-docker-registry" ]
}

@test "remove: stops the registry (SysV or container), removes TLS/auth files, keeps the images" {
  rmdir "$NFV_SYSTEMD_DIR"
  install MODE=native PORT=5001 AUTH_USER=nfv AUTH_PASSWORD=pw
  mkdir -p "$NFV_ROOT/var/lib/nfv-registry/docker" && touch "$NFV_ROOT/var/lib/nfv-registry/docker/blob"
  : >"$STUB_LOG"
  run bash "$SCRIPT" remove <<<"MODE=native"
  [ "$status" -eq 0 ]
  [[ "$output" == *"registry_status=removed"* ]]
  grep -q "^service docker-registry stop$" "$STUB_LOG"
  [ ! -e "$STUB_STATE/running-docker-registry" ]
  [ ! -e "$NFV_ROOT/etc/nfv-registry/htpasswd" ]
  [ -e "$NFV_ROOT/var/lib/nfv-registry/docker/blob" ]
  # Again: nothing left to stop, still a success.
  : >"$STUB_LOG"
  run bash "$SCRIPT" remove <<<"MODE=native"
  [ "$status" -eq 0 ]
  ! grep -q "^service docker-registry stop$" "$STUB_LOG"
}

@test "remove in container mode removes the container; an unknown action fails" {
  install MODE=container PORT=5000
  : >"$STUB_LOG"
  run bash "$SCRIPT" remove <<<"MODE=container"
  [ "$status" -eq 0 ]
  grep -q "^docker rm -f nfv-registry$" "$STUB_LOG"
  run bash "$SCRIPT" uninstall <<<"MODE=container"
  [ "$status" -ne 0 ]
  [[ "$output" == *"unknown action uninstall"* ]]
}

# As components/host-files writes them (its vitest asserts the same text): `%` doubled in the drop-in.
APT_CONF='Acquire::http::Proxy "http://user1:pa%25ss$(id)@host1:3128";
'
DROPIN='[Service]
Environment="HTTP_PROXY=http://user1:pa%%25ss$(id)@host1:3128" "http_proxy=http://user1:pa%%25ss$(id)@host1:3128"
Environment="NO_PROXY=10.0.0.0/8" "no_proxy=10.0.0.0/8"
'
b64() { printf '%s' "$1" | base64 -w0; }

@test "proxy: the files written byte for byte as sent (apt, the Docker service), nothing in them evaluated; never on a command line" {
  run install MODE=container APT_PROXY_CONF_B64="$(b64 "$APT_CONF")" PROXY_DROPIN_B64="$(b64 "$DROPIN")"
  [ "$status" -eq 0 ]
  cmp "$NFV_ROOT/etc/apt/apt.conf.d/95nfv-proxy" <(printf '%s' "$APT_CONF")
  cmp "$NFV_ROOT/etc/systemd/system/docker.service.d/http-proxy.conf" <(printf '%s' "$DROPIN")
  [ "$(stat -c %a "$NFV_ROOT/etc/apt/apt.conf.d/95nfv-proxy")" = 600 ]
  ! grep -rq "uid=" "$NFV_ROOT/etc"
  ! grep -q "pa%25ss" "$STUB_LOG"
  grep -q "^systemctl restart docker$" "$STUB_LOG"
}

@test "proxy: native mode gives docker-registry the same drop-in; raw proxy values are no parameter any more" {
  run install MODE=native PROXY_DROPIN_B64="$(b64 "$DROPIN")"
  [ "$status" -eq 0 ]
  cmp "$NFV_ROOT/etc/systemd/system/docker-registry.service.d/http-proxy.conf" <(printf '%s' "$DROPIN")
  [ ! -e "$NFV_ROOT/etc/apt/apt.conf.d/95nfv-proxy" ]
  run install MODE=container 'NO_PROXY=10.0.0.1" "LD_PRELOAD=/x.so'
  [ "$status" -ne 0 ]
  [[ "$output" == *"unknown parameter NO_PROXY"* ]]
}

@test "TLS and htpasswd auth: files written, mounted into the container, password only through stdin" {
  cert="$(printf 'CERT PEM' | base64)" key="$(printf 'KEY PEM' | base64)"
  run install MODE=container TLS_CERT_B64="$cert" TLS_KEY_B64="$key" AUTH_USER=nfv AUTH_PASSWORD=s3cret-pw
  [ "$status" -eq 0 ]
  [[ "$output" == *"registry_scheme=https"* && "$output" == *"registry_auth=htpasswd"* ]]
  [ "$(cat "$NFV_ROOT/etc/nfv-registry/tls.key")" = "KEY PEM" ]
  [ "$(stat -c %a "$NFV_ROOT/etc/nfv-registry/tls.key")" = 600 ]
  grep -qx "nfv:fake-9" "$NFV_ROOT/etc/nfv-registry/htpasswd"
  grep -qx "REGISTRY_AUTH=htpasswd" "$STUB_STATE/run-args"
  grep -qx "REGISTRY_HTTP_TLS_CERTIFICATE=/certs/tls.crt" "$STUB_STATE/run-args"
  ! grep -q "s3cret-pw" "$STUB_LOG" "$STUB_STATE/run-args"
  apt_line="$(grep '^apt-get install' "$STUB_LOG")"
  [[ "$apt_line" == *apache2-utils* ]]
}

@test "a changed password restarts the container; the same password does not" {
  install MODE=container AUTH_USER=nfv AUTH_PASSWORD=one
  : >"$STUB_LOG"
  install MODE=container AUTH_USER=nfv AUTH_PASSWORD=one
  ! grep -q "^docker run" "$STUB_LOG"
  install MODE=container AUTH_USER=nfv AUTH_PASSWORD=second
  grep -q "^docker run" "$STUB_LOG"
}

@test "storage volume: found by its virtio id, formatted once, mounted through fstab once" {
  vol="0123456789abcdef0123456789"
  touch "$NFV_DEV_DIR/virtio-${vol:0:20}"
  run install MODE=container STORAGE_VOLUME_ID="$vol"
  [ "$status" -eq 0 ]
  grep -q "^mkfs.ext4 -q -L nfv-registry $NFV_DEV_DIR/virtio-${vol:0:20}$" "$STUB_LOG"
  [ "$(grep -c '^UUID=1111-2222 /var/lib/nfv-registry ext4' "$NFV_ROOT/etc/fstab")" -eq 1 ]
  : >"$STUB_LOG"
  run install MODE=container STORAGE_VOLUME_ID="$vol"
  [ "$status" -eq 0 ]
  ! grep -q "^mkfs" "$STUB_LOG"
  ! grep -q "^mount " "$STUB_LOG"
  [ "$(grep -c '^UUID=1111-2222' "$NFV_ROOT/etc/fstab")" -eq 1 ]
}

@test "storage volume not attached: a clear failure" {
  run install MODE=container STORAGE_VOLUME_ID=missing-volume-id
  [ "$status" -ne 0 ]
  [[ "$output" == *"volume missing-volume-id not attached"* ]]
}

@test "bad parameters fail before any change" {
  for bad in PORT=70000 PORT=0 PORT=http MODE=vm REGISTRY_IMAGE=registry:latest REGISTRY_IMAGE=registry UNKNOWN=1 TLS_CERT_B64=abc AUTH_USER=nfv STORAGE_DIR=relative IMAGE_TARBALL=/nonexistent.tar; do
    : >"$STUB_LOG"
    run install "$bad"
    [ "$status" -ne 0 ] || { echo "accepted: $bad"; false; }
    [ ! -s "$STUB_LOG" ] || { echo "acted on: $bad"; cat "$STUB_LOG"; false; }
  done
}

@test "docker never becomes active: a clear failure" {
  touch "$STUB_STATE/inactive"
  run install MODE=container
  [ "$status" -ne 0 ]
  [[ "$output" == *"docker is not active"* ]]
}
