#!/usr/bin/env bats
# lab/nodes/k8s-images and lab/nodes/push-images for real: the control-plane images kubeadm pulls
# (and podnet, the lab's pod network) built from source as OCI archives under kubeadm's names;
# pushed with a password on stdin to a throwaway Docker registry (Debian's docker-registry, htpasswd)
# on loopback, where kubeadm's `--image-repository` names resolve; then in a lab node
# (lab/nodes/node) containerd pulls each from a registry on the nodes' bridge (10.253.0.1) and runs
# it; and kubeadm init with `imageRepository` on that registry brings up a control plane whose
# kube-system pods (CoreDNS on podnet) all run.
# Needs root, the hybrid cgroup layout, lab/k8s/build.sh's binaries and the ones k8s-images builds
# (etcd and CoreDNS at kubeadm's tags); skips with the reason otherwise. Builds the images when they
# are not cached (seconds; the Debian root of kube-proxy and podnet once, about 30 s). Measures on fd 3.

bats_require_minimum_version 1.5.0

LAB="$BATS_TEST_DIRNAME/../../lab"
NODES="$LAB/nodes"
NODE="$NODES/node"
NAME="img-bats-$PPID"
STATE="${NFV_LAB_STATE:-/var/lib/pulumi-nfv-lab}/nodes"
POD_SUBNET=10.244.0.0/16

skip_reason() {
  local cache="${NFV_CACHE:-$HOME/.cache/pulumi-nfv}/k8s" v e b list et ct
  [[ $EUID -eq 0 ]] || { echo "needs root (the images' file owners and capabilities, a node)"; return; }
  [[ -d /sys/fs/cgroup/unified ]] || { echo "lab/nodes supports the hybrid cgroup layout (v1 + /sys/fs/cgroup/unified) only"; return; }
  v="$(sed -n 's/^K8S_VERSION=\([^ ]*\).*/\1/p' "$LAB/k8s/build.sh")"
  e="$(sed -n 's/^ETCD_VERSION=\([^ ]*\).*/\1/p' "$LAB/k8s/build.sh")"
  for b in kubeadm kube-apiserver kube-controller-manager kube-scheduler kube-proxy kubectl kubelet; do
    [[ -x "$cache/$b-$v/bin/$b" ]] || { echo "no $cache/$b-$v/bin/$b: run lab/k8s/build.sh kubernetes"; return; }
  done
  [[ -x "$cache/etcdctl-$e/bin/etcdctl" ]] || { echo "no $cache/etcdctl-$e/bin/etcdctl (node image): run lab/k8s/build.sh etcdctl"; return; }
  list="$("$cache/kubeadm-$v/bin/kubeadm" config images list --kubernetes-version "$v")"
  et="$(sed -n 's|.*/etcd:\(.*\)-[0-9]*$|v\1|p' <<<"$list")"
  ct="$(sed -n 's|.*/coredns:\(.*\)$|\1|p' <<<"$list")"
  for b in "etcd-$et/bin/etcd" "etcdctl-$et/bin/etcdctl" "coredns-$ct/bin/coredns"; do
    [[ -x "$cache/$b" ]] || { echo "no $cache/$b: run lab/nodes/k8s-images (builds etcd and CoreDNS at kubeadm's tags; 3-4 min)"; return; }
  done
  command -v go >/dev/null || [[ -x /usr/local/go/bin/go ]] || { echo "no go (the pause source comes from the Go module cache)"; return; }
}

elapsed() { awk -v a="$1" -v b="$(date +%s.%N)" 'BEGIN{printf "%.1f", b-a}'; }

# free_port ADDR: a TCP port nothing listens on.
free_port() {
  local p
  for p in $(shuf -i 20000-60999 -n 50); do
    [[ -z "$(ss -Htln "sport = :$p")" ]] && { echo "$p"; return 0; }
  done
  return 1
}

