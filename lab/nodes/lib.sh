# shellcheck shell=bash disable=SC2034  # settings are used by the scripts sourcing this file
# Settings shared by lab/nodes/image and lab/nodes/node. Sourced, never executed. Every setting can
# be overridden from the environment.
export PATH=/usr/local/sbin:/usr/local/bin:/usr/sbin:/usr/bin:/sbin:/bin
export LC_ALL=C.UTF-8

NODES_LIB_DIR="$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)"
LAB_DIR="$(cd "$NODES_LIB_DIR/.." && pwd)"

# The pinned versions are lab/k8s/build.sh's: the node image carries the binaries it builds.
K8S_VERSION="$(sed -n 's/^K8S_VERSION=\([^ ]*\).*/\1/p' "$LAB_DIR/k8s/build.sh")"
ETCD_VERSION="$(sed -n 's/^ETCD_VERSION=\([^ ]*\).*/\1/p' "$LAB_DIR/k8s/build.sh")"
NFV_CACHE="${NFV_CACHE:-$HOME/.cache/pulumi-nfv}"
K8S_CACHE="$NFV_CACHE/k8s"

# The node image: a Debian bookworm tree with what a Kubernetes node runs (systemd as PID 1,
# containerd, runc, CNI plugins, the tools kubeadm's preflight and kube-proxy use, sshd and sudo
# for the mgmt scripts, what they install on masters: etcd-client, haproxy, keepalived),
# air-gapped: nothing is fetched after it is made.
NODE_PACKAGES="systemd,systemd-sysv,dbus,iproute2,containerd,runc,containernetworking-plugins,kmod,procps,ca-certificates,iptables,conntrack,socat,ethtool,openssh-server,sudo,etcd-client,haproxy,keepalived"
# Binaries from lab/k8s/build.sh's cache, packaged as Debian packages of these names at
# NODE_K8S_DEB_VERSION (pkgs.k8s.io's version scheme) and installed with dpkg: a pinned
# `apt-get install kubeadm=<version>` of the mgmt scripts finds them installed and fetches nothing.
NODE_K8S_BINARIES=(kubelet kubeadm kubectl)
NODE_K8S_DEB_VERSION="${K8S_VERSION#v}-1.1"
CACHE="${NFV_LAB_CACHE:-/var/cache/pulumi-nfv-lab}"
# Base tree: debootstrap + the packages, keyed by the package list.
NODE_BASE="$CACHE/node-base-bookworm-$(printf '%s' "$NODE_PACKAGES" | sha256sum | cut -c1-12)"
DEBIAN_MIRROR="${NFV_LAB_DEBIAN_MIRROR:-}"

# Running nodes.
STATE_ROOT="${NFV_LAB_STATE:-/var/lib/pulumi-nfv-lab}"
NODES_STATE="$STATE_ROOT/nodes"
# The nodes' own bridge and subnet (not the lab OpenStack's nfvlab0 / 10.10.0.0/24, nor lab/hosts').
NODE_BRIDGE="${NFV_NODE_BRIDGE:-nfvnode0}"
NODE_NET="${NFV_NODE_NET:-10.253.0}"       # /24: .1 is this machine, nodes get .10-.250
NODE_GW="$NODE_NET.1"
# The cgroup under the caller's own cgroup (in every hierarchy) that holds the nodes.
NODE_CGROUP_PARENT=nfvnode

log() { printf '%s [lab/nodes] %s\n' "$(date -u +%H:%M:%S)" "$*" >&2; }
die() { log "ERROR: $*"; exit 1; }

debian_mirror() {
  local mirror="$DEBIAN_MIRROR"
  if [[ -z "$mirror" ]]; then
    mirror="$(grep -hsE '^URIs: .*/debian/?$' /etc/apt/sources.list.d/*.sources | head -1 | awk '{print $2}')"
    [[ -n "$mirror" ]] || mirror="$(grep -hsE '^deb .*/debian/? bookworm ' /etc/apt/sources.list | head -1 | awk '{print $2}')"
  fi
  [[ -n "$mirror" ]] || die "no Debian mirror in /etc/apt/sources.list*; set NFV_LAB_DEBIAN_MIRROR"
  printf '%s\n' "$mirror"
}

# debootstrap_tree DIR PACKAGES LOG: `debootstrap --variant=minbase bookworm` into DIR from the
# machine's Debian mirror, then PACKAGES (comma-separated) installed in the tree with services held
# back (policy-rc.d: a postinst must not start its daemon on this machine), apt caches and lists
# removed (the tree is air-gapped). Output to LOG; dies on failure. Callers install debootstrap.
debootstrap_tree() {
  local dir="$1" logf="$3" mirror pkgs
  IFS=, read -r -a pkgs <<<"$2"
  mirror="$(debian_mirror)"
  rm -rf "$dir"
  debootstrap --variant=minbase bookworm "$dir" "$mirror" >"$logf" 2>&1 || die "debootstrap failed: $logf"
  printf '#!/bin/sh\nexit 101\n' >"$dir/usr/sbin/policy-rc.d"
  chmod +x "$dir/usr/sbin/policy-rc.d"
  cp /etc/resolv.conf "$dir/etc/resolv.conf"
  chroot "$dir" apt-get update -q >>"$logf" 2>&1 || die "apt-get update in the tree failed: $logf"
  chroot "$dir" env DEBIAN_FRONTEND=noninteractive apt-get install -y -q --no-install-recommends \
    "${pkgs[@]}" >>"$logf" 2>&1 || die "apt-get install in the tree failed: $logf"
  chroot "$dir" apt-get clean
  rm -rf "$dir"/var/lib/apt/lists/*
  rm -f "$dir/usr/sbin/policy-rc.d"
}
