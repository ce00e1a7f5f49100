#!/usr/bin/env bats
# mgmt/k8s/install-helm.sh: runs the package's Helm installation script (Tacker's
# helm_installation_script_path) with the proxy from stdin and the admin kubeconfig, and checks
# that it left a helm that answers. The package scripts here are small fakes written by the tests.
load k8s-helpers

setup() {
  k8s_setup
  mkdir -p "$NFV_ROOT/etc/kubernetes" "$BATS_TEST_TMPDIR/bin"
  : >"$NFV_ROOT/etc/kubernetes/admin.conf"
  export PATH="$BATS_TEST_TMPDIR/bin:$PATH"
  PKG_SCRIPT="$BATS_TEST_TMPDIR/install_helm.sh"
}

# package_script BODY: the operator's script, as copied to the node.
package_script() { printf '#!/bin/bash\nset -e\n%s\n' "$1" >"$PKG_SCRIPT"; }
INSTALLS_HELM='printf "#!/bin/sh\necho v3.5.4+g1\n" >"$BATS_TEST_TMPDIR/bin/helm"; chmod +x "$BATS_TEST_TMPDIR/bin/helm"'

@test "install-helm: runs the package's script with the proxy (both spellings) and the admin kubeconfig; reports helm's version" {
  package_script "$INSTALLS_HELM"'
env | grep -iE "^(https?|no)_proxy=|^KUBECONFIG=" | sort >"$BATS_TEST_TMPDIR/seen.env"
echo "progress from the package script"'
  run run_script install-helm.sh SCRIPT="$PKG_SCRIPT" HTTP_PROXY=http://u:p@proxy:3128 HTTPS_PROXY=http://u:p@proxy:3128 NO_PROXY=localhost,10.10.0.0/24
  [ "$status" -eq 0 ]
  [ "${lines[-1]}" = "helm_version=v3.5.4+g1" ]
  # The package script's own output went to stderr (bats merges it): stdout's last line is the result.
  [[ "$output" == *"progress from the package script"* ]]
  grep -qx "KUBECONFIG=$NFV_ROOT/etc/kubernetes/admin.conf" "$BATS_TEST_TMPDIR/seen.env"
  grep -qx "http_proxy=http://u:p@proxy:3128" "$BATS_TEST_TMPDIR/seen.env"
  grep -qx "HTTPS_PROXY=http://u:p@proxy:3128" "$BATS_TEST_TMPDIR/seen.env"
  grep -qx "no_proxy=localhost,10.10.0.0/24" "$BATS_TEST_TMPDIR/seen.env"
}

@test "install-helm: without a proxy no proxy variable reaches the script" {
  package_script "$INSTALLS_HELM"'
env | grep -iE "^(https?|no)_proxy=" >"$BATS_TEST_TMPDIR/seen.env" || true'
  run env -u HTTP_PROXY -u http_proxy -u HTTPS_PROXY -u https_proxy -u NO_PROXY -u no_proxy bash -c 'printf "SCRIPT=%s\n" "$1" | bash "$2/install-helm.sh"' _ "$PKG_SCRIPT" "$K8S"
  [ "$status" -eq 0 ]
  [ ! -s "$BATS_TEST_TMPDIR/seen.env" ]
}

@test "install-helm: a failing script, a script that leaves no helm, a node outside the cluster, a missing script: each a clear error" {
  package_script 'exit 3'
  run run_script install-helm.sh SCRIPT="$PKG_SCRIPT"
  [ "$status" -ne 0 ]
  [[ "$output" == *"the Helm installation script failed (exit 3)"* ]]

  package_script 'echo "did nothing"'
  run run_script install-helm.sh SCRIPT="$PKG_SCRIPT"
  [ "$status" -ne 0 ]
  [[ "$output" == *"no helm is on PATH"* ]]

  rm "$NFV_ROOT/etc/kubernetes/admin.conf"
  run run_script install-helm.sh SCRIPT="$PKG_SCRIPT"
  [ "$status" -ne 0 ]
  [[ "$output" == *"not a control plane of the cluster"* ]]

  run run_script install-helm.sh SCRIPT="$BATS_TEST_TMPDIR/nowhere.sh"
  [ "$status" -ne 0 ]
  [[ "$output" == *"nowhere.sh is not on this node"* ]]
}
