#!/usr/bin/env bash
# On a surviving master: takes a node out of the cluster before its VM goes away (scale-in, heal).
# cordon, drain, delete the Node; for a master also its etcd member (`etcdctl member remove`), so
# the rejoined master does not meet its own ghost. Absent things are skipped: a second run changes
# nothing. Run as root.
#
# stdin (key=value):
#   NODE_NAME=k8s-workernode-1
#   ROLE=master|worker
#   DRAIN_TIMEOUT=300s
#   ON_DRAIN_FAILURE=fail|continue   continue for a heal (the node is usually broken and cannot
#                                    confirm evictions); fail for a scale-in
# Output: node_removed=yes|absent, etcd_member_removed=yes|absent|n/a.
set -euo pipefail
SCRIPT_NAME=remove-node
# shellcheck source=mgmt/k8s/lib.sh
source "$(dirname "$0")/lib.sh"

NODE_NAME="" ROLE="" DRAIN_TIMEOUT="300s" ON_DRAIN_FAILURE="fail"
ETCD_PKI="$ROOT/etc/kubernetes/pki"

etcd() {
  ETCDCTL_API=3 etcdctl --endpoints=https://127.0.0.1:2379 --cacert="$ETCD_PKI/etcd/ca.crt" \
    --cert="$ETCD_PKI/apiserver-etcd-client.crt" --key="$ETCD_PKI/apiserver-etcd-client.key" "$@"
}

remove_node() {
  if ! kctl get node "$NODE_NAME" >/dev/null 2>&1; then echo absent; return 0; fi
  kctl cordon "$NODE_NAME" >&2
  if ! kctl drain "$NODE_NAME" --ignore-daemonsets --delete-emptydir-data --force --timeout="$DRAIN_TIMEOUT" >&2; then
    [[ "$ON_DRAIN_FAILURE" == continue ]] || die "drain of $NODE_NAME failed"
    log "drain of $NODE_NAME failed; deleting the node anyway (heal)"
  fi
  kctl delete node "$NODE_NAME" >&2
  echo yes
}

# `member list` prints "id, status, name, peer URLs, client URLs, is learner".
remove_member() {
  local id
  id="$(etcd member list | awk -F', ' -v n="$NODE_NAME" '$3 == n { print $1 }')"
  if [[ -z "$id" ]]; then echo absent; return 0; fi
  etcd member remove "$id" >&2
  echo yes
}

main() {
  read_params NODE_NAME ROLE DRAIN_TIMEOUT ON_DRAIN_FAILURE
  require NODE_NAME ROLE
  [[ "$ROLE" == master || "$ROLE" == worker ]] || die "ROLE must be master or worker, got $ROLE"
  [[ "$ON_DRAIN_FAILURE" == fail || "$ON_DRAIN_FAILURE" == continue ]] || die "ON_DRAIN_FAILURE must be fail or continue"
  local node member="n/a"
  node="$(remove_node)"
  [[ "$ROLE" == master ]] && member="$(remove_member)"
  echo "node_removed=$node"
  echo "etcd_member_removed=$member"
}

if [[ "${BASH_SOURCE[0]}" == "$0" ]]; then
  main "$@"
fi
