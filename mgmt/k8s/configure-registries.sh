#!/usr/bin/env bash
# Points containerd at the private registries (every node): config.toml, one
# certs.d/<host:port>/hosts.toml per registry (HTTP, or HTTPS verified with its CA) and the
# credentials the kubelet hands to containerd with each pull. Optionally imports image tarballs
# (control-plane, CNI and pause images) for sites without a registry. Run as root.
#
# stdin (key=value):
#   CONTAINERD_CONFIG_B64=...                 /etc/containerd/config.toml, base64 (required)
#   REGISTRY=<host:port>|<hosts.toml b64>|<ca.crt b64 or empty>   one line per registry (repeated)
#   REGISTRY_AUTH_B64=...                     /var/lib/kubelet/config.json (Docker config), base64; secret
#   IMAGE_TARBALL=/path/on/node.tar           images to import into containerd's k8s.io namespace (repeated)
# Output: key=value lines (registries, containerd_restarted).
set -euo pipefail
SCRIPT_NAME=configure-registries
# shellcheck source=mgmt/k8s/lib.sh
source "$(dirname "$0")/lib.sh"

CONTAINERD_CONFIG_B64="" REGISTRY_AUTH_B64=""
REGISTRY=() IMAGE_TARBALL=()
CERTS_DIR="/etc/containerd/certs.d"

write_registries() {
  local changed=1 entry server hosts ca dir
  local -A wanted=()
  write_if_changed "$ROOT/etc/containerd/config.toml" 644 "$(b64 "$CONTAINERD_CONFIG_B64")"$'\n' && changed=0
  for entry in "${REGISTRY[@]}"; do
    IFS='|' read -r server hosts ca <<<"$entry"
    [[ "$server" =~ ^[A-Za-z0-9.-]+:[0-9]+$ ]] || die "REGISTRY server $server is not host:port"
    dir="$ROOT$CERTS_DIR/$server"
    wanted[$server]=1
    write_if_changed "$dir/hosts.toml" 644 "$(b64 "$hosts")"$'\n' && changed=0
    if [[ -n "$ca" ]]; then
      write_if_changed "$dir/ca.crt" 644 "$(b64 "$ca")"$'\n' && changed=0
    elif [[ -e "$dir/ca.crt" ]]; then
      rm -f "$dir/ca.crt"; changed=0
    fi
  done
  # Registries no longer listed are forgotten.
  if [[ -d "$ROOT$CERTS_DIR" ]]; then
    for dir in "$ROOT$CERTS_DIR"/*/; do
      [[ -d "$dir" ]] || continue
      server="$(basename "$dir")"
      # A lookup, not `printf | grep -q`: under pipefail, grep quitting at the first match while
      # printf still writes (one write per line) failed the test about once in 300 and removed a
      # registry still wanted (seen in .ci/run: an HA node without the HTTPS registry's hosts.toml).
      if [[ -z "${wanted[$server]:-}" ]]; then rm -rf "$dir"; changed=0; fi
    done
  fi
  return "$changed"
}

write_credentials() {
  local file="$ROOT/var/lib/kubelet/config.json"
  if [[ -z "$REGISTRY_AUTH_B64" ]]; then rm -f "$file"; return 0; fi
  write_if_changed "$file" 600 "$(b64 "$REGISTRY_AUTH_B64")" || true
}

# A tarball is imported once: its checksum is recorded.
import_images() {
  local t sum
  for t in "${IMAGE_TARBALL[@]}"; do
    [[ -f "$t" ]] || die "IMAGE_TARBALL $t does not exist"
    sum="$(sha256sum "$t" | cut -d' ' -f1)"
    grep -qx "$sum" "$STATE_DIR/imported" 2>/dev/null && continue
    ctr --namespace k8s.io images import "$t" >&2
    echo "$sum" >>"$STATE_DIR/imported"
  done
}

main() {
  read_params CONTAINERD_CONFIG_B64 'REGISTRY[]' REGISTRY_AUTH_B64 'IMAGE_TARBALL[]'
  require CONTAINERD_CONFIG_B64
  mkdir -p "$STATE_DIR"
  local restarted=no
  if write_registries; then
    systemctl restart containerd
    restarted=yes
  fi
  write_credentials
  import_images
  echo "registries=${#REGISTRY[@]}"
  echo "containerd_restarted=$restarted"
}

if [[ "${BASH_SOURCE[0]}" == "$0" ]]; then
  main "$@"
fi
