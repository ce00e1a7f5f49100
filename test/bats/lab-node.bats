#!/usr/bin/env bats
# lab/nodes: one real node (lab/nodes/node) on the node image (lab/nodes/image): systemd as PID 1,
# containerd, kubelet v1.34 standalone running two static pods (host network, CNI bridge) of an image
# (pause) built here from the kubernetes module's source; then down leaves no process, mount, cgroup, veth, netns or file.
# Needs root, the hybrid cgroup layout and the binaries of lab/k8s/build.sh (kubelet, kubeadm,
# kubectl, etcdctl); skips with the reason otherwise. Makes the node image when it is not cached
# (debootstrap from the machine's Debian mirror, installed if missing; 37-67 s). Measures what it says on fd 3.

bats_require_minimum_version 1.5.0

LAB="$BATS_TEST_DIRNAME/../../lab"
NODE="$LAB/nodes/node"
NAME="bats-node-$PPID"
STATE="${NFV_LAB_STATE:-/var/lib/pulumi-nfv-lab}/nodes"
HOST_SYSCTLS=(fs.file-max fs.nr_open kernel.pid_max kernel.panic kernel.panic_on_oops vm.overcommit_memory
  vm.panic_on_oom kernel.keys.root_maxkeys kernel.keys.root_maxbytes kernel.printk net.ipv4.ip_forward)

skip_reason() {
  local b cache="${NFV_CACHE:-$HOME/.cache/pulumi-nfv}/k8s" v
  [[ $EUID -eq 0 ]] || { echo "needs root (namespaces, cgroups, mounts)"; return; }
  [[ -d /sys/fs/cgroup/unified ]] || { echo "lab/nodes supports the hybrid cgroup layout (v1 + /sys/fs/cgroup/unified) only"; return; }
  v="$(sed -n 's/^K8S_VERSION=\([^ ]*\).*/\1/p' "$LAB/k8s/build.sh")"
  for b in kubelet-"$v"/bin/kubelet kubeadm-"$v"/bin/kubeadm kubectl-"$v"/bin/kubectl; do
    [[ -x "$cache/$b" ]] || { echo "no $cache/$b: run lab/k8s/build.sh kubernetes"; return; }
  done
  command -v go >/dev/null || [[ -x /usr/local/go/bin/go ]] || { echo "no go (the pause source comes from the Go module cache)"; return; }
}

setup_file() {
  SKIP_WHY="$(skip_reason)"
  export SKIP_WHY
  if [[ -n "$SKIP_WHY" ]]; then return 0; fi
  export NAME STATE
  local t0
  t0=$(date +%s.%N)
  IMAGE="$("$LAB/nodes/image")"
  echo "# node image: $IMAGE ($(awk -v a="$t0" -v b="$(date +%s.%N)" 'BEGIN{printf "%.1f", b-a}') s to find or make)" >&3
  PAUSE="$("$LAB/nodes/pause-image")"
  export IMAGE PAUSE
  sysctl -n "${HOST_SYSCTLS[@]}" >"$BATS_FILE_TMPDIR/sysctl.before"
}

setup() {
  if [[ -n "$SKIP_WHY" ]]; then skip "$SKIP_WHY"; fi
}

teardown_file() {
  if [[ -n "$SKIP_WHY" ]]; then return 0; fi
  "$NODE" down "$NAME" >/dev/null 2>&1 || true
  "$NODE" down "$NAME-ns" >/dev/null 2>&1 || true
  ip netns del "nfvnode-$NAME-x" 2>/dev/null || true
}

in_node() { "$NODE" exec "$NAME" "$@"; }

elapsed() { awk -v a="$1" -v b="$(date +%s.%N)" 'BEGIN{printf "%.2f", b-a}'; }

