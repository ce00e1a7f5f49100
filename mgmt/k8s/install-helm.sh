#!/usr/bin/env bash
# Runs the package's Helm installation script (Tacker's `helm_installation_script_path`) on a
# master that is in the cluster, then checks that it left a working `helm`. The script is the
# operator's (it decides where Helm comes from: the package, a mirror); this wrapper gives it the
# cluster's proxy settings and the admin kubeconfig. A proxy URL may hold a password, so they come
# on stdin, never on a command line. Run as root.
#
# stdin (key=value):
#   SCRIPT=/path/on/node          the package's script, copied to the node (required)
#   HTTP_PROXY= HTTPS_PROXY= NO_PROXY=   optional, exported (both spellings) to the script
# Output: helm_version=<what `helm version --short` printed>
set -euo pipefail
SCRIPT_NAME=install-helm
# shellcheck source=mgmt/k8s/lib.sh
source "$(dirname "$0")/lib.sh"

SCRIPT="" HTTP_PROXY="" HTTPS_PROXY="" NO_PROXY=""
read_params SCRIPT HTTP_PROXY HTTPS_PROXY NO_PROXY
require SCRIPT
[[ -f "$SCRIPT" ]] || die "the Helm installation script $SCRIPT is not on this node"
[[ -f "$KUBECONFIG_ADMIN" ]] || die "this node is not a control plane of the cluster ($KUBECONFIG_ADMIN is missing)"

if [[ -n "$HTTP_PROXY" ]]; then export HTTP_PROXY http_proxy="$HTTP_PROXY"; fi
if [[ -n "$HTTPS_PROXY" ]]; then export HTTPS_PROXY https_proxy="$HTTPS_PROXY"; fi
if [[ -n "$NO_PROXY" ]]; then export NO_PROXY no_proxy="$NO_PROXY"; fi
export KUBECONFIG="$KUBECONFIG_ADMIN"

log "running the package's Helm installation script"
# Its output is progress: stderr, so stdout stays this wrapper's key=value result.
bash "$SCRIPT" >&2 || die "the Helm installation script failed (exit $?)"
command -v helm >/dev/null || die "the Helm installation script ran, but no helm is on PATH"
version="$(helm version --short 2>/dev/null)" || die "helm is installed but \`helm version\` fails"
echo "helm_version=$version"