# start_registry DIR ADDR PORT [HTPASSWD]: Debian's docker-registry on ADDR:PORT, storage in DIR.
start_registry() {
  local dir="$1" addr="$2" port="$3" i code=""
  mkdir -p "$dir/data"
  {
    printf 'version: 0.1\nlog:\n  level: warn\nstorage:\n  filesystem:\n    rootdirectory: %s\n' "$dir/data"
    printf 'http:\n  addr: %s:%s\n' "$addr" "$port"
    [[ -z "${4:-}" ]] || printf 'auth:\n  htpasswd:\n    realm: nfv-lab\n    path: %s\n' "$4"
  } >"$dir/config.yml"
  setsid /usr/bin/docker-registry serve "$dir/config.yml" >"$dir/log" 2>&1 </dev/null &
  echo "$!" >"$dir/pid"
  for ((i = 0; i < 100; i++)); do
    code="$(curl -s -o /dev/null -w '%{http_code}' "http://$addr:$port/v2/" || true)"
    [[ "$code" == 200 || "$code" == 401 ]] && return 0
    sleep 0.1
  done
  cat "$dir/log" >&2
  return 1
}

stop_registry() {
  local pid
  pid="$(cat "$1/pid" 2>/dev/null)" || return 0
  kill "$pid" 2>/dev/null || true
}

setup_file() {
  SKIP_WHY="$(skip_reason)"
  export SKIP_WHY
  if [[ -n "$SKIP_WHY" ]]; then return 0; fi
  log() { echo "# $*" >&3; } # for lab/lib/debian.sh
  # shellcheck source-path=SCRIPTDIR source=../../lab/lib/debian.sh
  . "$LAB/lib/debian.sh"
  install_debian_packages docker-registry apache2-utils skopeo umoci libcap2-bin curl
  local t0
  t0=$(date +%s.%N)
  "$NODES/k8s-images" >"$BATS_FILE_TMPDIR/images" 2>"$BATS_FILE_TMPDIR/images.log" ||
    { cat "$BATS_FILE_TMPDIR/images.log" >&3; return 1; }
  echo "# k8s-images: $(wc -l <"$BATS_FILE_TMPDIR/images") images in $(elapsed "$t0") s (built when not cached)" >&3
  K8S_VERSION="$(sed -n 's/^K8S_VERSION=\([^ ]*\).*/\1/p' "$LAB/k8s/build.sh")"
  KUBEADM="${NFV_CACHE:-$HOME/.cache/pulumi-nfv}/k8s/kubeadm-$K8S_VERSION/bin/kubeadm"
  REG="$BATS_FILE_TMPDIR/reg"
  REG_PORT="$(free_port)"
  mkdir -p "$REG"
  printf 'lab-pw-%s\n' "$RANDOM$RANDOM" >"$REG/password"
  htpasswd -Bin lab <"$REG/password" >"$REG/htpasswd" 2>/dev/null
  start_registry "$REG" 127.0.0.1 "$REG_PORT" "$REG/htpasswd"
  export NAME STATE K8S_VERSION KUBEADM REG REG_PORT
}

setup() {
  if [[ -n "$SKIP_WHY" ]]; then skip "$SKIP_WHY"; fi
}

teardown_file() {
  if [[ -n "$SKIP_WHY" ]]; then return 0; fi
  "$NODE" down "$NAME" >/dev/null 2>&1 || true
  stop_registry "$REG"
  stop_registry "$BATS_FILE_TMPDIR/reg2"
}

in_node() { "$NODE" exec "$NAME" "$@"; }
archive() { awk -v r="$1" '$1 == r {print $2}' "$BATS_FILE_TMPDIR/images"; }
podnet_ref() { awk '$1 ~ /\/podnet:/ {print $1}' "$BATS_FILE_TMPDIR/images"; }

