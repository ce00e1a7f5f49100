#!/usr/bin/env bats
# The lab's Kubernetes stand-ins (lab/openstack/standins/kubernetes) driven by the real mgmt/k8s
# scripts across simulated VM hosts: each host has its own tree (NFV_ROOT) and own stand-in state,
# all share one lab-wide state directory, as the VM-host agent's bind mount arranges. Checks what
# the stand-ins emulate (membership, the checks kubeadm makes on a join) and what they log.

STANDINS="$BATS_TEST_DIRNAME/../../lab/openstack/standins/kubernetes"
K8S="$BATS_TEST_DIRNAME/../../mgmt/k8s"

setup() {
  BIN="$BATS_TEST_TMPDIR/bin"
  mkdir -p "$BIN"
  local t
  for t in "$STANDINS"/*; do [[ "$(basename "$t")" == *.* ]] || ln -s "$t" "$BIN/$(basename "$t")"; done
  export SHARED="$BATS_TEST_TMPDIR/shared"
}

# on HOST SCRIPT KEY=VALUE...: a mgmt/k8s script on host HOST, parameters on stdin.
on() {
  local h="$1" script="$2"; shift 2
  local d="$BATS_TEST_TMPDIR/hosts/$h"
  mkdir -p "$d/root" "$d/local" "$d/tmp"
  printf 'NFV_LAB_HOST=%s\n' "$h" >"$d/host.env"
  printf '%s\n' "$@" | env PATH="$BIN:/usr/sbin:/usr/bin:/sbin:/bin" NFV_ROOT="$d/root" TMPDIR="$d/tmp" \
    NFV_LAB_STANDIN_SHARED="$SHARED" NFV_LAB_STANDIN_LOCAL="$d/local" NFV_LAB_HOST_ENV="$d/host.env" \
    NFV_WAIT_TRIES=2 NFV_WAIT_SLEEP=0 bash "$K8S/$script"
}

b64() { printf '%s' "$1" | base64 -w0; }

prepare() { # prepare HOST NODE
  on "$1" prepare-node.sh "NODE_NAME=$2" KUBERNETES_PACKAGE_VERSION=1.30.14-1.1 CONTAINERD_PACKAGE_VERSION=1.7.24-1 EXTRA_PACKAGES=etcd-client=3.4.23-4+b6 >/dev/null
  on "$1" configure-registries.sh "CONTAINERD_CONFIG_B64=$(b64 'version = 2')" >/dev/null
}

init() {
  on m0 init-master.sh "KUBEADM_CONFIG_B64=$(b64 "apiVersion: kubeadm.k8s.io/v1beta3
kind: InitConfiguration
localAPIEndpoint:
  advertiseAddress: 10.10.0.11
nodeRegistration:
  name: k-m0
---
apiVersion: kubeadm.k8s.io/v1beta3
kind: ClusterConfiguration
clusterName: k
kubernetesVersion: v1.30.14
controlPlaneEndpoint: 10.10.0.99:16443
apiServer:
  certSANs:
    - 10.10.0.99
")"
}

join_config() { # join_config NODE IP [CERTIFICATE_KEY]  (token and hash from $CREDS)
  local token hash
  token="$(sed -n 's/^token=//p' <<<"$CREDS")" hash="$(sed -n 's/^ca_cert_hash=//p' <<<"$CREDS")"
  printf 'apiVersion: kubeadm.k8s.io/v1beta3\nkind: JoinConfiguration\ndiscovery:\n  bootstrapToken:\n    apiServerEndpoint: 10.10.0.99:16443\n    token: %s\n    caCertHashes:\n      - %s\nnodeRegistration:\n  name: %s\n' "$token" "${HASH_OVERRIDE:-$hash}" "$1"
  [[ -z "${3:-}" ]] || printf 'controlPlane:\n  localAPIEndpoint:\n    advertiseAddress: %s\n  certificateKey: %s\n' "$2" "$3"
}

cluster() { echo "$SHARED/clusters/$(cat "$SHARED/endpoints/10.10.0.99:16443")"; }
log_of() { cut -f3- "$SHARED/calls/$1.log"; }

@test "init on the first master, a control-plane join with the certificate key, a worker join with token and CA hash; etcd and node lists follow" {
  prepare m0 k-m0; prepare m1 k-m1; prepare w0 k-w0
  run init
  [ "$status" -eq 0 ]
  [[ "$output" == *"initialized=yes"* && "$output" == *"admin_token="* ]]
  CREDS="$(on m0 join-credentials.sh ROLE=master KUBERNETES_VERSION=1.30.14)"
  on m1 join-node.sh ROLE=master NODE_NAME=k-m1 "JOIN_CONFIG_B64=$(join_config k-m1 10.10.0.12 "$(sed -n 's/^certificate_key=//p' <<<"$CREDS")" | base64 -w0)"
  CREDS="$(on m0 join-credentials.sh ROLE=worker)"
  on w0 join-node.sh ROLE=worker NODE_NAME=k-w0 "JOIN_CONFIG_B64=$(join_config k-w0 10.10.0.21 | base64 -w0)"
  [ "$(ls "$(cluster)/nodes" | tr '\n' ' ')" = "k-m0 k-m1 k-w0 " ]
  [ "$(ls "$(cluster)/etcd" | tr '\n' ' ')" = "k-m0 k-m1 " ]
  log_of m1 | grep -q $'^emul\tkubeadm\tjoin: k-m1 (10.10.0.12) joined .* as control-plane (token ok, ca-cert-hash ok (openssl), certificate-key ok); etcd member added, 2 members$'
  log_of w0 | grep -q $'^emul\tkubeadm\tjoin: k-w0 .* as worker (token ok, ca-cert-hash ok (openssl))$'
  # The worker's kubelet certificate is signed by the cluster CA (real openssl), the worker has no CA key.
  openssl verify -CAfile "$(cluster)/pki/ca.crt" "$BATS_TEST_TMPDIR/hosts/w0/root/etc/kubernetes/pki/kubelet-client.crt"
  [ ! -e "$BATS_TEST_TMPDIR/hosts/w0/root/etc/kubernetes/pki/ca.key" ]
  # Secrets never reach the call logs.
  run grep -qE '[a-z0-9]{6}\.[a-z0-9]{16}|[0-9a-f]{64}' "$SHARED"/calls/*.log
  [ "$status" -eq 1 ]
}

@test "label-node: the worker's placement labels land in its node record; a new host replaces the old one (--overwrite); without --overwrite kubectl refuses" {
  prepare m0 k-m0; prepare w0 k-w0
  init >/dev/null
  CREDS="$(on m0 join-credentials.sh ROLE=worker KUBERNETES_VERSION=1.30.14)"
  on w0 join-node.sh ROLE=worker NODE_NAME=k-w0 "JOIN_CONFIG_B64=$(join_config k-w0 10.10.0.21 | base64 -w0)" >/dev/null
  run on m0 label-node.sh NODE_NAME=k-w0 "LABELS=CIS-node=compute1 topology.kubernetes.io/zone=nova"
  [ "$status" -eq 0 ]
  on m0 label-node.sh NODE_NAME=k-w0 "LABELS=CIS-node=compute2 topology.kubernetes.io/zone=nova" >/dev/null
  [ "$(grep '^label\.' "$(cluster)/nodes/k-w0" | sort | tr '\n' ' ')" = "label.CIS-node=compute2 label.topology.kubernetes.io/zone=nova " ]
  log_of m0 | grep -q $'^emul\tkubectl\tlabel: node k-w0 CIS-node=compute2 in '
  # Without --overwrite kubectl refuses to change a label, as the real one does.
  run env KUBECONFIG="$BATS_TEST_TMPDIR/hosts/m0/root/etc/kubernetes/admin.conf" NFV_ROOT="$BATS_TEST_TMPDIR/hosts/m0/root" NFV_LAB_STANDIN_SHARED="$SHARED" \
    NFV_LAB_STANDIN_LOCAL="$BATS_TEST_TMPDIR/hosts/m0/local" NFV_LAB_HOST_ENV="$BATS_TEST_TMPDIR/hosts/m0/host.env" "$BIN/kubectl" label node k-w0 CIS-node=compute9
  [ "$status" -ne 0 ]
  [[ "$output" == *"'CIS-node' already has a value (compute2), and --overwrite is false"* ]]
}

@test "a join is refused with a wrong CA hash, an unknown token, or a control-plane key that was not uploaded" {
  prepare m0 k-m0; prepare w0 k-w0; prepare m1 k-m1
  init >/dev/null
  CREDS="$(on m0 join-credentials.sh ROLE=worker)"
  HASH_OVERRIDE="sha256:$(printf '0%.0s' {1..64})" run on w0 join-node.sh ROLE=worker NODE_NAME=k-w0 "JOIN_CONFIG_B64=$(HASH_OVERRIDE="sha256:$(printf '0%.0s' {1..64})" join_config k-w0 10.10.0.21 | base64 -w0)"
  [ "$status" -ne 0 ]
  [[ "$output" == *"none of the public keys are pinned"* ]]
  CREDS="token=abcdef.0123456789abcdef"$'\n'"$(sed -n '/^ca_cert_hash=/p' <<<"$CREDS")"
  run on w0 join-node.sh ROLE=worker NODE_NAME=k-w0 "JOIN_CONFIG_B64=$(join_config k-w0 10.10.0.21 | base64 -w0)"
  [[ "$output" == *"token id not found"* ]]
  CREDS="$(on m0 join-credentials.sh ROLE=worker)"
  run on m1 join-node.sh ROLE=master NODE_NAME=k-m1 "JOIN_CONFIG_B64=$(join_config k-m1 10.10.0.12 "$(printf 'a%.0s' {1..64})" | base64 -w0)"
  [[ "$output" == *"error downloading certs"* ]]
  [ "$(ls "$(cluster)/nodes")" = "k-m0" ]
}

@test "a master heal: remove-node drains and deletes the node and its etcd member; the same name rejoins; a ghost member would refuse it" {
  prepare m0 k-m0; prepare m1 k-m1
  init >/dev/null
  CREDS="$(on m0 join-credentials.sh ROLE=master KUBERNETES_VERSION=1.30.14)"
  on m1 join-node.sh ROLE=master NODE_NAME=k-m1 "JOIN_CONFIG_B64=$(join_config k-m1 10.10.0.12 "$(sed -n 's/^certificate_key=//p' <<<"$CREDS")" | base64 -w0)" >/dev/null
  # The host is replaced (fresh tree), but its node and etcd member are still in the cluster: refused.
  rm -rf "$BATS_TEST_TMPDIR/hosts/m1/root" "$BATS_TEST_TMPDIR/hosts/m1/local"
  prepare m1 k-m1
  CREDS="$(on m0 join-credentials.sh ROLE=master KUBERNETES_VERSION=1.30.14)"
  run on m1 join-node.sh ROLE=master NODE_NAME=k-m1 "JOIN_CONFIG_B64=$(join_config k-m1 10.10.0.12 "$(sed -n 's/^certificate_key=//p' <<<"$CREDS")" | base64 -w0)"
  [ "$status" -ne 0 ]
  [[ "$output" == *'a Node with name "k-m1"'* ]]
  run on m0 remove-node.sh NODE_NAME=k-m1 ROLE=master ON_DRAIN_FAILURE=continue
  [ "$status" -eq 0 ]
  [[ "$output" == *"node_removed=yes"* && "$output" == *"etcd_member_removed=yes"* ]]
  [ "$(ls "$(cluster)/etcd")" = "k-m0" ]
  log_of m0 | grep -E $'^call\t(kubectl|etcdctl)\t' | cut -f2- | sed -E 's/--kubeconfig [^ ]+ //; s/--endpoints.*(member)/\1/; s/member remove [0-9a-f]+/member remove ID/' | grep -vE $'^kubectl\t(get|apply|-n)' >"$BATS_TEST_TMPDIR/seq"
  diff - "$BATS_TEST_TMPDIR/seq" <<SEQ
kubectl	cordon k-m1
kubectl	drain k-m1 --ignore-daemonsets --delete-emptydir-data --force --timeout=300s
kubectl	delete node k-m1
etcdctl	member list
etcdctl	member remove ID
SEQ
  CREDS="$(on m0 join-credentials.sh ROLE=master KUBERNETES_VERSION=1.30.14)"
  run on m1 join-node.sh ROLE=master NODE_NAME=k-m1 "JOIN_CONFIG_B64=$(join_config k-m1 10.10.0.12 "$(sed -n 's/^certificate_key=//p' <<<"$CREDS")" | base64 -w0)"
  [ "$status" -eq 0 ]
  [ "$(ls "$(cluster)/etcd" | tr '\n' ' ')" = "k-m0 k-m1 " ]
}

@test "apt-get: the Kubernetes packages are recorded at their pinned version; other packages must really be in the tree" {
  prepare m0 k-m0
  d="$BATS_TEST_TMPDIR/hosts/m0"
  [ "$(cat "$d/local/packages/kubeadm")" = "1.30.14-1.1" ]
  run env PATH="$STANDINS:/usr/bin:/bin" NFV_LAB_STANDIN_SHARED="$SHARED" NFV_LAB_STANDIN_LOCAL="$d/local" NFV_LAB_HOST_ENV="$d/host.env" "$STANDINS/apt-get" install -y no-such-package-here
  [ "$status" -ne 0 ]
  [[ "$output" == *"Unable to locate package no-such-package-here"* ]]
  run env PATH="$STANDINS:/usr/bin:/bin" NFV_LAB_STANDIN_SHARED="$SHARED" NFV_LAB_STANDIN_LOCAL="$d/local" NFV_LAB_HOST_ENV="$d/host.env" "$STANDINS/dpkg-query" -W -f='${Status}' kubelet
  [ "$output" = "install ok installed" ]
}
