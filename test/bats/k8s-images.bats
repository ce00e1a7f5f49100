#!/usr/bin/env bats
# lab/nodes/k8s-images and lab/nodes/push-images for real: the control-plane images kubeadm pulls
# (and podnet, the lab's pod network) built from source as OCI archives under kubeadm's names;
# pushed with a password on stdin to a throwaway Docker registry (Debian's docker-registry, htpasswd)
# on loopback, where kubeadm's `--image-repository` names resolve; then in a lab node
# (lab/nodes/node) containerd pulls each from a registry on the nodes' bridge (10.253.0.1) and runs
# it. A cluster made of them (kubeadm init and join with `imageRepository` on the registry VNF, podnet)
# is test/integration/k8s-real-cluster-on-openstack-lab.test.ts.
# Needs root, the hybrid cgroup layout, lab/k8s/build.sh's binaries and the ones k8s-images builds
# (etcd and CoreDNS at kubeadm's tags); skips with the reason otherwise. Builds the images when they
# are not cached (seconds; the Debian root of kube-proxy and podnet once, about 30 s). Measures on fd 3.

bats_require_minimum_version 1.5.0

LAB="$BATS_TEST_DIRNAME/../../lab"
NODES="$LAB/nodes"
NODE="$NODES/node"
NAME="img-bats-$PPID"
STATE="${NFV_LAB_STATE:-/var/lib/pulumi-nfv-lab}/nodes"

skip_reason() {
  local cache="${NFV_CACHE:-$HOME/.cache/pulumi-nfv}/k8s" v b list et ct
  [[ $EUID -eq 0 ]] || { echo "needs root (the images' file owners and capabilities, a node)"; return; }
  [[ -d /sys/fs/cgroup/unified ]] || { echo "lab/nodes supports the hybrid cgroup layout (v1 + /sys/fs/cgroup/unified) only"; return; }
  v="$(sed -n 's/^K8S_VERSION=\([^ ]*\).*/\1/p' "$LAB/k8s/build.sh")"
  for b in kubeadm kube-apiserver kube-controller-manager kube-scheduler kube-proxy kubectl kubelet; do
    [[ -x "$cache/$b-$v/bin/$b" ]] || { echo "no $cache/$b-$v/bin/$b: run lab/k8s/build.sh kubernetes"; return; }
  done
  list="$("$cache/kubeadm-$v/bin/kubeadm" config images list --kubernetes-version "$v")"
  et="$(sed -n 's|.*/etcd:\(.*\)-[0-9]*$|v\1|p' <<<"$list")"
  ct="$(sed -n 's|.*/coredns:\(.*\)$|\1|p' <<<"$list")"
  for b in "etcd-$et/bin/etcd" "etcdctl-$et/bin/etcdctl" "coredns-$ct/bin/coredns"; do
    [[ -x "$cache/$b" ]] || { echo "no $cache/$b: run lab/nodes/k8s-images (builds etcd and CoreDNS at kubeadm's tags; 3-4 min)"; return; }
  done
  command -v go >/dev/null || [[ -x /usr/local/go/bin/go ]] || { echo "no go (the pause source comes from the Go module cache)"; return; }
}

elapsed() { awk -v a="$1" -v b="$(date +%s.%N)" 'BEGIN{printf "%.1f", b-a}'; }

# free_port: a TCP port below the kernel's ephemeral range (so no outgoing connection of the
# phases beside this one takes it between the check and the bind) that no socket of any state holds.
free_port() {
  local low p
  read -r low _ </proc/sys/net/ipv4/ip_local_port_range
  for p in $(shuf -i 20000-$((low - 1)) -n 50); do
    [[ -z "$(ss -Htan "sport = :$p")" ]] && { echo "$p"; return 0; }
  done
  return 1
}

