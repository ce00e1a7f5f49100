# Shared setup of the k8s-*.bats files: PATH stubs (test/bats/stubs) that record every call in
# $STUB_LOG, files under $NFV_ROOT, temporary files under $TMPDIR (checked to be cleaned up).
K8S="$BATS_TEST_DIRNAME/../../mgmt/k8s"

k8s_setup() {
  export PATH="$BATS_TEST_DIRNAME/stubs:$PATH"
  export STUB_STATE="$BATS_TEST_TMPDIR/state" STUB_LOG="$BATS_TEST_TMPDIR/calls.log"
  export NFV_ROOT="$BATS_TEST_TMPDIR/root" NFV_WAIT_TRIES=2 NFV_WAIT_SLEEP=0 TMPDIR="$BATS_TEST_TMPDIR/tmp"
  mkdir -p "$STUB_STATE" "$NFV_ROOT" "$TMPDIR"
  : >"$STUB_LOG"
}

# run_script NAME KEY=VALUE...: the script with the key=value lines on stdin.
run_script() {
  local name="$1"; shift
  printf '%s\n' "$@" | bash "$K8S/$name"
}

b64() { printf '%s' "$1" | base64 -w0; }

# A real CA certificate as the cluster CA (join-credentials hashes its public key with openssl).
cluster_ca() {
  mkdir -p "$NFV_ROOT/etc/kubernetes/pki"
  cp "$BATS_TEST_DIRNAME/../fixtures/pki/ca-a.crt" "$NFV_ROOT/etc/kubernetes/pki/ca.crt"
}

# The stub log without the lines of commands tests do not care about here.
calls() { grep -vE '^(sleep|hostname|ip|dpkg-query) ' "$STUB_LOG" || true; }
