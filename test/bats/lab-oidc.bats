#!/usr/bin/env bats
# lab/oidc/lib.sh's await_exec: lab/oidc/up starts glewlwyd in the background and must tell a
# glewlwyd about to run (its process still the starting shell's copy, before the exec) from one
# that has ended. No glewlwyd needed: a stand-in script at $GLEWLWYD.

bats_require_minimum_version 1.5.0

setup() {
  export NFV_OIDC_STATE="$BATS_TEST_TMPDIR/oidc"
  mkdir -p "$NFV_OIDC_STATE"
  # shellcheck source=lab/oidc/lib.sh
  source "$BATS_TEST_DIRNAME/../../lab/oidc/lib.sh"
  GLEWLWYD="$BATS_TEST_TMPDIR/glewlwyd"
  printf '#!/bin/sh\nwhile :; do sleep 1; done\n' >"$GLEWLWYD"
  chmod +x "$GLEWLWYD"
}

teardown() {
  [[ -z "${CHILD:-}" ]] || kill "$CHILD" 2>/dev/null || true
}

@test "await_exec: a child that runs glewlwyd only after a moment is waited for, then known by running_pid" {
  G="$GLEWLWYD" C="--config=$CONF" bash -c 'sleep 0.5; exec "$G" "$C"' &
  CHILD=$!
  echo "$CHILD" >"$PIDFILE"
  # What up did before: running_pid at once calls it gone.
  run ! running_pid
  await_exec "$CHILD"
  [ "$(running_pid)" = "$CHILD" ]
}

@test "await_exec: a child that ends before it runs glewlwyd is reported at once, not after the whole wait" {
  bash -c 'sleep 0.2; exit 3' &
  CHILD=$!
  echo "$CHILD" >"$PIDFILE"
  SECONDS=0
  run ! await_exec "$CHILD"
  [ "$SECONDS" -lt 5 ]
}