@test "k8s-images: one OCI archive per image kubeadm pulls, named as kubeadm names them, and podnet" {
  local t0
  run "$KUBEADM" config images list --kubernetes-version "$K8S_VERSION"
  [ "$status" -eq 0 ]
  [ "${#lines[@]}" -eq 7 ]
  diff <(printf '%s\n' "${lines[@]}") <(awk '$1 !~ /\/podnet:/ {print $1}' "$BATS_FILE_TMPDIR/images")
  [[ "$(podnet_ref)" == localhost/nfv-lab/podnet:v* ]]
  while read -r ref path; do
    [ -s "$path" ]
    echo "# $ref: $(du -h "$path" | cut -f1)" >&3
  done <"$BATS_FILE_TMPDIR/images"
  t0=$(date +%s.%N)
  run "$NODES/k8s-images" --list
  [ "$status" -eq 0 ]
  echo "# k8s-images --list: $(elapsed "$t0") s" >&3
  diff <(printf '%s\n' "${lines[@]}") "$BATS_FILE_TMPDIR/images"
}

# config REF: the image's OCI config (.config) as JSON.
config() { skopeo inspect --config "oci-archive:$(archive "$1")" | python3 -c 'import json, sys; print(json.dumps(json.load(sys.stdin)["config"], sort_keys=True))'; }

@test "the images' entrypoints and users are upstream's" {
  local c
  c="$(config "registry.k8s.io/kube-apiserver:$K8S_VERSION")"
  [[ "$c" == *'"Entrypoint": ["/usr/local/bin/kube-apiserver"]'* && "$c" == *PATH=* ]]
  c="$(config "registry.k8s.io/kube-proxy:$K8S_VERSION")"
  [[ "$c" == *'"Entrypoint": ["/usr/local/bin/kube-proxy"]'* ]]
  c="$(config "$(grep -o 'registry.k8s.io/coredns/coredns:[^ ]*' "$BATS_FILE_TMPDIR/images")")"
  [[ "$c" == *'"Entrypoint": ["/coredns"]'* && "$c" == *'"User": "65532:65532"'* ]]
  c="$(config "$(grep -o 'registry.k8s.io/etcd:[^ ]*' "$BATS_FILE_TMPDIR/images")")"
  [[ "$c" != *Entrypoint* && "$c" == *'PATH=/usr/local/sbin:/usr/local/bin:'* ]] # kubeadm runs `etcd ...`
  c="$(config registry.k8s.io/pause:3.10.1)"
  [[ "$c" == *'"Entrypoint": ["/pause"]'* ]]
}

@test "push-images: to a registry with htpasswd on loopback, password on stdin; kubeadm's imageRepository names resolve to the same images" {
  local t0 auth ref dest digest want
  run ! "$NODES/push-images" "127.0.0.1:$REG_PORT" --insecure # the registry wants a password
  t0=$(date +%s.%N)
  run "$NODES/push-images" "127.0.0.1:$REG_PORT" --user lab --password-stdin --insecure <"$REG/password"
  [ "$status" -eq 0 ] || { echo "$output"; false; }
  echo "# push-images: $(elapsed "$t0") s to 127.0.0.1:$REG_PORT" >&3
  printf '%s\n' "${lines[@]}" | grep -v '\[lab/nodes\]' >"$BATS_FILE_TMPDIR/pushed"
  [ "$(wc -l <"$BATS_FILE_TMPDIR/pushed")" -eq 8 ]
  # kubeadm with imageRepository 127.0.0.1:PORT (coredns without its coredns/ level) pulls these.
  run "$KUBEADM" config images list --kubernetes-version "$K8S_VERSION" --image-repository "127.0.0.1:$REG_PORT"
  [ "$status" -eq 0 ]
  [[ "$output" == *"127.0.0.1:$REG_PORT/coredns:v"* ]]
  auth="$BATS_TEST_TMPDIR/auth.json"
  (umask 077; printf '{"auths":{"127.0.0.1:%s":{"auth":"%s"}}}\n' "$REG_PORT" "$(printf 'lab:%s' "$(cat "$REG/password")" | base64 -w0)" >"$auth")
  for want in "${lines[@]}" "127.0.0.1:$REG_PORT/podnet:$(podnet_ref | sed 's/.*://')"; do
    read -r ref dest < <(awk -v d="$want" '$2 == d' "$BATS_FILE_TMPDIR/pushed")
    [ "$dest" = "$want" ] || { echo "kubeadm's $want was not pushed"; false; }
    digest="$(skopeo inspect --tls-verify=false --authfile "$auth" "docker://$dest" | python3 -c 'import json, sys; print(json.load(sys.stdin)["Digest"])')"
    # The registry holds the archive's own manifest.
    [ "$digest" = "$(skopeo inspect "oci-archive:$(archive "$ref")" | python3 -c 'import json, sys; print(json.load(sys.stdin)["Digest"])')" ]
  done
}

