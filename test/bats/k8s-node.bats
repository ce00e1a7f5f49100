#!/usr/bin/env bats
# mgmt/k8s node scripts with PATH stubs: prepare-node.sh, configure-registries.sh, configure-lb.sh.
# Proves the steps, their idempotence, pinned versions and where secrets go; not a real apt,
# containerd or HAProxy (vitest checks the generated configurations with the real haproxy/keepalived).
load k8s-helpers

setup() { k8s_setup; }

PREPARE=(NODE_NAME=k8s-workernode-0 KUBERNETES_PACKAGE_VERSION=1.30.14-1.1 CONTAINERD_PACKAGE_VERSION=1.7.24-1)

@test "prepare-node: hostname, hosts block, no swap, kernel settings, pinned packages held, services" {
  mkdir -p "$NFV_ROOT/etc"
  printf '127.0.0.1 localhost\n' >"$NFV_ROOT/etc/hosts"
  printf 'UUID=1 / ext4 defaults 0 1\n/swap.img none swap sw 0 0\n' >"$NFV_ROOT/etc/fstab"
  run run_script prepare-node.sh "${PREPARE[@]}" HOSTS_B64="$(b64 $'10.10.0.11 k8s-masternode-0\n10.10.0.21 k8s-workernode-0')"
  [ "$status" -eq 0 ]
  [ "${lines[0]}" = "node_name=k8s-workernode-0" ]
  grep -qx "hostnamectl set-hostname k8s-workernode-0" "$STUB_LOG"
  [ "$(cat "$NFV_ROOT/etc/hosts")" = $'127.0.0.1 localhost\n# BEGIN nfv-k8s\n10.10.0.11 k8s-masternode-0\n10.10.0.21 k8s-workernode-0\n# END nfv-k8s' ]
  grep -qx "# nfv-k8s: /swap.img none swap sw 0 0" "$NFV_ROOT/etc/fstab"
  grep -qx "swapoff -a" "$STUB_LOG"
  grep -qx "modprobe br_netfilter" "$STUB_LOG"
  grep -qx "net.ipv4.ip_forward = 1" "$NFV_ROOT/etc/sysctl.d/90-nfv-k8s.conf"
  grep -qx "apt-get install -y -q --no-install-recommends --allow-downgrades --allow-change-held-packages containerd=1.7.24-1 kubelet=1.30.14-1.1 kubeadm=1.30.14-1.1 kubectl=1.30.14-1.1" "$STUB_LOG"
  grep -qx "apt-mark hold kubelet kubeadm kubectl" "$STUB_LOG"
  grep -qx "systemctl enable --now containerd" "$STUB_LOG"
}

@test "prepare-node: refuses a host whose cloud-init instance id is another server's; runs without cloud-init or with the right id" {
  mkdir -p "$NFV_ROOT/var/lib/cloud/data"
  echo "old-server-id" >"$NFV_ROOT/var/lib/cloud/data/instance-id"
  run run_script prepare-node.sh "${PREPARE[@]}" INSTANCE_ID=new-server-id
  [ "$status" -ne 0 ]
  [[ "$output" == *"this host is server old-server-id, not new-server-id"* ]]
  [ ! -s "$STUB_LOG" ]
  echo "new-server-id" >"$NFV_ROOT/var/lib/cloud/data/instance-id"
  run run_script prepare-node.sh "${PREPARE[@]}" INSTANCE_ID=new-server-id
  [ "$status" -eq 0 ]
  rm "$NFV_ROOT/var/lib/cloud/data/instance-id"
  run run_script prepare-node.sh "${PREPARE[@]}" INSTANCE_ID=new-server-id
  [ "$status" -eq 0 ]
}

@test "prepare-node: a second run changes nothing; a new version pin reinstalls" {
  run_script prepare-node.sh "${PREPARE[@]}"
  : >"$STUB_LOG"
  run run_script prepare-node.sh "${PREPARE[@]}"
  [ "$status" -eq 0 ]
  ! grep -qE "^(apt-get|hostnamectl|modprobe|sysctl)" "$STUB_LOG"
  run run_script prepare-node.sh NODE_NAME=k8s-workernode-0 KUBERNETES_PACKAGE_VERSION=1.30.15-1.1 CONTAINERD_PACKAGE_VERSION=1.7.24-1
  [ "$status" -eq 0 ]
  grep -q "^apt-get install .* kubeadm=1.30.15-1.1 " "$STUB_LOG"
}

