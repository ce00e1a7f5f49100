#!/usr/bin/env bats
# mgmt/k8s/label-node.sh: a worker's placement labels (CIS-node, zone) set through kubectl on a
# master, each label checked first.
load k8s-helpers

setup() {
  k8s_setup
}

@test "label-node: sets every label with --overwrite on a node of the cluster" {
  touch "$STUB_STATE/node-k8s-workernode-0"
  run run_script label-node.sh NODE_NAME=k8s-workernode-0 "LABELS=CIS-node=compute1 topology.kubernetes.io/zone=nova"
  [ "$status" -eq 0 ]
  [ "${lines[-1]}" = "labels=CIS-node=compute1 topology.kubernetes.io/zone=nova" ]
  grep -qx "kubectl --kubeconfig $NFV_ROOT/etc/kubernetes/admin.conf label node k8s-workernode-0 --overwrite CIS-node=compute1 topology.kubernetes.io/zone=nova" "$STUB_LOG"
}

@test "label-node: a node that has joined but registers a moment later is waited for, then labelled" {
  echo 1 >"$STUB_STATE/registers-late-k8s-workernode-1"
  run run_script label-node.sh NODE_NAME=k8s-workernode-1 "LABELS=CIS-node=compute2"
  [ "$status" -eq 0 ]
  [ "$(grep -c "get node k8s-workernode-1" "$STUB_LOG")" -eq 2 ]
  grep -qx "kubectl --kubeconfig $NFV_ROOT/etc/kubernetes/admin.conf label node k8s-workernode-1 --overwrite CIS-node=compute2" "$STUB_LOG"
}

# refused MESSAGE KEY=VALUE...: label-node.sh fails with MESSAGE in its output.
refused() {
  local message="$1"; shift
  run run_script label-node.sh "$@"
  [ "$status" -ne 0 ]
  [[ "$output" == *"$message"* ]]
}

@test "label-node: a bad key or value, a node outside the cluster, a missing parameter: each a clear error, nothing labelled" {
  touch "$STUB_STATE/node-w"
  refused "value 'host_with_a_trailing_dash-' of label CIS-node is not a valid Kubernetes label value" NODE_NAME=w "LABELS=CIS-node=host_with_a_trailing_dash-"
  refused "is not a valid Kubernetes label value" NODE_NAME=w "LABELS=CIS-node=$(printf 'a%.0s' {1..64})"
  refused "label key '-bad' is not a valid Kubernetes label key" NODE_NAME=w "LABELS=-bad=x"
  refused "label 'novalue' is not key=value" NODE_NAME=w "LABELS=novalue"
  refused "node gone is not in the cluster (waited" NODE_NAME=gone "LABELS=CIS-node=compute1"
  refused "parameter LABELS is required" NODE_NAME=w
  ! grep -q " label " "$STUB_LOG"
}
