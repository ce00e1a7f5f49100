#!/usr/bin/env bats
# mgmt/k8s cluster scripts with PATH stubs for kubeadm, kubectl, etcdctl and systemctl that record
# every call: init on the first master, join credentials, the join sequence, scale-in and the heal
# choreography, step by step. Proves what the scripts ask the tools to do, in which order, and that
# secrets stay off command lines and out of stderr; not a real cluster.
load k8s-helpers

setup() {
  k8s_setup
  cluster_ca
}

INIT_CONFIG=$'apiVersion: kubeadm.k8s.io/v1beta3\nkind: InitConfiguration\n---\nkind: ClusterConfiguration\ncontrolPlaneEndpoint: 10.10.0.100:16443'
TOKEN="abcdef.0123456789abcdef"
KEY="$(printf '%064d' 7)"
MASTER_JOIN=$'apiVersion: kubeadm.k8s.io/v1beta3\nkind: JoinConfiguration\ncontrolPlane:\n  certificateKey: '"$KEY"$'\ndiscovery:\n  bootstrapToken:\n    token: '"$TOKEN"
WORKER_JOIN=$'apiVersion: kubeadm.k8s.io/v1beta3\nkind: JoinConfiguration\ndiscovery:\n  bootstrapToken:\n    token: '"$TOKEN"

# Everything a secret may be; none may reach a command line (the stub log) or stderr.
no_secret_leaks() {
  ! grep -qE "$TOKEN|$KEY|admin-t0ken" "$STUB_LOG"
  [ -z "$(ls -A "$TMPDIR")" ]
}

@test "init-master: kubeadm init with the given config (no token or key printed), CNI, admin account; prints CA and admin token" {
  printf 'kind: DaemonSet\n' >"$BATS_TEST_TMPDIR/cni.yaml"
  run run_script init-master.sh KUBEADM_CONFIG_B64="$(b64 "$INIT_CONFIG")" CNI_MANIFEST="$BATS_TEST_TMPDIR/cni.yaml"
  [ "$status" -eq 0 ]
  [ "${lines[0]}" = "initialized=yes" ]
  [ "${lines[1]}" = "ca_crt_b64=$(base64 -w0 "$NFV_ROOT/etc/kubernetes/pki/ca.crt")" ]
  [ "${lines[2]}" = "admin_token=admin-t0ken" ]
  [ "$(cat "$STUB_STATE/kubeadm-init.yaml")" = "$INIT_CONFIG" ]
  grep -qE "^kubeadm init --config $TMPDIR/nfv-k8s\.[A-Za-z0-9]+ --skip-token-print --skip-certificate-key-print$" "$STUB_LOG"
  grep -q "kubectl --kubeconfig $NFV_ROOT/etc/kubernetes/admin.conf apply -f $BATS_TEST_TMPDIR/cni.yaml" "$STUB_LOG"
  grep -qx "type: kubernetes.io/service-account-token" "$STUB_STATE/applied"
  grep -qx "roleRef: {apiGroup: rbac.authorization.k8s.io, kind: ClusterRole, name: cluster-admin}" "$STUB_STATE/applied"
  [ "$(stat -c %a "$NFV_ROOT/root/.kube/config")" = 600 ]
  no_secret_leaks
}

@test "init-master: a cluster that answers is not initialised again" {
  run_script init-master.sh KUBEADM_CONFIG_B64="$(b64 "$INIT_CONFIG")"
  : >"$STUB_LOG"
  run run_script init-master.sh KUBEADM_CONFIG_B64="$(b64 "$INIT_CONFIG")"
  [ "$status" -eq 0 ]
  [ "${lines[0]}" = "initialized=already" ]
  ! grep -q "^kubeadm init" "$STUB_LOG"
}

@test "init-master: a failed kubeadm init fails the script and leaves no config file behind" {
  touch "$STUB_STATE/kubeadm-fails"
  run run_script init-master.sh KUBEADM_CONFIG_B64="$(b64 "$INIT_CONFIG")"
  [ "$status" -ne 0 ]
  [ -z "$(ls -A "$TMPDIR")" ]
}

@test "join-credentials: a worker gets a 1-hour token and the CA public key hash (computed with openssl)" {
  run run_script join-credentials.sh ROLE=worker
  [ "$status" -eq 0 ]
  expected="sha256:$(openssl x509 -pubkey -noout -in "$NFV_ROOT/etc/kubernetes/pki/ca.crt" | openssl pkey -pubin -outform der | sha256sum | cut -d' ' -f1)"
  [ "${lines[0]}" = "token=$TOKEN" ]
  [ "${lines[1]}" = "ca_cert_hash=$expected" ]
  [ "${#lines[@]}" -eq 2 ]
  grep -q "^kubeadm token create --ttl 1h " "$STUB_LOG"
  ! grep -q "upload-certs" "$STUB_LOG"
}