# wait_system NODE: systemctl is-system-running until running or degraded (60 s); prints the state.
wait_system() {
  local i s
  for ((i = 0; i < 600; i++)); do
    s="$("$NODE" exec "$1" systemctl is-system-running 2>/dev/null || true)"
    case "$s" in running | degraded) break ;; esac
    sleep 0.1
  done
  echo "$s"
}

@test "node up: systemd as PID 1 reaches running" {
  local t0 s
  t0=$(date +%s.%N)
  run "$NODE" up "$NAME" --image "$IMAGE"
  [ "$status" -eq 0 ] || { echo "$output"; false; }
  echo "# up: $(elapsed "$t0") s ($output)" >&3
  s="$(wait_system "$NAME")"
  echo "# systemctl is-system-running: $s $(elapsed "$t0") s after up" >&3
  if [[ "$s" == degraded ]]; then
    echo "# degraded: $(in_node systemctl --failed --no-legend --plain | tr '\n' ';')" >&3
  fi
  [[ "$s" == running || "$s" == degraded ]]
  [ "$(in_node cat /proc/1/comm)" = systemd ]
  [ "$(in_node hostname)" = "$NAME" ]
  # systemd sits in the node's own cgroups (the cgroup namespace's root), in every hierarchy
  run in_node cat /proc/1/cgroup
  [[ "$output" == *"0::/init.scope"* && "$output" == *"memory:/init.scope"* ]]
}

@test "containerd is active and ctr reaches it" {
  [ "$(in_node systemctl is-active containerd)" = active ]
  run in_node ctr version
  [ "$status" -eq 0 ]
  [[ "$output" == *"Server:"*"Version:"* ]]
  # it runs from the configuration on disk plus restrict_oom_score_adj (lab/nodes/image), also
  # when a mgmt script rewrote the file: the restart below rereads it
  [[ "$(in_node systemctl show -p ExecStart --value containerd)" == *"--config /run/nfv-node/containerd.toml"* ]]
  in_node grep -q 'restrict_oom_score_adj = true' /run/nfv-node/containerd.toml
  in_node sh -c 'cp /etc/containerd/config.toml /root/config.toml && printf "version = 2\n" >/etc/containerd/config.toml && systemctl restart containerd'
  [ "$(in_node systemctl is-active containerd)" = active ]
  [[ "$(in_node cat /run/nfv-node/containerd.toml)" == *'[plugins."io.containerd.grpc.v1.cri"]'*'restrict_oom_score_adj = true'* ]]
  in_node sh -c 'mv /root/config.toml /etc/containerd/config.toml && systemctl restart containerd'
}

@test "modprobe in the node finds the built-in modules its software loads (kubeadm's, Neutron's Linux bridge agent's) and no other" {
  local m
  # this machine's kernel has these built in; the node's modules.builtin says so to kmod
  for m in overlay br_netfilter bridge ip6_tables ebtables; do
    run in_node modprobe "$m"
    [ "$status" -eq 0 ] || { echo "modprobe $m: $output"; false; }
  done
  run in_node modprobe openvswitch
  [ "$status" -ne 0 ]
  [[ "$output" == *"Module openvswitch not found"* ]]
}

@test "the node's sshd answers on its address, from this machine over nfvnode0" {
  local ip banner="" i
  ip="$(cat "$STATE/$NAME/ip")"
  [[ "$ip" == 10.253.0.* ]]
  for ((i = 0; i < 50; i++)); do
    # shellcheck disable=SC2016 # $1 of the inner bash
    banner="$(timeout 2 bash -c 'exec 3<>"/dev/tcp/$1/22" && head -c 8 <&3' _ "$ip" 2>/dev/null || true)"
    [[ "$banner" == SSH-2.0* ]] && break
    sleep 0.1
  done
  [[ "$banner" == SSH-2.0* ]]
}

