#!/usr/bin/env bash
# Initialises the cluster on the first master: `kubeadm init` with the generated configuration
# (control-plane endpoint VIP:16443 with HA), the CNI manifest copied from the package or mirror,
# and an admin ServiceAccount with an explicit token Secret (Kubernetes >= 1.24 creates none).
# A second run finds the cluster and only re-applies the manifests. Run as root.
#
# stdin (key=value):
#   KUBEADM_CONFIG_B64=...     InitConfiguration + ClusterConfiguration + KubeletConfiguration, base64
#   CNI_MANIFEST=/path.yaml    optional: CNI manifest on this node (its images from the private registry)
# Output (stdout is a secret in the Command): initialized=yes|already, ca_crt_b64=..., admin_token=...
# kubeadm's own output goes to stderr; tokens and keys are never printed there.
set -euo pipefail
SCRIPT_NAME=init-master
# shellcheck source=mgmt/k8s/lib.sh
source "$(dirname "$0")/lib.sh"

KUBEADM_CONFIG_B64="" CNI_MANIFEST=""
ADMIN_SA="nfv-admin" ADMIN_SECRET="nfv-admin-token"

initialised() { [[ -f "$KUBECONFIG_ADMIN" ]] && kctl get --raw=/readyz >/dev/null 2>&1; }

kubeadm_init() {
  local config
  temp_file config "$(b64 "$KUBEADM_CONFIG_B64")"
  # No --upload-certs here: each control-plane join gets a fresh certificate key (join-credentials.sh).
  kubeadm init --config "$config" --skip-token-print --skip-certificate-key-print >&2
}

root_kubeconfig() {
  mkdir -p "$ROOT/root/.kube"
  install -m 600 "$KUBECONFIG_ADMIN" "$ROOT/root/.kube/config"
}

admin_account() {
  kctl apply -f - >&2 <<YAML
apiVersion: v1
kind: ServiceAccount
metadata: {name: $ADMIN_SA, namespace: kube-system}
---
apiVersion: rbac.authorization.k8s.io/v1
kind: ClusterRoleBinding
metadata: {name: $ADMIN_SA}
roleRef: {apiGroup: rbac.authorization.k8s.io, kind: ClusterRole, name: cluster-admin}
subjects: [{kind: ServiceAccount, name: $ADMIN_SA, namespace: kube-system}]
---
apiVersion: v1
kind: Secret
type: kubernetes.io/service-account-token
metadata:
  name: $ADMIN_SECRET
  namespace: kube-system
  annotations: {kubernetes.io/service-account.name: $ADMIN_SA}
YAML
}

admin_token() {
  local t
  t="$(kctl -n kube-system get secret "$ADMIN_SECRET" -o jsonpath='{.data.token}' 2>/dev/null || true)"
  [[ -n "$t" ]] || return 1
  b64 "$t"
}

main() {
  read_params KUBEADM_CONFIG_B64 CNI_MANIFEST
  require KUBEADM_CONFIG_B64
  local state=already token
  if ! initialised; then
    kubeadm_init
    state=yes
  fi
  root_kubeconfig
  retry initialised || die "the API server does not answer"
  if [[ -n "$CNI_MANIFEST" ]]; then
    [[ -f "$CNI_MANIFEST" ]] || die "CNI_MANIFEST $CNI_MANIFEST does not exist"
    kctl apply -f "$CNI_MANIFEST" >&2
  fi
  admin_account
  token="$(retry admin_token)" || die "the admin token Secret was not filled in"
  echo "initialized=$state"
  echo "ca_crt_b64=$(base64 -w0 "$ROOT/etc/kubernetes/pki/ca.crt")"
  echo "admin_token=$token"
}

if [[ "${BASH_SOURCE[0]}" == "$0" ]]; then
  main "$@"
fi