# What components/host-files writes for a proxy whose password holds `%` and `$(id)` (the vitest
# of the generator asserts the same text): apt.conf as it is, the drop-in with `%` doubled.
PROXY_URL='http://u:p%25$(id)@proxy:3128'
APT_CONF='Acquire::http::Proxy "http://u:p%25$(id)@proxy:3128";
Acquire::https::Proxy "http://u:p%25$(id)@proxy:3128";
'
DROPIN='[Service]
Environment="HTTP_PROXY=http://u:p%%25$(id)@proxy:3128" "http_proxy=http://u:p%%25$(id)@proxy:3128"
Environment="HTTPS_PROXY=http://u:p%%25$(id)@proxy:3128" "https_proxy=http://u:p%%25$(id)@proxy:3128"
Environment="NO_PROXY=localhost,10.10.0.0/24" "no_proxy=localhost,10.10.0.0/24"
'

@test "prepare-node: the proxy files written byte for byte as sent (apt, containerd, kubelet), nothing in them evaluated; never on a command line" {
  run run_script prepare-node.sh "${PREPARE[@]}" APT_PROXY_CONF_B64="$(b64 "$APT_CONF")" PROXY_DROPIN_B64="$(b64 "$DROPIN")"
  [ "$status" -eq 0 ]
  cmp "$NFV_ROOT/etc/apt/apt.conf.d/95nfv-k8s-proxy" <(printf '%s' "$APT_CONF")
  cmp "$NFV_ROOT/etc/systemd/system/kubelet.service.d/nfv-proxy.conf" <(printf '%s' "$DROPIN")
  cmp "$NFV_ROOT/etc/systemd/system/containerd.service.d/nfv-proxy.conf" <(printf '%s' "$DROPIN")
  [ "$(stat -c %a "$NFV_ROOT/etc/systemd/system/containerd.service.d/nfv-proxy.conf")" = 600 ]
  [ "$(stat -c %a "$NFV_ROOT/etc/apt/apt.conf.d/95nfv-k8s-proxy")" = 600 ]
  grep -qx "systemctl daemon-reload" "$STUB_LOG"
  ! grep -rq "uid=" "$NFV_ROOT/etc"
  ! grep -qF "$PROXY_URL" "$STUB_LOG"
  # Unchanged files: no reload. Without a proxy the files go.
  : >"$STUB_LOG"
  run_script prepare-node.sh "${PREPARE[@]}" APT_PROXY_CONF_B64="$(b64 "$APT_CONF")" PROXY_DROPIN_B64="$(b64 "$DROPIN")"
  ! grep -q "daemon-reload" "$STUB_LOG"
  run_script prepare-node.sh "${PREPARE[@]}"
  [ ! -e "$NFV_ROOT/etc/apt/apt.conf.d/95nfv-k8s-proxy" ] && [ ! -e "$NFV_ROOT/etc/systemd/system/kubelet.service.d/nfv-proxy.conf" ]
}

@test "prepare-node: raw proxy values are no parameter any more (the script puts no value into apt or systemd syntax); apt.conf without the drop-in is refused" {
  run run_script prepare-node.sh "${PREPARE[@]}" 'HTTP_PROXY=http://p:3128"; APT::Update::Pre-Invoke {"id > F";}; Dummy "'
  [ "$status" -ne 0 ]; [[ "$output" == *"unknown parameter HTTP_PROXY"* ]]
  [ ! -e "$NFV_ROOT/etc/apt/apt.conf.d/95nfv-k8s-proxy" ]
  run run_script prepare-node.sh "${PREPARE[@]}" APT_PROXY_CONF_B64="$(b64 "$APT_CONF")"
  [ "$status" -ne 0 ]; [[ "$output" == *"APT_PROXY_CONF_B64 needs PROXY_DROPIN_B64"* ]]
}