@test "the image carries kubelet, kubeadm, kubectl at the pinned version, installed as packages apt sees" {
  local v b
  v="$(sed -n 's/^K8S_VERSION=\([^ ]*\).*/\1/p' "$LAB/k8s/build.sh")"
  [[ "$(in_node kubelet --version)" == "Kubernetes $v" ]]
  [[ "$(in_node kubeadm version -o short)" == "$v" ]]
  [[ "$(in_node kubectl version --client)" == *"Client Version: $v"* ]]
  [[ "$(in_node etcdctl version)" == *"etcdctl version: 3."* ]]
  for b in kubelet kubeadm kubectl; do
    [[ "$(in_node dpkg-query -W -f='${Status} ${Version}' "$b")" == "install ok installed ${v#v}-1.1" ]]
  done
  # the mgmt scripts' pinned install finds them: nothing to fetch (the image has no apt lists)
  run in_node env DEBIAN_FRONTEND=noninteractive apt-get install -y --no-download "kubeadm=${v#v}-1.1" "kubelet=${v#v}-1.1"
  [[ "$status" -eq 0 ]]
  [[ "$output" == *"0 newly installed"* ]]
}

# pod_field POD FIELD: a status field of static pod POD as kubelet reports it (read-only port, /pods).
pod_field() {
  in_node bash -c 'exec 3<>/dev/tcp/127.0.0.1/10255 && printf "GET /pods HTTP/1.0\r\n\r\n" >&3 && cat <&3' 2>/dev/null |
    sed '1,/^\r\{0,1\}$/d' | python3 -c '
import json, sys
try:
    pods = {p["metadata"]["name"]: p for p in json.load(sys.stdin)["items"] or []}
except ValueError:
    pods = {}
print(pods.get(sys.argv[1], {}).get("status", {}).get(sys.argv[2], ""))' "$1-$NAME" "$2"
}

@test "kubelet standalone runs static pods of a locally built pause image, on the host network and on a CNI bridge" {
  local t0 i a="" b=""
  in_node ctr -n k8s.io images import --all-platforms - <"$PAUSE"
  in_node ctr -n k8s.io images ls -q | grep -qx 'registry.k8s.io/pause:3.10.1'
  # shellcheck disable=SC2016 # expanded in the node
  in_node sh -c 'cat >/etc/kubernetes/kubelet-standalone.yaml <<EOF
apiVersion: kubelet.config.k8s.io/v1beta1
kind: KubeletConfiguration
failCgroupV1: false
failSwapOn: false
cgroupDriver: systemd
containerRuntimeEndpoint: unix:///run/containerd/containerd.sock
staticPodPath: /etc/kubernetes/manifests
readOnlyPort: 10255
authentication:
  anonymous: {enabled: true}
  webhook: {enabled: false}
authorization: {mode: AlwaysAllow}
EOF
mkdir -p /etc/systemd/system/kubelet.service.d
cat >/etc/systemd/system/kubelet.service.d/20-standalone.conf <<EOF
[Service]
ExecStart=
ExecStart=/usr/bin/kubelet --config=/etc/kubernetes/kubelet-standalone.yaml
EOF
cat >/etc/cni/net.d/10-podnet.conflist <<EOF
{"cniVersion": "1.0.0", "name": "podnet", "plugins": [
  {"type": "bridge", "bridge": "cni0", "isGateway": true,
   "ipam": {"type": "host-local", "ranges": [[{"subnet": "10.244.0.0/24"}]], "routes": [{"dst": "0.0.0.0/0"}]}},
  {"type": "portmap", "capabilities": {"portMappings": true}}]}
EOF
for p in hostnet podnet; do
  { echo "apiVersion: v1"; echo "kind: Pod"; echo "metadata: {name: $p, namespace: default}"; echo "spec:"
    [ $p = hostnet ] && echo "  hostNetwork: true"
    echo "  containers: [{name: pause, image: \"registry.k8s.io/pause:3.10.1\", imagePullPolicy: Never}]"
  } >/etc/kubernetes/manifests/$p.yaml
done
systemctl daemon-reload'
  t0=$(date +%s.%N)
  in_node systemctl start kubelet
  for ((i = 0; i < 300; i++)); do
    a="$(pod_field hostnet phase || true)"
    b="$(pod_field podnet phase || true)"
    [[ "$a" == Running && "$b" == Running ]] && break
    sleep 0.1
  done
  echo "# static pods: hostnet ${a:-none}, podnet ${b:-none} $(elapsed "$t0") s after kubelet start" >&3
  [[ "$a" == Running && "$b" == Running ]] || { in_node journalctl -u kubelet --no-pager | tail -30; false; }
  [[ "$(pod_field podnet podIP)" == 10.244.0.* ]]
  [[ "$(in_node ip -br addr show cni0)" == *" 10.244.0.1/24 "* ]] # the bridge plugin's gateway
  [ "$(in_node systemctl is-active kubelet)" = active ]
  run in_node ctr -n k8s.io containers ls
  [ "$(grep -c 'registry.k8s.io/pause:3.10.1' <<<"$output")" -ge 4 ] # two sandboxes, two containers
}

