#!/usr/bin/env bash
# Prepares a VM to be a Kubernetes node (every master and worker): hostname and /etc/hosts, no swap,
# kernel modules and sysctls, the proxy for apt, containerd and the kubelet, and containerd,
# kubeadm, kubelet and kubectl at pinned versions from the configured apt source (a mirror on an
# air-gapped site: nothing is downloaded from the internet). Run as root.
#
# stdin (key=value):
#   NODE_NAME=k8s-masternode-0     unique node name (also the hostname)
#   HOSTS_B64=...                  /etc/hosts block (nodes and registries), base64
#   KUBERNETES_PACKAGE_VERSION=1.30.14-1.1   apt version of kubeadm, kubelet, kubectl (required)
#   CONTAINERD_PACKAGE=containerd            apt package providing containerd (containerd or containerd.io)
#   CONTAINERD_PACKAGE_VERSION=...           its apt version (required)
#   EXTRA_PACKAGES=name=version              more pinned packages, repeated (e.g. etcd-client on masters)
#   APT_SOURCE_B64=...             optional: an apt sources.list file for the mirror, base64
#   APT_PROXY_CONF_B64=...         optional proxy: apt.conf lines, base64
#   PROXY_DROPIN_B64=...           with it: the containerd and kubelet systemd drop-in, base64
#                                  (both written and escaped by pulumi-nfv, components/host-files:
#                                  this script never puts a value into apt or systemd syntax)
#   INSTANCE_ID=<Nova server id>   optional: refuse to run unless cloud-init's instance id (when the
#                                  host has one) is this server's: after a heal or a re-created
#                                  server, a host still answering at the kept address must not be
#                                  mistaken for the new server
# Output: key=value lines (node_name, packages).
set -euo pipefail
SCRIPT_NAME=prepare-node
# shellcheck source=mgmt/k8s/lib.sh
source "$(dirname "$0")/lib.sh"

NODE_NAME="" HOSTS_B64="" KUBERNETES_PACKAGE_VERSION="" CONTAINERD_PACKAGE="containerd" CONTAINERD_PACKAGE_VERSION=""
APT_SOURCE_B64="" APT_PROXY_CONF_B64="" PROXY_DROPIN_B64="" INSTANCE_ID=""
EXTRA_PACKAGES=()

# cloud-init records the server's id here on every boot; without cloud-init there is nothing to check.
check_instance() {
  local file="$ROOT/var/lib/cloud/data/instance-id" have
  [[ -n "$INSTANCE_ID" && -f "$file" ]] || return 0
  have="$(tr -d '[:space:]' <"$file")"
  [[ "$have" == "$INSTANCE_ID" ]] || die "this host is server $have, not $INSTANCE_ID (the address answers for a server that is being replaced); run again once the new server is up"
}

set_hostname() {
  [[ "$(hostname)" == "$NODE_NAME" ]] && return 0
  hostnamectl set-hostname "$NODE_NAME"
}

# The managed block between markers; the rest of /etc/hosts is left alone.
write_hosts() {
  local file="$ROOT/etc/hosts" begin="# BEGIN nfv-k8s" end="# END nfv-k8s" current=""
  mkdir -p "$(dirname "$file")"
  [[ -f "$file" ]] && current="$(sed "/^$begin\$/,/^$end\$/d" "$file")"
  write_if_changed "$file" 644 "${current:+$current$'\n'}$begin"$'\n'"$(b64 "$HOSTS_B64")"$'\n'"$end"$'\n' || true
}

disable_swap() {
  swapoff -a
  local fstab="$ROOT/etc/fstab"
  [[ -f "$fstab" ]] && grep -qE '^[^#].*[[:space:]]swap[[:space:]]' "$fstab" && sed -i -E 's/^([^#].*[[:space:]]swap[[:space:]].*)$/# nfv-k8s: \1/' "$fstab"
  return 0
}

kernel_settings() {
  local m
  if write_if_changed "$ROOT/etc/modules-load.d/nfv-k8s.conf" 644 $'overlay\nbr_netfilter\n'; then
    for m in overlay br_netfilter; do modprobe "$m"; done
  fi
  if write_if_changed "$ROOT/etc/sysctl.d/90-nfv-k8s.conf" 644 $'net.bridge.bridge-nf-call-iptables = 1\nnet.bridge.bridge-nf-call-ip6tables = 1\nnet.ipv4.ip_forward = 1\n'; then
    sysctl --system >&2
  fi
}

