#!/usr/bin/env bash
# HAProxy and keepalived on a master (HA clusters): the VIP's :16443 to every master's :6443. The
# configuration comes whole from the component (rewritten when the masters change, e.g. without a
# master being healed and with it again after it rejoined); HAProxy's is checked with
# `haproxy -c` before it replaces the running one. Run as root.
#
# stdin (key=value):
#   NODE_IP=10.10.0.11              this master's cluster address (finds keepalived's interface)
#   HAPROXY_CFG_B64=...             /etc/haproxy/haproxy.cfg, base64
#   KEEPALIVED_CONF_B64=...         /etc/keepalived/keepalived.conf, base64 (@NODE_NIC@ is replaced)
#   HAPROXY_PACKAGE_VERSION / KEEPALIVED_PACKAGE_VERSION   optional apt pins
# Output: key=value lines (lb_backends, haproxy_reloaded, keepalived_restarted).
set -euo pipefail
SCRIPT_NAME=configure-lb
# shellcheck source=mgmt/k8s/lib.sh
source "$(dirname "$0")/lib.sh"

NODE_IP="" HAPROXY_CFG_B64="" KEEPALIVED_CONF_B64="" HAPROXY_PACKAGE_VERSION="" KEEPALIVED_PACKAGE_VERSION=""

install_packages() {
  local missing=() p
  for p in "haproxy${HAPROXY_PACKAGE_VERSION:+=$HAPROXY_PACKAGE_VERSION}" "keepalived${KEEPALIVED_PACKAGE_VERSION:+=$KEEPALIVED_PACKAGE_VERSION}"; do
    dpkg-query -W -f='${Status}' "${p%%=*}" 2>/dev/null | grep -q "install ok installed" || missing+=("$p")
  done
  (( ${#missing[@]} == 0 )) && return 0
  DEBIAN_FRONTEND=noninteractive apt-get install -y -q --no-install-recommends "${missing[@]}" >&2
}

node_interface() {
  local nic
  nic="$(ip -o -4 addr show | awk -v ip="$NODE_IP" '{ split($4, a, "/"); if (a[1] == ip) { print $2; exit } }')"
  [[ -n "$nic" ]] || die "no interface holds $NODE_IP"
  echo "$nic"
}

main() {
  read_params NODE_IP HAPROXY_CFG_B64 KEEPALIVED_CONF_B64 HAPROXY_PACKAGE_VERSION KEEPALIVED_PACKAGE_VERSION
  require NODE_IP HAPROXY_CFG_B64 KEEPALIVED_CONF_B64
  install_packages
  local haproxy keepalived candidate reloaded=no restarted=no
  haproxy="$(b64 "$HAPROXY_CFG_B64")"
  keepalived="$(b64 "$KEEPALIVED_CONF_B64")"
  keepalived="${keepalived//@NODE_NIC@/$(node_interface)}"
  temp_file candidate "$haproxy"$'\n'
  haproxy -c -q -f "$candidate" >&2 || die "the HAProxy configuration does not pass haproxy -c"
  if write_if_changed "$ROOT/etc/haproxy/haproxy.cfg" 644 "$haproxy"$'\n'; then
    systemctl enable haproxy >&2
    # reload keeps established API connections; restart only when it is not running yet.
    if systemctl is-active --quiet haproxy; then systemctl reload haproxy; else systemctl restart haproxy; fi
    reloaded=yes
  fi
  if write_if_changed "$ROOT/etc/keepalived/keepalived.conf" 644 "$keepalived"$'\n'; then
    systemctl enable keepalived >&2
    systemctl restart keepalived
    restarted=yes
  fi
  echo "lb_backends=$(grep -c '^    server ' <<<"$haproxy" || true)"
  echo "haproxy_reloaded=$reloaded"
  echo "keepalived_restarted=$restarted"
}

if [[ "${BASH_SOURCE[0]}" == "$0" ]]; then
  main "$@"
fi