@test "join-credentials: a master also gets a certificate key; the certificates are uploaded with it through a config file" {
  run run_script join-credentials.sh ROLE=master KUBERNETES_VERSION=1.30.14
  [ "$status" -eq 0 ]
  [ "${lines[2]}" = "certificate_key=$KEY" ]
  grep -qE "^kubeadm init phase upload-certs --upload-certs --skip-certificate-key-print --config $TMPDIR/nfv-k8s\.[A-Za-z0-9]+ --kubeconfig " "$STUB_LOG"
  grep -qx "certificateKey: $KEY" "$STUB_STATE/kubeadm-upload-certs.yaml"
  grep -qx "kubernetesVersion: v1.30.14" "$STUB_STATE/kubeadm-upload-certs.yaml"
  no_secret_leaks
}

@test "join-node: kubeadm join with the config from stdin; a joined node is left alone" {
  run run_script join-node.sh ROLE=worker NODE_NAME=k8s-workernode-0 JOIN_CONFIG_B64="$(b64 "$WORKER_JOIN")"
  [ "$status" -eq 0 ]
  [ "${lines[0]}" = "node_joined=yes" ]
  [ "$(cat "$STUB_STATE/kubeadm-join.yaml")" = "$WORKER_JOIN" ]
  no_secret_leaks
  : >"$STUB_LOG"
  run run_script join-node.sh ROLE=worker NODE_NAME=k8s-workernode-0 JOIN_CONFIG_B64="$(b64 "$WORKER_JOIN")"
  [ "${lines[0]}" = "node_joined=already" ]
  ! grep -q "^kubeadm" "$STUB_LOG"
}

@test "join-node: a master needs controlPlane in its config" {
  run run_script join-node.sh ROLE=master NODE_NAME=k8s-masternode-1 JOIN_CONFIG_B64="$(b64 "$WORKER_JOIN")"
  [ "$status" -ne 0 ]
  [[ "$output" == *"needs controlPlane"* ]]
  ! grep -q "^kubeadm join" "$STUB_LOG"
  [ -z "$(ls -A "$TMPDIR")" ]
}

@test "the join sequence: init on the first master, credentials and join of a second master, credentials and join of a worker" {
  run_script init-master.sh KUBEADM_CONFIG_B64="$(b64 "$INIT_CONFIG")" >/dev/null
  run_script join-credentials.sh ROLE=master KUBERNETES_VERSION=1.30.14 >/dev/null
  run_script join-node.sh ROLE=master NODE_NAME=k8s-masternode-1 JOIN_CONFIG_B64="$(b64 "$MASTER_JOIN")" >/dev/null
  rm -f "$NFV_ROOT/etc/kubernetes/kubelet.conf"   # the next node is another VM
  run_script join-credentials.sh ROLE=worker >/dev/null
  run_script join-node.sh ROLE=worker NODE_NAME=k8s-workernode-0 JOIN_CONFIG_B64="$(b64 "$WORKER_JOIN")" >/dev/null
  run bash -c "grep -oE '^kubeadm (init phase upload-certs|init|token create|certs certificate-key|join)' '$STUB_LOG'"
  [ "$output" = $'kubeadm init\nkubeadm token create\nkubeadm certs certificate-key\nkubeadm init phase upload-certs\nkubeadm join\nkubeadm token create\nkubeadm join' ]
  no_secret_leaks
}

@test "remove-node (scale-in of a worker): cordon, drain, delete, in that order; a second run finds nothing to do" {
  touch "$STUB_STATE/node-k8s-workernode-2"
  run run_script remove-node.sh NODE_NAME=k8s-workernode-2 ROLE=worker
  [ "$status" -eq 0 ]
  [ "${lines[0]}" = "node_removed=yes" ]
  [ "${lines[1]}" = "etcd_member_removed=n/a" ]
  run bash -c "grep -oE '^kubectl --kubeconfig [^ ]+ (cordon|drain|delete node) k8s-workernode-2' '$STUB_LOG' | cut -d' ' -f4-"
  [ "$output" = $'cordon k8s-workernode-2\ndrain k8s-workernode-2\ndelete node k8s-workernode-2' ]
  grep -q "drain k8s-workernode-2 --ignore-daemonsets --delete-emptydir-data --force --timeout=300s" "$STUB_LOG"
  ! grep -q "^etcdctl" "$STUB_LOG"
  : >"$STUB_LOG"
  run run_script remove-node.sh NODE_NAME=k8s-workernode-2 ROLE=worker
  [ "${lines[0]}" = "node_removed=absent" ]
  ! grep -qE "cordon|drain|delete" "$STUB_LOG"
}

@test "remove-node: a failed drain stops a scale-in, but not a heal (the node is broken)" {
  touch "$STUB_STATE/node-k8s-workernode-1" "$STUB_STATE/drain-fails"
  run run_script remove-node.sh NODE_NAME=k8s-workernode-1 ROLE=worker
  [ "$status" -ne 0 ]
  [ -e "$STUB_STATE/node-k8s-workernode-1" ]
  run run_script remove-node.sh NODE_NAME=k8s-workernode-1 ROLE=worker ON_DRAIN_FAILURE=continue
  [ "$status" -eq 0 ]
  [ ! -e "$STUB_STATE/node-k8s-workernode-1" ]
}

