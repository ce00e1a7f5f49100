#!/usr/bin/env bats
# lab/k8s: the nfv-admin bearer token goes to curl on stdin (-H @-), never on a command line, where
# every process on the machine could read it (/proc/PID/cmdline). A stub `curl` first on PATH
# records its argv, its environment and what it read on stdin; nothing here starts a service: the
# functions of lab/k8s/lib.sh, up and check run against the stub, with the state in a temp dir.

LAB_K8S="$BATS_TEST_DIRNAME/../../lab/k8s"
TOKEN='eyJhbGciOiJSUzI1NiJ9.canary-lab-token.Zm9vYmFy-7f3a'

setup() {
  BIN="$BATS_TEST_TMPDIR/bin"
  CALLS="$BATS_TEST_TMPDIR/curl"
  mkdir -p "$BIN" "$CALLS"
  export CALLS
  # Stub curl: call N leaves N.argv (one argument a line), N.env and N.stdin (only when an argument
  # is @-, as real curl reads stdin only then). It answers the lab's requests by URL; without
  # --cacert it fails as curl does on an unknown CA (60).
  cat >"$BIN/curl" <<'STUB'
#!/usr/bin/env bash
set -euo pipefail
n=$(($(find "$CALLS" -name '*.argv' | wc -l) + 1))
printf '%s\n' "$@" >"$CALLS/$n.argv"
env >"$CALLS/$n.env"
stdin=0 cacert=0 url="" a=""
for a in "$@"; do
  [[ "$a" == @- || "$a" == *=@- ]] && stdin=1
  [[ "$a" == --cacert ]] && cacert=1
  url="$a"
done
((stdin == 0)) || cat >"$CALLS/$n.stdin"
((cacert == 1)) || exit 60
case "$url" in
  */secrets/nfv-admin-token) printf '{\n  "data": {\n    "token": "%s"\n  }\n}\n' "$(base64 -w0 "$STUB_TOKEN_FILE")" ;;
  */version) printf '{\n  "gitVersion": "%s"\n}\n' "$STUB_K8S_VERSION" ;;
  */api) printf '401' ;;
  *) printf '{}\n' ;;
esac
STUB
  chmod +x "$BIN/curl"
  export PATH="$BIN:$PATH"
  export NFV_LAB_STATE="$BATS_TEST_TMPDIR/lab-state" NFV_CACHE="$BATS_TEST_TMPDIR/cache"
  # The Secret's token, in a file: in the stub's environment it would be seen there.
  export STUB_TOKEN_FILE="$BATS_TEST_TMPDIR/token"
  printf '%s' "$TOKEN" >"$STUB_TOKEN_FILE"
  STUB_K8S_VERSION="$(sed -n 's/^K8S_VERSION=\([^ ]*\).*/\1/p' "$LAB_K8S/build.sh")"
  export STUB_K8S_VERSION
  # Copies of up and check without their last lines (main, the steps), so that sourcing them only
  # defines their functions; lib.sh and build.sh beside them, as lib.sh reads the versions there,
  # and lab/lib's await-exec.sh where up sources it (../lib).
  COPY="$BATS_TEST_TMPDIR/k8s"
  mkdir -p "$COPY" "$BATS_TEST_TMPDIR/lib"
  cp "$LAB_K8S/lib.sh" "$LAB_K8S/build.sh" "$COPY/"
  cp "$LAB_K8S/../lib/await-exec.sh" "$BATS_TEST_TMPDIR/lib/"
  [[ "$(tail -n 1 "$LAB_K8S/up")" == 'main "$@"' ]]
  sed '$d' "$LAB_K8S/up" >"$COPY/up"
  # shellcheck disable=SC2016
  grep -q '^\[\[ -f "\$VIM_CONFIG" \]\] || die' "$LAB_K8S/check"
  sed '/^\[\[ -f "\$VIM_CONFIG" \]\] || die/,$d' "$LAB_K8S/check" >"$COPY/check"
}