@test "memory of a node (PSS of its processes)" {
  local pids d p pss=0 n=0 kb
  d="$(grep '/pids/' "$STATE/$NAME/cgroups")"
  pids="$(find "$d" -name cgroup.procs -exec cat {} + | sort -u)"
  for p in $pids; do
    kb="$(awk '/^Pss:/ {print $2}' "/proc/$p/smaps_rollup" 2>/dev/null)" || continue
    pss=$((pss + ${kb:-0}))
    n=$((n + 1))
  done
  echo "# node PSS: $((pss / 1024)) MiB in $n processes (systemd, journald, dbus, logind, getty, sshd, containerd, kubelet, shims, pauses)" >&3
  ((n >= 8))
}

@test "down leaves no process, mount, cgroup, veth, netns or file; host sysctls unchanged" {
  local t0 veth pid
  veth="$(cat "$STATE/$NAME/veth")"
  pid="$(cut -d' ' -f1 "$STATE/$NAME/pid1")"
  t0=$(date +%s.%N)
  run "$NODE" down "$NAME"
  echo "# down: $(elapsed "$t0") s" >&3
  [ "$status" -eq 0 ] || { echo "$output"; false; }
  [[ "$output" != *"did not halt"* ]] || printf '#   %s\n' "${lines[@]}" >&3
  [ ! -e "$STATE/$NAME" ]
  run ! kill -0 "$pid"
  run ! grep -qs "nodes/$NAME" /proc/self/mountinfo /proc/[0-9]*/mountinfo
  [ -z "$(find /sys/fs/cgroup -maxdepth 5 -type d -path "*/nfvnode/$NAME")" ]
  run ! ip link show "$veth"
  [[ "$(ip netns list)" != *"nfvnode-$NAME "* && "$(ip netns list)" != *"nfvnode-$NAME" ]]
  run ! pgrep -f "lab/nodes/node _init $NAME"
  sysctl -n "${HOST_SYSCTLS[@]}" | diff "$BATS_FILE_TMPDIR/sysctl.before" -
}

@test "a node in an existing network namespace keeps it on down" {
  local ns="nfvnode-$NAME-x" s
  ip netns add "$ns"
  ip -n "$ns" link set lo up
  "$NODE" up "$NAME-ns" --image "$IMAGE" --netns "$ns"
  s="$(wait_system "$NAME-ns")"
  [[ "$s" == running || "$s" == degraded ]]
  [ "$(readlink "/proc/$(cut -d' ' -f1 "$STATE/$NAME-ns/pid1")/ns/net")" = "$(ip netns exec "$ns" readlink /proc/self/ns/net)" ]
  "$NODE" down "$NAME-ns"
  ip netns list | grep -q "^$ns"
  [ ! -e "$STATE/$NAME-ns" ]
  ip netns del "$ns"
}