configure_proxy() {
  local apt="$ROOT/etc/apt/apt.conf.d/95nfv-k8s-proxy" unit
  if [[ -z "$APT_PROXY_CONF_B64" ]]; then
    rm -f "$apt" "$ROOT"/etc/systemd/system/{containerd,kubelet}.service.d/nfv-proxy.conf
    return 0
  fi
  [[ -n "$PROXY_DROPIN_B64" ]] || die "APT_PROXY_CONF_B64 needs PROXY_DROPIN_B64"
  write_if_changed "$apt" 600 "$(b64 "$APT_PROXY_CONF_B64")"$'\n' || true
  for unit in containerd kubelet; do
    write_if_changed "$ROOT/etc/systemd/system/$unit.service.d/nfv-proxy.conf" 600 "$(b64 "$PROXY_DROPIN_B64")"$'\n' && touch "$STATE_DIR/daemon-reload"
  done
  return 0
}

# Installs the pinned set once; the state file records it, so an unchanged set is not reinstalled.
install_packages() {
  local pkgs=("$CONTAINERD_PACKAGE=$CONTAINERD_PACKAGE_VERSION" "kubelet=$KUBERNETES_PACKAGE_VERSION" "kubeadm=$KUBERNETES_PACKAGE_VERSION" "kubectl=$KUBERNETES_PACKAGE_VERSION" "${EXTRA_PACKAGES[@]}")
  local want p missing=0
  want="$(printf '%s\n' "${pkgs[@]}")"
  for p in "${pkgs[@]}"; do
    dpkg-query -W -f='${Status}' "${p%%=*}" 2>/dev/null | grep -q "install ok installed" || missing=1
  done
  if (( missing == 0 )) && [[ -f "$STATE_DIR/packages" && "$(cat "$STATE_DIR/packages")" == "${want%$'\n'}" ]]; then return 0; fi
  if [[ -n "$APT_SOURCE_B64" ]]; then write_if_changed "$ROOT/etc/apt/sources.list.d/nfv-k8s.list" 644 "$(b64 "$APT_SOURCE_B64")"$'\n' || true; fi
  apt-mark unhold kubelet kubeadm kubectl >&2 || true
  DEBIAN_FRONTEND=noninteractive apt-get update -q >&2
  DEBIAN_FRONTEND=noninteractive apt-get install -y -q --no-install-recommends --allow-downgrades --allow-change-held-packages "${pkgs[@]}" >&2
  # Unattended upgrades must not move the cluster to another version.
  apt-mark hold kubelet kubeadm kubectl >&2
  write_if_changed "$STATE_DIR/packages" 644 "$want" || true
}

start_services() {
  if [[ -e "$STATE_DIR/daemon-reload" ]]; then
    systemctl daemon-reload
    rm -f "$STATE_DIR/daemon-reload"
  fi
  systemctl enable --now containerd >&2
  systemctl enable kubelet >&2
}

main() {
  read_params NODE_NAME HOSTS_B64 KUBERNETES_PACKAGE_VERSION CONTAINERD_PACKAGE CONTAINERD_PACKAGE_VERSION 'EXTRA_PACKAGES[]' APT_SOURCE_B64 APT_PROXY_CONF_B64 PROXY_DROPIN_B64 INSTANCE_ID
  require NODE_NAME KUBERNETES_PACKAGE_VERSION CONTAINERD_PACKAGE_VERSION
  check_instance
  [[ "$NODE_NAME" =~ ^[a-z0-9]([a-z0-9-]{0,61}[a-z0-9])?$ ]] || die "NODE_NAME $NODE_NAME is not a DNS label"
  local p
  for p in "$CONTAINERD_PACKAGE=$CONTAINERD_PACKAGE_VERSION" "kubelet=$KUBERNETES_PACKAGE_VERSION" "${EXTRA_PACKAGES[@]}"; do check_pin "${p%%=*}" "${p#*=}"; done
  mkdir -p "$STATE_DIR"
  set_hostname
  write_hosts
  disable_swap
  kernel_settings
  configure_proxy
  install_packages
  start_services
  echo "node_name=$NODE_NAME"
  echo "packages=$CONTAINERD_PACKAGE=$CONTAINERD_PACKAGE_VERSION,kubeadm=$KUBERNETES_PACKAGE_VERSION"
}

if [[ "${BASH_SOURCE[0]}" == "$0" ]]; then
  main "$@"
fi