# token_only_on_stdin [TOKEN]: the token (default $TOKEN) is in no curl's argv nor environment;
# BEARER_CALLS lists the calls that read it on stdin.
token_only_on_stdin() {
  local token="${1:-$TOKEN}" f n
  BEARER_CALLS=()
  [[ -n "$(find "$CALLS" -name '*.argv')" ]]
  for f in "$CALLS"/*.argv; do
    n="$(basename "$f" .argv)"
    if grep -qF -- "$token" "$f"; then echo "call $n has the token in its argv:"; cat "$f"; return 1; fi
    if grep -qF -- "$token" "$CALLS/$n.env"; then echo "call $n has the token in its environment"; return 1; fi
    if [[ -f "$CALLS/$n.stdin" ]] && grep -qF -- "$token" "$CALLS/$n.stdin"; then BEARER_CALLS+=("$n"); fi
  done
}

@test "curl_bearer: the token is what curl reads on stdin as the Authorization header (-H @-), not in its argv" {
  # shellcheck disable=SC1091
  source "$COPY/lib.sh"
  run curl_bearer "$TOKEN" -sf --cacert /ca.crt "https://127.0.0.1:6443/version"
  [ "$status" -eq 0 ]
  [[ "$output" == *"\"gitVersion\": \"$STUB_K8S_VERSION\""* ]]
  token_only_on_stdin
  [ "${BEARER_CALLS[*]}" = 1 ]
  [ "$(cat "$CALLS/1.stdin")" = "Authorization: Bearer $TOKEN" ]
  # The caller's arguments reach curl unchanged and in order, after the header from stdin.
  [ "$(cat "$CALLS/1.argv")" = "$(printf '%s\n' -H @- -sf --cacert /ca.crt https://127.0.0.1:6443/version)" ]
}

@test "curl_bearer: a token with printf directives or spaces is sent as is; curl's exit status is the function's" {
  # shellcheck disable=SC1091
  source "$COPY/lib.sh"
  local odd='a%sb%n c\nd'
  run curl_bearer "$odd" -s "https://127.0.0.1:6443/api"
  [ "$status" -eq 60 ]
  token_only_on_stdin "$odd"
  [ "${BEARER_CALLS[*]}" = 1 ]
  [ "$(cat "$CALLS/1.stdin")" = "Authorization: Bearer $odd" ]
}

@test "up's write_vim_config: the token it checks against the API goes by stdin; vim-config and kubeconfig are 0600" {
  # shellcheck disable=SC1091
  source "$COPY/up"
  mkdir -p "$PKI"
  printf -- '-----BEGIN CERTIFICATE-----\nAAAA\n-----END CERTIFICATE-----\n' >"$PKI/ca.crt"
  run write_vim_config
  [ "$status" -eq 0 ]
  token_only_on_stdin
  # Two calls: the token Secret read with the admin client cert, then one check with the token.
  [ "$(find "$CALLS" -name '*.argv' | wc -l)" -eq 2 ]
  [ "${BEARER_CALLS[*]}" = 2 ]
  [ "$(cat "$CALLS/2.stdin")" = "Authorization: Bearer $TOKEN" ]
  grep -qx -- "$API_URL/api/v1/namespaces/default" "$CALLS/2.argv"
  grep -qxF "bearer_token: \"$TOKEN\"" "$VIM_CONFIG"
  [ "$(stat -c %a "$VIM_CONFIG")" = 600 ]
  [ "$(stat -c %a "$TOKEN_KUBECONFIG")" = 600 ]
}

@test "check's TLS and token step: both requests with the token send it on stdin; only the wrong token is on a command line" {
  # shellcheck disable=SC1091
  source "$COPY/check"
  mkdir -p "$(dirname "$VIM_CONFIG")"
  printf 'auth_url: "%s"\nbearer_token: "%s"\n' "$API_URL" "$TOKEN" >"$VIM_CONFIG"
  run check_tls_and_token
  [ "$status" -eq 0 ]
  token_only_on_stdin
  [ "$(find "$CALLS" -name '*.argv' | wc -l)" -eq 3 ]
  [ "${BEARER_CALLS[*]}" = "1 3" ]
  [ "$(cat "$CALLS/1.stdin")" = "Authorization: Bearer $TOKEN" ]
  [ "$(cat "$CALLS/3.stdin")" = "Authorization: Bearer $TOKEN" ]
  grep -qx 'Authorization: Bearer wrong' "$CALLS/2.argv"
}

@test "lab/k8s: every curl that names the token is curl_bearer; the only header made from it is curl_bearer's, on a pipe" {
  local f name line bad=() headers=()
  for f in "$LAB_K8S"/lib.sh "$LAB_K8S"/up "$LAB_K8S"/check "$LAB_K8S"/down; do
    name="$(basename "$f")"
    while IFS= read -r line; do
      [[ "$line" =~ ^[[:space:]]*# ]] && continue
      if [[ "$line" =~ curl && "$line" =~ \$\{?token ]]; then
        [[ "$line" =~ (^|[^[:alnum:]_])curl_bearer\ \"\$token\" || "$line" =~ ^[[:space:]]*printf\ [^|]*\ \"\$token\"\ \|\ curl\ -H\ @-\  ]] ||
          bad+=("$name: $line")
      fi
      [[ "$line" =~ Bearer\ (%s|\$) ]] && headers+=("$name: $line")
    done <"$f"
  done
  [ "${#bad[@]}" -eq 0 ] || { printf 'token on a curl command line: %s\n' "${bad[@]}"; false; }
  [ "${#headers[@]}" -eq 1 ]
  [ "${headers[0]}" = "lib.sh:   printf 'Authorization: Bearer %s\\n' \"\$token\" | curl -H @- \"\$@\"" ]
}
