#!/usr/bin/env bash
# On a master: sets a node's placement labels, for hardware-aware pod anti-affinity (Tacker's
# `podaffinity` flavour): `CIS-node=<compute host>` and `topology.kubernetes.io/zone=<zone>`.
# --overwrite, so a healed or migrated node gets its new host and a second run changes nothing.
# Every label is checked against Kubernetes' syntax first: a bad one fails here, by name, and
# nothing is set. A node that has joined but not registered yet is waited for. Run as root.
#
# stdin (key=value):
#   NODE_NAME=k8s-workernode-1
#   LABELS=CIS-node=compute1 topology.kubernetes.io/zone=nova   (key=value, space-separated)
# Output: labels=<the labels set>.
set -euo pipefail
SCRIPT_NAME="label-node"
# shellcheck source=mgmt/k8s/lib.sh
source "$(dirname "$0")/lib.sh"

NODE_NAME="" LABELS=""
# Name part: at most 63 characters of alphanumerics, '-', '_' and '.', alphanumeric at both ends.
NAME_RE='[A-Za-z0-9]([-A-Za-z0-9_.]{0,61}[A-Za-z0-9])?'
KEY_RE="^([a-z0-9]([-a-z0-9.]{0,251}[a-z0-9])?/)?$NAME_RE\$"
VALUE_RE="^($NAME_RE)?\$"

check_label() {
  local label="$1"
  [[ "$label" == *=* ]] || die "label '$label' is not key=value"
  [[ "${label%%=*}" =~ $KEY_RE ]] || die "label key '${label%%=*}' is not a valid Kubernetes label key"
  [[ "${label#*=}" =~ $VALUE_RE ]] || die "value '${label#*=}' of label ${label%%=*} is not a valid Kubernetes label value (at most 63 of [A-Za-z0-9._-], alphanumeric at both ends)"
}

node_registered() { kctl get node "$NODE_NAME" >/dev/null 2>&1; }

main() {
  read_params NODE_NAME LABELS
  require NODE_NAME LABELS
  local labels label
  read -r -a labels <<<"$LABELS"
  for label in "${labels[@]}"; do check_label "$label"; done
  # kubeadm v1.34's join returns once the kubelet has its credentials, before the kubelet has
  # registered the node (NodeLocalCRISocket: join no longer waits to annotate the Node object):
  # on a busy host the Node comes a few seconds after the join this runs after.
  retry node_registered || die "node $NODE_NAME is not in the cluster (waited $((WAIT_TRIES * WAIT_SLEEP)) s for it to register)"
  kctl label node "$NODE_NAME" --overwrite "${labels[@]}" >&2
  echo "labels=${labels[*]}"
}

if [[ "${BASH_SOURCE[0]}" == "$0" ]]; then
  main "$@"
fi