@test "in a node: containerd pulls every image from a registry on nfvnode0 and each one runs" {
  local t0 port ref dest out
  run "$NODE" up "$NAME"
  [ "$status" -eq 0 ] || { echo "$output"; false; }
  port="$(free_port)"
  start_registry "$BATS_FILE_TMPDIR/reg2" 10.253.0.1 "$port"
  "$NODES/push-images" "10.253.0.1:$port" --insecure >"$BATS_FILE_TMPDIR/pushed2"
  echo "10.253.0.1:$port" >"$BATS_FILE_TMPDIR/repo2"
  t0=$(date +%s.%N)
  while read -r ref dest; do
    in_node ctr -n k8s.io images pull --plain-http "$dest" >/dev/null
  done <"$BATS_FILE_TMPDIR/pushed2"
  echo "# node pulled 8 images from 10.253.0.1:$port in $(elapsed "$t0") s" >&3
  t0=$(date +%s.%N)
  r() { local img="$1"; shift; in_node ctr -n k8s.io run --rm "$(awk -v s="/$img:" 'index($2, s) {print $2}' "$BATS_FILE_TMPDIR/pushed2")" "t-$img-$RANDOM" "$@" 2>&1; }
  for out in kube-apiserver kube-controller-manager kube-scheduler kube-proxy; do
    [ "$(r "$out" "$out" --version)" = "Kubernetes $K8S_VERSION" ]
  done
  [[ "$(r etcd etcd --version)" == "etcd Version: 3."* ]]
  [[ "$(r etcd etcdctl version)" == "etcdctl version: 3."* ]]
  [[ "$(r coredns /coredns -version)" == CoreDNS-1.* ]]
  [[ "$(r pause /pause -v)" == "pause.c v3.10.1"* ]]
  [[ "$(r podnet podnet --help)" == "podnet: the lab's pod network daemon"* ]]
  [[ "$(r podnet kubectl version --client)" == *"Client Version: $K8S_VERSION"* ]]
  echo "# 10 ctr run --rm in $(elapsed "$t0") s" >&3
}

@test "coredns runs as 65532 and binds port 53 (cap_net_bind_service on /coredns, as upstream)" {
  local img pid i uid=""
  img="$(awk '/\/coredns:/ {print $2}' "$BATS_FILE_TMPDIR/pushed2")"
  in_node ctr -n k8s.io run -d --net-host "$img" t-dns /coredns -dns.port 53 >/dev/null
  for ((i = 0; i < 50; i++)); do
    pid="$(in_node ctr -n k8s.io tasks ls | awk '$1 == "t-dns" && $3 == "RUNNING" {print $2}')"
    [[ -n "$pid" ]] && in_node ss -Hlnu 'sport = :53' | grep -q . && break
    sleep 0.1
  done
  uid="$(in_node grep '^Uid:' "/proc/$pid/status" | awk '{print $2}')"
  in_node ss -Hlnu 'sport = :53' | grep -q .
  in_node ctr -n k8s.io tasks kill -s SIGKILL t-dns
  for ((i = 0; i < 50; i++)); do in_node ctr -n k8s.io tasks rm t-dns >/dev/null 2>&1 && break; sleep 0.1; done
  in_node ctr -n k8s.io containers rm t-dns
  [ "$uid" = 65532 ]
}