# start_registry DIR ADDR [HTPASSWD]: Debian's docker-registry on ADDR and a free port, storage in
# DIR; the port in DIR/port. Another port when the bind still loses a race.
start_registry() {
  local dir="$1" addr="$2" port try i code=""
  mkdir -p "$dir/data"
  for ((try = 0; try < 3; try++)); do
    port="$(free_port)"
    {
      printf 'version: 0.1\nlog:\n  level: warn\nstorage:\n  filesystem:\n    rootdirectory: %s\n' "$dir/data"
      printf 'http:\n  addr: %s:%s\n' "$addr" "$port"
      [[ -z "${3:-}" ]] || printf 'auth:\n  htpasswd:\n    realm: nfv-lab\n    path: %s\n' "$3"
    } >"$dir/config.yml"
    setsid /usr/bin/docker-registry serve "$dir/config.yml" >"$dir/log" 2>&1 </dev/null &
    echo "$!" >"$dir/pid"
    for ((i = 0; i < 100; i++)); do
      code="$(curl -s -o /dev/null -w '%{http_code}' "http://$addr:$port/v2/" || true)"
      [[ "$code" == 200 || "$code" == 401 ]] && { echo "$port" >"$dir/port"; return 0; }
      kill -0 "$(cat "$dir/pid")" 2>/dev/null || break
      sleep 0.1
    done
    grep -q 'address already in use' "$dir/log" || break
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
  mkdir -p "$REG"
  printf 'lab-pw-%s\n' "$RANDOM$RANDOM" >"$REG/password"
  htpasswd -Bin lab <"$REG/password" >"$REG/htpasswd" 2>/dev/null
  start_registry "$REG" 127.0.0.1 "$REG/htpasswd"
  REG_PORT="$(cat "$REG/port")"
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
# Runs CMD in a container of the pushed image IMG in the node and matches its output (both
# streams) against GLOB. containerd can lose the output of a task that exits at once (its FIFOs
# attached late, under load): an empty output with exit 0 is run again, at most twice, and said.
runs_in_image() {
  local img="$1" glob="$2" out rc attempt
  shift 2
  for attempt in 1 2 3; do
    rc=0
    out="$(in_node ctr -n k8s.io run --rm "$(awk -v s="/$img:" 'index($2, s) {print $2}' "$BATS_FILE_TMPDIR/pushed2")" "t-$img-$RANDOM" "$@" 2>&1)" || rc=$?
    if [ "$rc" -ne 0 ] || [ -n "$out" ]; then break; fi
    echo "# $img $*: no output (exit 0), run again" >&3
  done
  # shellcheck disable=SC2053 # GLOB is a pattern
  [[ "$rc" -eq 0 && "$out" == $glob ]] || { echo "$img $* (exit $rc, attempt $attempt): $out"; false; }
}
archive() { awk -v r="$1" '$1 == r {print $2}' "$BATS_FILE_TMPDIR/images"; }
# registry_auth FILE: skopeo's auth file for user lab on the loopback registry (mode 600).
registry_auth() {
  (umask 077; printf '{"auths":{"127.0.0.1:%s":{"auth":"%s"}}}\n' "$REG_PORT" "$(printf 'lab:%s' "$(cat "$REG/password")" | base64 -w0)" >"$1")
}
# digest [SKOPEO OPTION...] REF: the manifest digest skopeo inspects at REF.
digest() { skopeo inspect "$@" | python3 -c 'import json, sys; print(json.load(sys.stdin)["Digest"])'; }
podnet_ref() { awk '$1 ~ /\/podnet:/ {print $1}' "$BATS_FILE_TMPDIR/images"; }

@test "k8s-images: one OCI archive per image kubeadm pulls, named as kubeadm names them, podnet and nginx" {
  local t0
  run "$KUBEADM" config images list --kubernetes-version "$K8S_VERSION"
  [ "$status" -eq 0 ]
  [ "${#lines[@]}" -eq 7 ]
  diff <(printf '%s\n' "${lines[@]}") <(awk '$1 !~ /\/(podnet|nginx):/ {print $1}' "$BATS_FILE_TMPDIR/images")
  [[ "$(podnet_ref)" == localhost/nfv-lab/podnet:v* ]]
  grep -q '^localhost/nfv-lab/nginx:v1-' "$BATS_FILE_TMPDIR/images"
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
  local t0 auth ref dest want pushed_digest archive_digest
  run ! "$NODES/push-images" "127.0.0.1:$REG_PORT" --insecure # the registry wants a password
  t0=$(date +%s.%N)
  run "$NODES/push-images" "127.0.0.1:$REG_PORT" --user lab --password-stdin --insecure <"$REG/password"
  [ "$status" -eq 0 ] || { echo "$output"; false; }
  echo "# push-images: $(elapsed "$t0") s to 127.0.0.1:$REG_PORT" >&3
  printf '%s\n' "${lines[@]}" | grep -v '\[lab/nodes\]' >"$BATS_FILE_TMPDIR/pushed"
  [ "$(wc -l <"$BATS_FILE_TMPDIR/pushed")" -eq 9 ]
  # kubeadm with imageRepository 127.0.0.1:PORT (coredns without its coredns/ level) pulls these.
  run "$KUBEADM" config images list --kubernetes-version "$K8S_VERSION" --image-repository "127.0.0.1:$REG_PORT"
  [ "$status" -eq 0 ]
  [[ "$output" == *"127.0.0.1:$REG_PORT/coredns:v"* ]]
  auth="$BATS_TEST_TMPDIR/auth.json"
  registry_auth "$auth"
  for want in "${lines[@]}" "127.0.0.1:$REG_PORT/podnet:$(podnet_ref | sed 's/.*://')"; do
    read -r ref dest < <(awk -v d="$want" '$2 == d' "$BATS_FILE_TMPDIR/pushed")
    [ "$dest" = "$want" ] || { echo "kubeadm's $want was not pushed"; false; }
    # The registry holds the archive's own manifest (assignments: a failed inspect fails the test).
    pushed_digest="$(digest --tls-verify=false --authfile "$auth" "docker://$dest")"
    archive_digest="$(digest "oci-archive:$(archive "$ref")")"
    [ "$pushed_digest" = "$archive_digest" ]
  done
}

@test "push-images --images: another builder's lines (lab/openstack-helm/images'), each as REPO/<last element>:<tag>; a builder that is no program refused" {
  local builder="$BATS_TEST_TMPDIR/builder" auth pushed want pushed_digest archive_digest
  run ! "$NODES/push-images" "127.0.0.1:$REG_PORT/nfv-lab" --insecure --images "$BATS_TEST_TMPDIR/none"
  [[ "$output" == *"--images $BATS_TEST_TMPDIR/none: not an executable"* ]]
  # A builder as lab/openstack-helm/images is one: "<name:tag> <archive>" lines, --list taken.
  printf '#!/bin/sh\necho "localhost/nfv-lab/osh-pause:zed-bookworm %s"\n' "$(archive registry.k8s.io/pause:3.10.1)" >"$builder"
  chmod +x "$builder"
  run "$NODES/push-images" "127.0.0.1:$REG_PORT/nfv-lab" --user lab --password-stdin --insecure --images "$builder" <"$REG/password"
  [ "$status" -eq 0 ] || { echo "$output"; false; }
  want="127.0.0.1:$REG_PORT/nfv-lab/osh-pause:zed-bookworm"
  pushed="$(printf '%s\n' "${lines[@]}" | grep -v '\[lab/nodes\]')"
  [ "$pushed" = "localhost/nfv-lab/osh-pause:zed-bookworm $want" ] || { echo "$pushed"; false; }
  auth="$BATS_TEST_TMPDIR/auth.json"
  registry_auth "$auth"
  pushed_digest="$(digest --tls-verify=false --authfile "$auth" "docker://$want")"
  archive_digest="$(digest "oci-archive:$(archive registry.k8s.io/pause:3.10.1)")"
  [ "$pushed_digest" = "$archive_digest" ]
}

@test "in a node: containerd pulls every image from a registry on nfvnode0 and each one runs" {
  local t0 port ref dest out
  run "$NODE" up "$NAME"
  [ "$status" -eq 0 ] || { echo "$output"; false; }
  start_registry "$BATS_FILE_TMPDIR/reg2" 10.253.0.1
  port="$(cat "$BATS_FILE_TMPDIR/reg2/port")"
  "$NODES/push-images" "10.253.0.1:$port" --insecure >"$BATS_FILE_TMPDIR/pushed2"
  t0=$(date +%s.%N)
  while read -r ref dest; do
    in_node ctr -n k8s.io images pull --plain-http "$dest" >/dev/null
  done <"$BATS_FILE_TMPDIR/pushed2"
  echo "# node pulled 9 images from 10.253.0.1:$port in $(elapsed "$t0") s" >&3
  t0=$(date +%s.%N)
  for out in kube-apiserver kube-controller-manager kube-scheduler kube-proxy; do
    runs_in_image "$out" "Kubernetes $K8S_VERSION" "$out" --version
  done
  runs_in_image etcd "etcd Version: 3.*" etcd --version
  runs_in_image etcd "etcdctl version: 3.*" etcdctl version
  runs_in_image coredns "CoreDNS-1.*" /coredns -version
  runs_in_image pause "pause.c v3.10.1*" /pause -v
  runs_in_image podnet "podnet: the lab's pod network daemon*" podnet --help
  runs_in_image podnet "*Client Version: $K8S_VERSION*" kubectl version --client
  runs_in_image nginx "nginx version: nginx/1.*" nginx -v
  echo "# 11 ctr run --rm in $(elapsed "$t0") s" >&3
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

@test "node down leaves no state" {
  run "$NODE" down "$NAME"
  [ "$status" -eq 0 ]
  [ ! -e "$STATE/$NAME" ]
}
