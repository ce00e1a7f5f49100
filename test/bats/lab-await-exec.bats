#!/usr/bin/env bats
# lab/lib/await-exec.sh: lab/oidc/up and lab/k8s/up start services with `setsid BIN ... &` and must
# tell a service about to run (its process still the starting shell's copy, before the exec) from
# one that has ended; and lab/k8s/lib.sh's die must say why even where its caller's stderr is
# discarded. No service needed: stand-ins at the paths the labs check.

bats_require_minimum_version 1.5.0

setup() {
  # shellcheck source=lab/lib/await-exec.sh
  source "$BATS_TEST_DIRNAME/../../lab/lib/await-exec.sh"
}

teardown() {
  [[ -z "${CHILD:-}" ]] || kill "$CHILD" 2>/dev/null || true
}

# oidc_lib: lab/oidc/lib.sh on a scratch state, its glewlwyd a stand-in script.
oidc_lib() {
  export NFV_OIDC_STATE="$BATS_TEST_TMPDIR/oidc"
  mkdir -p "$NFV_OIDC_STATE"
  # shellcheck source=lab/oidc/lib.sh
  source "$BATS_TEST_DIRNAME/../../lab/oidc/lib.sh"
  GLEWLWYD="$BATS_TEST_TMPDIR/glewlwyd"
  printf '#!/bin/sh\nwhile :; do sleep 1; done\n' >"$GLEWLWYD"
  chmod +x "$GLEWLWYD"
}

@test "await_exec: lab/oidc's glewlwyd, exec'd only after a moment, is waited for, then known by running_pid" {
  oidc_lib
  G="$GLEWLWYD" C="--config=$CONF" bash -c 'sleep 0.5; exec "$G" "$C"' &
  CHILD=$!
  echo "$CHILD" >"$PIDFILE"
  # What lab/oidc/up did before: running_pid at once calls it gone.
  run ! running_pid
  await_exec "$CHILD" running_pid
  [ "$(running_pid)" = "$CHILD" ]
}

@test "await_exec: lab/k8s's etcd, exec'd only after a moment, is waited for, then known by component_pid" {
  export NFV_LAB_STATE="$BATS_TEST_TMPDIR/lab"
  # shellcheck source=lab/k8s/lib.sh
  source "$BATS_TEST_DIRNAME/../../lab/k8s/lib.sh"
  mkdir -p "$PIDS"
  ETCD_BIN="$BATS_TEST_TMPDIR/etcd"
  cp "$(command -v sleep)" "$ETCD_BIN"
  B="$ETCD_BIN" bash -c 'sleep 0.5; exec "$B" 30' &
  CHILD=$!
  echo "$CHILD" >"$PIDS/etcd.pid"
  run ! component_pid etcd
  await_exec "$CHILD" component_pid etcd
  component_pid etcd
}

@test "await_exec: a child that ends before it runs the service is reported at once, not after the whole wait" {
  oidc_lib
  bash -c 'sleep 0.2; exit 3' &
  CHILD=$!
  echo "$CHILD" >"$PIDFILE"
  SECONDS=0
  run ! await_exec "$CHILD" running_pid
  [ "$SECONDS" -lt 5 ]
}

@test "lab/k8s/lib.sh: die inside a condition whose stderr is discarded still prints why the script ends" {
  run bash -c '. "$1/lab/k8s/lib.sh"; check() { die "etcd exited"; }; until check >/dev/null 2>&1; do :; done' _ "$BATS_TEST_DIRNAME/../.."
  [ "$status" -eq 1 ]
  [[ "$output" == *"ERROR: etcd exited"* ]]
}