@test "prepare-node: versions are required, unknown parameters and bad names refused" {
  run run_script prepare-node.sh NODE_NAME=n KUBERNETES_PACKAGE_VERSION=1.30.14-1.1
  [ "$status" -ne 0 ]; [[ "$output" == *"parameter CONTAINERD_PACKAGE_VERSION is required"* ]]
  run run_script prepare-node.sh "${PREPARE[@]}" COLOUR=blue
  [ "$status" -ne 0 ]; [[ "$output" == *"unknown parameter COLOUR"* ]]
  run run_script prepare-node.sh NODE_NAME=Bad_Name KUBERNETES_PACKAGE_VERSION=1 CONTAINERD_PACKAGE_VERSION=1
  [ "$status" -ne 0 ]; [[ "$output" == *"not a DNS label"* ]]
  ! grep -q "^apt-get" "$STUB_LOG"
}

REG_HTTP="192.168.246.10:5000|$(printf 'server = "http://192.168.246.10:5000"\n' | base64 -w0)|"
REG_HTTPS="registry.example:5443|$(printf 'server = "https://registry.example:5443"\n' | base64 -w0)|$(printf 'CA PEM' | base64 -w0)"

@test "configure-registries: config.toml, one hosts.toml per registry, the CA, credentials 600; containerd restarted once" {
  run run_script configure-registries.sh CONTAINERD_CONFIG_B64="$(b64 'version = 2')" "REGISTRY=$REG_HTTP" "REGISTRY=$REG_HTTPS" REGISTRY_AUTH_B64="$(b64 '{"auths":{}}')"
  [ "$status" -eq 0 ]
  [ "${lines[0]}" = "registries=2" ]
  [ "${lines[1]}" = "containerd_restarted=yes" ]
  [ "$(cat "$NFV_ROOT/etc/containerd/certs.d/192.168.246.10:5000/hosts.toml")" = 'server = "http://192.168.246.10:5000"' ]
  [ ! -e "$NFV_ROOT/etc/containerd/certs.d/192.168.246.10:5000/ca.crt" ]
  [ "$(cat "$NFV_ROOT/etc/containerd/certs.d/registry.example:5443/ca.crt")" = "CA PEM" ]
  [ "$(stat -c %a "$NFV_ROOT/var/lib/kubelet/config.json")" = 600 ]
  [ "$(grep -c '^systemctl restart containerd$' "$STUB_LOG")" -eq 1 ]
  : >"$STUB_LOG"
  run run_script configure-registries.sh CONTAINERD_CONFIG_B64="$(b64 'version = 2')" "REGISTRY=$REG_HTTP" "REGISTRY=$REG_HTTPS" REGISTRY_AUTH_B64="$(b64 '{"auths":{}}')"
  [ "${lines[1]}" = "containerd_restarted=no" ]
  ! grep -q "^systemctl restart" "$STUB_LOG"
}

@test "configure-registries: a registry no longer listed is removed; images imported once" {
  run_script configure-registries.sh CONTAINERD_CONFIG_B64="$(b64 'version = 2')" "REGISTRY=$REG_HTTP" "REGISTRY=$REG_HTTPS"
  printf 'images' >"$BATS_TEST_TMPDIR/k8s-images.tar"
  : >"$STUB_LOG"
  run run_script configure-registries.sh CONTAINERD_CONFIG_B64="$(b64 'version = 2')" "REGISTRY=$REG_HTTP" "IMAGE_TARBALL=$BATS_TEST_TMPDIR/k8s-images.tar"
  [ "$status" -eq 0 ]
  [ ! -e "$NFV_ROOT/etc/containerd/certs.d/registry.example:5443" ]
  grep -qx "systemctl restart containerd" "$STUB_LOG"
  grep -qx "ctr --namespace k8s.io images import $BATS_TEST_TMPDIR/k8s-images.tar" "$STUB_LOG"
  : >"$STUB_LOG"
  run_script configure-registries.sh CONTAINERD_CONFIG_B64="$(b64 'version = 2')" "REGISTRY=$REG_HTTP" "IMAGE_TARBALL=$BATS_TEST_TMPDIR/k8s-images.tar"
  ! grep -q "^ctr" "$STUB_LOG"
}

HAPROXY_CFG=$'frontend kube-apiserver\n    bind *:16443\nbackend kube-apiserver\n    server k8s-masternode-0 10.10.0.11:6443 check\n    server k8s-masternode-1 10.10.0.12:6443 check'
KEEPALIVED_CONF=$'vrrp_instance k8s_api {\n    interface @NODE_NIC@\n}'

