#!/usr/bin/env bash
# On a healthy master: fresh credentials for one node to join. A bootstrap token (1 hour), the CA
# public key hash, and for a master the certificate key of freshly uploaded control-plane
# certificates (they expire after 2 hours in the cluster). Run as root.
#
# stdin (key=value):
#   ROLE=master|worker
#   KUBERNETES_VERSION=1.30.14   the cluster's version (upload-certs reads a configuration)
#   KUBEADM_API_VERSION=kubeadm.k8s.io/v1beta3
# Output (stdout is a secret in the Command): token=..., ca_cert_hash=sha256:..., certificate_key=...
set -euo pipefail
SCRIPT_NAME=join-credentials
# shellcheck source=mgmt/k8s/lib.sh
source "$(dirname "$0")/lib.sh"

ROLE="" KUBERNETES_VERSION="" KUBEADM_API_VERSION="kubeadm.k8s.io/v1beta3"

ca_cert_hash() {
  local hash
  hash="$(openssl x509 -pubkey -noout -in "$ROOT/etc/kubernetes/pki/ca.crt" | openssl pkey -pubin -outform der | sha256sum | cut -d' ' -f1)"
  [[ "$hash" =~ ^[0-9a-f]{64}$ ]] || die "cannot hash the cluster CA's public key"
  echo "sha256:$hash"
}

# The key goes to kubeadm in a root-only file, not on its command line.
upload_certs() {
  local key="$1" config
  temp_file config "apiVersion: $KUBEADM_API_VERSION
kind: InitConfiguration
certificateKey: $key
---
apiVersion: $KUBEADM_API_VERSION
kind: ClusterConfiguration
kubernetesVersion: v${KUBERNETES_VERSION#v}
"
  kubeadm init phase upload-certs --upload-certs --skip-certificate-key-print --config "$config" --kubeconfig "$KUBECONFIG_ADMIN" >&2
}

main() {
  read_params ROLE KUBERNETES_VERSION KUBEADM_API_VERSION
  require ROLE
  [[ "$ROLE" == master || "$ROLE" == worker ]] || die "ROLE must be master or worker, got $ROLE"
  local token hash key
  token="$(kubeadm token create --ttl 1h --description "nfv-k8s join" --kubeconfig "$KUBECONFIG_ADMIN")"
  [[ "$token" =~ ^[a-z0-9]{6}\.[a-z0-9]{16}$ ]] || die "kubeadm token create printed no token"
  hash="$(ca_cert_hash)"
  echo "token=$token"
  echo "ca_cert_hash=$hash"
  if [[ "$ROLE" == master ]]; then
    require KUBERNETES_VERSION
    key="$(kubeadm certs certificate-key)"
    [[ "$key" =~ ^[0-9a-f]{64}$ ]] || die "kubeadm certs certificate-key printed no key"
    upload_certs "$key"
    echo "certificate_key=$key"
  fi
}

if [[ "${BASH_SOURCE[0]}" == "$0" ]]; then
  main "$@"
fi