@test "the kube-proxy image's iptables takes the node's backend (nft; legacy when kubelet's hint chain is there)" {
  local img
  img="$(awk '/\/kube-proxy:/ {print $2}' "$BATS_FILE_TMPDIR/pushed2")"
  [[ "$(in_node iptables -V)" == *"(nf_tables)"* ]] # Debian bookworm's default, the node image's
  [[ "$(in_node ctr -n k8s.io run --rm --net-host --privileged "$img" t-ipt iptables -V)" == *"(nf_tables)"* ]]
  in_node iptables-legacy -t mangle -N KUBE-IPTABLES-HINT
  run in_node ctr -n k8s.io run --rm --net-host --privileged "$img" t-ipt ip6tables -V
  in_node iptables-legacy -t mangle -X KUBE-IPTABLES-HINT
  [[ "$output" == *"(legacy)"* ]]
}

@test "etcd from its image serves the node's etcdctl" {
  local img i
  img="$(awk '/\/etcd:/ {print $2}' "$BATS_FILE_TMPDIR/pushed2")"
  in_node ctr -n k8s.io run -d --net-host "$img" t-etcd etcd --data-dir /tmp/etcd \
    --listen-client-urls http://127.0.0.1:23790 --advertise-client-urls http://127.0.0.1:23790 \
    --listen-peer-urls http://127.0.0.1:23800 --initial-advertise-peer-urls http://127.0.0.1:23800 \
    --initial-cluster default=http://127.0.0.1:23800 >/dev/null
  for ((i = 0; i < 100; i++)); do
    in_node etcdctl --endpoints http://127.0.0.1:23790 endpoint health >/dev/null 2>&1 && break
    sleep 0.1
  done
  run in_node etcdctl --endpoints http://127.0.0.1:23790 put k v
  in_node ctr -n k8s.io tasks kill -s SIGKILL t-etcd
  for ((i = 0; i < 50; i++)); do in_node ctr -n k8s.io tasks rm t-etcd >/dev/null 2>&1 && break; sleep 0.1; done
  in_node ctr -n k8s.io containers rm t-etcd
  [ "$output" = OK ]
}

# kctl ARGS: kubectl in the node with the admin kubeconfig.
kctl() { in_node kubectl --kubeconfig /etc/kubernetes/admin.conf "$@"; }