@test "configure-lb: haproxy and keepalived installed, configs written (the NIC found from the node IP), services restarted" {
  touch "$STUB_STATE/inactive"
  run run_script configure-lb.sh NODE_IP=10.10.0.11 HAPROXY_CFG_B64="$(b64 "$HAPROXY_CFG")" KEEPALIVED_CONF_B64="$(b64 "$KEEPALIVED_CONF")" HAPROXY_PACKAGE_VERSION=2.6.12-1
  [ "$status" -eq 0 ]
  [ "${lines[0]}" = "lb_backends=2" ]
  grep -qx "apt-get install -y -q --no-install-recommends haproxy=2.6.12-1 keepalived" "$STUB_LOG"
  grep -qx "    interface eth0" "$NFV_ROOT/etc/keepalived/keepalived.conf"
  grep -qx "    server k8s-masternode-1 10.10.0.12:6443 check" "$NFV_ROOT/etc/haproxy/haproxy.cfg"
  grep -qx "systemctl restart haproxy" "$STUB_LOG"
  grep -qx "systemctl restart keepalived" "$STUB_LOG"
  [ -z "$(ls -A "$TMPDIR")" ]
}

@test "configure-lb: a running HAProxy is reloaded, not restarted; unchanged configs touch nothing; an invalid one is refused" {
  run_script configure-lb.sh NODE_IP=10.10.0.11 HAPROXY_CFG_B64="$(b64 "$HAPROXY_CFG")" KEEPALIVED_CONF_B64="$(b64 "$KEEPALIVED_CONF")"
  : >"$STUB_LOG"
  run run_script configure-lb.sh NODE_IP=10.10.0.11 HAPROXY_CFG_B64="$(b64 "$HAPROXY_CFG")" KEEPALIVED_CONF_B64="$(b64 "$KEEPALIVED_CONF")"
  [ "${lines[1]}" = "haproxy_reloaded=no" ]
  ! grep -qE "^systemctl (reload|restart)" "$STUB_LOG"
  run run_script configure-lb.sh NODE_IP=10.10.0.11 HAPROXY_CFG_B64="$(b64 "${HAPROXY_CFG%$'\n'*}")" KEEPALIVED_CONF_B64="$(b64 "$KEEPALIVED_CONF")"
  [ "${lines[0]}" = "lb_backends=1" ]
  grep -qx "systemctl reload haproxy" "$STUB_LOG"
  run run_script configure-lb.sh NODE_IP=10.10.0.11 HAPROXY_CFG_B64="$(b64 "INVALID")" KEEPALIVED_CONF_B64="$(b64 "$KEEPALIVED_CONF")"
  [ "$status" -ne 0 ]
  [[ "$output" == *"does not pass haproxy -c"* ]]
  grep -q "k8s-masternode-0" "$NFV_ROOT/etc/haproxy/haproxy.cfg"
}

@test "configure-lb: a node IP no interface holds is an error" {
  run run_script configure-lb.sh NODE_IP=10.99.0.1 HAPROXY_CFG_B64="$(b64 "$HAPROXY_CFG")" KEEPALIVED_CONF_B64="$(b64 "$KEEPALIVED_CONF")"
  [ "$status" -ne 0 ]
  [[ "$output" == *"no interface holds 10.99.0.1"* ]]
}

@test "prepare-node: a package name or version outside Debian's grammar is refused before anything changes (never an apt option)" {
  run run_script prepare-node.sh "${PREPARE[@]}" "CONTAINERD_PACKAGE=-oDPkg::Pre-Invoke::=id"
  [ "$status" -ne 0 ]; [[ "$output" == *"is not a Debian package name"* ]]
  run run_script prepare-node.sh NODE_NAME=k8s-workernode-0 KUBERNETES_PACKAGE_VERSION="1.30 -oAPT::X=1" CONTAINERD_PACKAGE_VERSION=1.7.24-1
  [ "$status" -ne 0 ]; [[ "$output" == *"the version of kubelet is not a Debian package version"* ]]
  run run_script prepare-node.sh "${PREPARE[@]}" "EXTRA_PACKAGES=etcd-client=-1"
  [ "$status" -ne 0 ]; [[ "$output" == *"the version of etcd-client is not a Debian package version"* ]]
  [ ! -s "$STUB_LOG" ]
  run run_script prepare-node.sh "${PREPARE[@]}" CONTAINERD_PACKAGE=containerd.io "EXTRA_PACKAGES=etcd-client=1:3.4.30-1+deb12u1~bpo"
  [ "$status" -eq 0 ]
}