LB_ALL=$'backend kube-apiserver\n    server k8s-masternode-0 10.10.0.11:6443 check\n    server k8s-masternode-1 10.10.0.12:6443 check\n    server k8s-masternode-2 10.10.0.13:6443 check'
LB_WITHOUT_1=$'backend kube-apiserver\n    server k8s-masternode-0 10.10.0.11:6443 check\n    server k8s-masternode-2 10.10.0.13:6443 check'

lb() { run_script configure-lb.sh NODE_IP=10.10.0.11 HAPROXY_CFG_B64="$(b64 "$1")" KEEPALIVED_CONF_B64="$(b64 'interface @NODE_NIC@')"; }

@test "master heal choreography: out of the survivor's HAProxy, node deleted, etcd member removed, rejoined as control plane, back in HAProxy" {
  lb "$LB_ALL" >/dev/null
  touch "$STUB_STATE/node-k8s-masternode-1"
  printf '%s\n' "8e9e05c52164694d, started, k8s-masternode-0, https://10.10.0.11:2380, https://10.10.0.11:2379, false" \
    "91bc3c398fb3c146, started, k8s-masternode-1, https://10.10.0.12:2380, https://10.10.0.12:2379, false" \
    "fd422379fda50e48, started, k8s-masternode-2, https://10.10.0.13:2380, https://10.10.0.13:2379, false" >"$STUB_STATE/etcd-members"
  : >"$STUB_LOG"
  # heal_start, on a survivor (each survivor gets the same configure-lb step).
  run lb "$LB_WITHOUT_1"
  [ "${lines[0]}" = "lb_backends=2" ]
  ! grep -q "k8s-masternode-1" "$NFV_ROOT/etc/haproxy/haproxy.cfg"
  run run_script remove-node.sh NODE_NAME=k8s-masternode-1 ROLE=master ON_DRAIN_FAILURE=continue
  [ "$status" -eq 0 ]
  [ "${lines[0]}" = "node_removed=yes" ]
  [ "${lines[1]}" = "etcd_member_removed=yes" ]
  ! grep -q "k8s-masternode-1" "$STUB_STATE/etcd-members"
  [ "$(wc -l <"$STUB_STATE/etcd-members")" -eq 2 ]
  # The VM is replaced; heal_end: fresh credentials on a survivor, control-plane join, backends again.
  rm -f "$NFV_ROOT/etc/kubernetes/kubelet.conf"
  run_script join-credentials.sh ROLE=master KUBERNETES_VERSION=1.30.14 >/dev/null
  run_script join-node.sh ROLE=master NODE_NAME=k8s-masternode-1 JOIN_CONFIG_B64="$(b64 "$MASTER_JOIN")" >/dev/null
  run lb "$LB_ALL"
  [ "${lines[0]}" = "lb_backends=3" ]
  grep -qx "    server k8s-masternode-1 10.10.0.12:6443 check" "$NFV_ROOT/etc/haproxy/haproxy.cfg"
  run bash -c "grep -oE '^(systemctl reload haproxy|kubectl --kubeconfig [^ ]+ (cordon|drain|delete node)|etcdctl .*member (list|remove)( [0-9a-f]+)?|kubeadm (token create|certs certificate-key|init phase upload-certs|join))' '$STUB_LOG' | sed -E 's/--kubeconfig [^ ]+ //; s/etcdctl .*member/etcdctl member/'"
  [ "$output" = "$(printf '%s\n' 'systemctl reload haproxy' 'kubectl cordon' 'kubectl drain' 'kubectl delete node' 'etcdctl member list' 'etcdctl member remove 91bc3c398fb3c146' \
    'kubeadm token create' 'kubeadm certs certificate-key' 'kubeadm init phase upload-certs' 'kubeadm join' 'systemctl reload haproxy')" ]
  grep -q "^etcdctl --endpoints=https://127.0.0.1:2379 --cacert=$NFV_ROOT/etc/kubernetes/pki/etcd/ca.crt --cert=$NFV_ROOT/etc/kubernetes/pki/apiserver-etcd-client.crt" "$STUB_LOG"
  no_secret_leaks
}

@test "master heal: a member already gone is skipped" {
  printf '%s\n' "8e9e05c52164694d, started, k8s-masternode-0, https://10.10.0.11:2380, https://10.10.0.11:2379, false" >"$STUB_STATE/etcd-members"
  run run_script remove-node.sh NODE_NAME=k8s-masternode-1 ROLE=master
  [ "$status" -eq 0 ]
  [ "${lines[0]}" = "node_removed=absent" ]
  [ "${lines[1]}" = "etcd_member_removed=absent" ]
  ! grep -q "member remove" "$STUB_LOG"
}
