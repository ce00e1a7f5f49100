#!/usr/bin/env bash
# Joins this node to the cluster, as a worker or as another control plane, with a
# JoinConfiguration built by the component (token, CA hash and certificate key inside: it is
# written to a root-only file for kubeadm and removed). A node that has joined is left alone.
# Run as root.
#
# stdin (key=value):
#   ROLE=master|worker
#   NODE_NAME=k8s-workernode-0
#   JOIN_CONFIG_B64=...          JoinConfiguration, base64; secret
# Output: node_joined=yes|already, node_name, role.
set -euo pipefail
SCRIPT_NAME=join-node
# shellcheck source=mgmt/k8s/lib.sh
source "$(dirname "$0")/lib.sh"

ROLE="" NODE_NAME="" JOIN_CONFIG_B64=""

main() {
  read_params ROLE NODE_NAME JOIN_CONFIG_B64
  require ROLE NODE_NAME JOIN_CONFIG_B64
  [[ "$ROLE" == master || "$ROLE" == worker ]] || die "ROLE must be master or worker, got $ROLE"
  local state=already config
  if [[ ! -f "$ROOT/etc/kubernetes/kubelet.conf" ]]; then
    temp_file config "$(b64 "$JOIN_CONFIG_B64")"
    if [[ "$ROLE" == master ]] && ! grep -q '^controlPlane:' "$config"; then die "a master's JoinConfiguration needs controlPlane"; fi
    kubeadm join --config "$config" >&2
    state=yes
  fi
  if [[ "$ROLE" == master ]]; then
    mkdir -p "$ROOT/root/.kube"
    install -m 600 "$KUBECONFIG_ADMIN" "$ROOT/root/.kube/config"
  fi
  echo "node_joined=$state"
  echo "node_name=$NODE_NAME"
  echo "role=$ROLE"
}

if [[ "${BASH_SOURCE[0]}" == "$0" ]]; then
  main "$@"
fi
