#!/usr/bin/env bats
# The lab's loopback stand-in for discovery.etcd.io (lab/openstack/standins/etcd-discovery), which
# Magnum's conductor asks for a discovery URL at every cluster create: a new URL per request,
# the size Magnum checks for a given URL, and refusals.

ETCD_DISCOVERY="$BATS_TEST_DIRNAME/../../lab/openstack/standins/etcd-discovery"

setup() {
  PORT="$(python3 -c 'import socket; s = socket.socket(); s.bind(("127.0.0.1", 0)); print(s.getsockname()[1])')"
  python3 "$ETCD_DISCOVERY" --port "$PORT" >"$BATS_TEST_TMPDIR/log" 2>&1 &
  PID=$!
  local i
  for ((i = 0; i < 50; i++)); do curl -sf "http://127.0.0.1:$PORT/health" >/dev/null && return 0; sleep 0.1; done
  cat "$BATS_TEST_TMPDIR/log"
  return 1
}

teardown() {
  kill "$PID" 2>/dev/null || true
}

@test "etcd-discovery: each /new is a fresh URL on loopback that reports the size asked for" {
  a="$(curl -sf "http://127.0.0.1:$PORT/new?size=3")"
  b="$(curl -sf "http://127.0.0.1:$PORT/new?size=1")"
  [[ "$a" =~ ^http://127\.0\.0\.1:$PORT/[0-9a-f]{32}$ ]]
  [[ "$a" != "$b" ]]
  run curl -sf "$a/_config/size"
  [ "$status" -eq 0 ]
  [ "$(python3 -c 'import json,sys; print(json.load(sys.stdin)["node"]["value"])' <<<"$output")" = 3 ]
  run curl -sf "$b/_config/size"
  [[ "$output" == *'"value": "1"'* ]]
}

@test "etcd-discovery: a bad size is refused; an unknown URL is not found" {
  run curl -s -o /dev/null -w '%{http_code}' "http://127.0.0.1:$PORT/new?size=0"
  [ "$output" = 400 ]
  run curl -s -o /dev/null -w '%{http_code}' "http://127.0.0.1:$PORT/new?size=three"
  [ "$output" = 400 ]
  run curl -s -o /dev/null -w '%{http_code}' "http://127.0.0.1:$PORT/0123456789abcdef0123456789abcdef/_config/size"
  [ "$output" = 404 ]
}