@test "kubeadm init with imageRepository on the registry, podnet applied: every kube-system pod Running, a pod resolves Services" {
  local repo t0 i ready="" podnet d
  repo="$(cat "$BATS_FILE_TMPDIR/repo2")"
  # What the node needs beyond the image (configure-registries.sh's job on a real host): containerd
  # resolving the plain-HTTP registry and its sandbox image there; kubelet's pods a resolver other
  # than the node's 127.0.0.1 (CoreDNS' loop plugin stops on one); IP forwarding.
  in_node bash -c "set -e
    sed -i 's|sandbox_image = .*|sandbox_image = \"$repo/pause:3.10.1\"|' /etc/containerd/config.toml
    printf '  [plugins.\"io.containerd.grpc.v1.cri\".registry]\n    config_path = \"/etc/containerd/certs.d\"\n' >>/etc/containerd/config.toml
    mkdir -p /etc/containerd/certs.d/$repo
    printf 'server = \"http://$repo\"\n[host.\"http://$repo\"]\n  capabilities = [\"pull\", \"resolve\"]\n' >/etc/containerd/certs.d/$repo/hosts.toml
    systemctl restart containerd
    echo 1 >/proc/sys/net/ipv4/ip_forward
    echo 'nameserver 10.253.0.1' >/etc/kubernetes/resolv-upstream.conf
    cat >/etc/kubernetes/kubeadm.yaml <<EOF
apiVersion: kubeadm.k8s.io/v1beta4
kind: InitConfiguration
localAPIEndpoint: {advertiseAddress: $(cat "$STATE/$NAME/ip")}
nodeRegistration: {criSocket: unix:///run/containerd/containerd.sock, taints: []}
---
apiVersion: kubeadm.k8s.io/v1beta4
kind: ClusterConfiguration
kubernetesVersion: $K8S_VERSION
imageRepository: $repo
networking: {podSubnet: $POD_SUBNET}
---
apiVersion: kubelet.config.k8s.io/v1beta1
kind: KubeletConfiguration
cgroupDriver: systemd
failSwapOn: false
failCgroupV1: false
resolvConf: /etc/kubernetes/resolv-upstream.conf
---
apiVersion: kubeproxy.config.k8s.io/v1alpha1
kind: KubeProxyConfiguration
conntrack: {maxPerCore: 0, tcpEstablishedTimeout: 0s, tcpCloseWaitTimeout: 0s}
EOF"
  t0=$(date +%s.%N)
  # The errors a namespaced node cannot pass (swap is the machine's, no kernel config): ignored.
  run in_node kubeadm init --config /etc/kubernetes/kubeadm.yaml --ignore-preflight-errors=all
  [ "$status" -eq 0 ] || { echo "$output" | tail -30; false; }
  echo "# kubeadm init: $(elapsed "$t0") s; its warnings: $(grep -o 'WARNING [A-Za-z-]*' <<<"$output" | sort -u | tr '\n' ' ')" >&3
  podnet="$(awk '/\/podnet:/ {print $2}' "$BATS_FILE_TMPDIR/pushed2")"
  sed -e "s|@PODNET_IMAGE@|$podnet|" -e "s|@POD_SUBNET@|$POD_SUBNET|" "$NODES/podnet/podnet.yaml" | kctl apply -f - >/dev/null
  for ((i = 0; i < 180; i++)); do
    ready="$(kctl -n kube-system get pods --no-headers 2>/dev/null | awk '{split($2, r, "/"); if (r[1] == r[2] && $3 == "Running") n++} END {print n + 0 "/" NR}')"
    [[ "$ready" == 8/8 ]] && break
    sleep 1
  done
  echo "# kube-system pods ready: $ready $(elapsed "$t0") s after kubeadm init started" >&3
  [ "$ready" = 8/8 ] || {
    kctl get nodes -o wide
    kctl get pods -A -o wide
    kctl -n kube-system describe pods -l k8s-app=kube-dns | sed -n '/^Events:/,$p'
    kctl -n kube-system logs ds/podnet --tail=20
    false
  }
  # Every container's image came from the registry, under kubeadm's imageRepository.
  run kctl get pods -n kube-system -o jsonpath='{range .items[*]}{.spec.containers[0].image}{"\n"}{end}'
  [ "${#lines[@]}" -eq 8 ]
  for i in "${lines[@]}"; do [[ "$i" == "$repo/"* ]] || { echo "$i is not from $repo"; false; }; done
  [[ "$(in_node cat /etc/cni/net.d/10-podnet.conflist)" == *'"subnet": "10.244.0.0/24"'* ]]
  kctl run dns-test --image="$podnet" --restart=Never --command -- getent hosts kubernetes.default.svc.cluster.local >/dev/null
  for ((i = 0; i < 60; i++)); do
    [[ "$(kctl get pod dns-test -o jsonpath='{.status.phase}')" == Succeeded ]] && break
    sleep 1
  done
  [[ "$(kctl logs dns-test)" == "10.96.0.1"*"kubernetes.default.svc.cluster.local" ]]
  d="$(grep '/memory/' "$STATE/$NAME/cgroups")"
  echo "# control-plane node memory: rss $(($(awk '$1 == "total_rss" {print $2}' "$d/memory.stat") / 1048576)) MiB, page cache $(($(awk '$1 == "total_cache" {print $2}' "$d/memory.stat") / 1048576)) MiB" >&3
}

@test "node down leaves no state" {
  run "$NODE" down "$NAME"
  [ "$status" -eq 0 ]
  [ ! -e "$STATE/$NAME" ]
}
