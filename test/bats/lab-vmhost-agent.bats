#!/usr/bin/env bats
# The lab's VM-host agent (lab/openstack/vmhost-agent) with Nova's list and the host operations
# replaced by fakes: its reaper removes a deleted, rebuilding or rebuilt server's host while the
# loop is busy making another, never a host the loop is working on; and removed hosts leave the
# network first, all of them before any is torn down.

AGENT="$BATS_TEST_DIRNAME/../../lab/openstack/vmhost-agent"

# Runs a Python body with `agent` (an Agent on a temporary state dir, openstack and keystoneauth
# stubbed out) and `vmhost` (the module) defined.
agent_py() {
  NFV_LAB_ROOTFS=/nonexistent python3 - "$AGENT" "$BATS_TEST_TMPDIR" "$1" <<'EOF'
import importlib.machinery, importlib.util, os, sys, types
for name in ("openstack", "keystoneauth1", "keystoneauth1.session", "keystoneauth1.identity", "keystoneauth1.identity.v3"):
    sys.modules[name] = types.ModuleType(name)
sys.modules["keystoneauth1"].session = sys.modules["keystoneauth1.session"]
sys.modules["keystoneauth1.identity"].v3 = sys.modules["keystoneauth1.identity.v3"]
loader = importlib.machinery.SourceFileLoader("vmhost", sys.argv[1])
vmhost = importlib.util.module_from_spec(importlib.util.spec_from_loader("vmhost", loader))
loader.exec_module(vmhost)
agent = vmhost.Agent(sys.argv[2])
exec(sys.argv[3])
EOF
}

# The reaper against a loop busy making another host, while Nova does CHANGE (Python on the dict
# `nova`) to server "old".
reap_while_making() {
  CHANGE="$1" agent_py '
import os, shutil, threading
making, removed = threading.Event(), threading.Event()
live = lambda sid, at: {"id": sid, "status": "ACTIVE", "OS-SRV-USG:launched_at": at, "addresses": {}}
nova = {"old": live("old", "t0"), "other": live("other", "t1")}
os.makedirs(agent.hdir("old"))
agent.save({"server_id": "old", "launched_at": "t0", "node": "vmh-old", "ssh_ready": True, "ports": [], "volumes": {}})
agent.connection = lambda: object()
agent.servers = lambda conn=None: list(nova.values())
agent.guard_subnets = lambda: None
def create(s):
    # The slow part of the loop (a node boots for tens of seconds): it ends once the reaper has
    # removed the deleted host, or after 30 s.
    making.set()
    removed.wait(30)
    raise RuntimeError("stop here")
agent.create = create
def destroy(sid):
    print("destroyed", sid, "while making", "yes" if making.is_set() and not removed.is_set() else "no")
    shutil.rmtree(agent.hdir(sid))
    removed.set()
agent.destroy = destroy
threading.Thread(target=agent.reaper, args=(0.1,), daemon=True).start()
def run_loop():
    try:
        agent.sync()
    except RuntimeError as e:
        print("loop:", e)
loop = threading.Thread(target=run_loop)
loop.start()
assert making.wait(30), "the loop never made a host"
exec(os.environ["CHANGE"])  # while the loop is busy with "other"
loop.join(60)
agent.stop = True
print("host left:", os.path.exists(agent.hdir("old")))
'
}

# What reap_while_making printed: the old host destroyed once, while the loop was still making the
# other, and gone; then the loop's own end.
old_host_reaped_while_making() {
  echo "$output"
  [ "$status" -eq 0 ]
  [[ "$output" == *"destroyed old while making yes"* ]]
  [[ "$output" == *"loop: stop here"* ]]
  [[ "$output" == *"host left: False"* ]]
  [ "$(grep -c destroyed <<<"$output")" -eq 1 ]
}

@test "vmhost-agent: a deleted server's host goes while the loop is still making another host" {
  run reap_while_making 'del nova["old"]'
  old_host_reaped_while_making
  [[ "$output" == *"server old deleted: its host goes"* ]]
}

@test "vmhost-agent: a rebuilt server's host (a new launched_at) goes while the loop is still making another host" {
  run reap_while_making 'nova["old"]["OS-SRV-USG:launched_at"] = "t2"'
  old_host_reaped_while_making
  [[ "$output" == *"server old rebuilt: its host goes"* ]]
}

@test "vmhost-agent: a server being rebuilt (status REBUILD, launched_at not yet new) loses its host while the loop is still making another host" {
  run reap_while_making 'nova["old"]["status"] = "REBUILD"'
  old_host_reaped_while_making
  [[ "$output" == *"server old REBUILD: its host goes"* ]]
}

@test "vmhost-agent: the reaper leaves a host the loop has claimed, and takes it once released" {
  run agent_py '
import os, time
os.makedirs(agent.hdir("gone"))
agent.connection = lambda: object()
agent.servers = lambda conn=None: []
seen = []
def destroy(sid):
    seen.append(sid)
    os.rmdir(agent.hdir(sid))
    agent.stop = True
agent.destroy = destroy
assert agent.claim("gone")
assert not agent.claim("gone"), "claimed twice"
import threading
t = threading.Thread(target=agent.reaper, args=(0.1,), daemon=True)
t.start()
time.sleep(1)
print("while claimed:", seen)
agent.release("gone")
t.join(10)
print("after release:", seen)
'
  echo "$output"
  [ "$status" -eq 0 ]
  [[ "$output" == *"while claimed: []"* ]]
  [[ "$output" == *"after release: ['gone']"* ]]
}

@test "vmhost-agent: a removed node host is off the network before the node is stopped" {
  run agent_py '
import os
calls = []
vmhost.sh = lambda *args, check=True, **kw: calls.append(" ".join(args)) or type("R", (), {"returncode": 0, "stdout": ""})()
os.makedirs(agent.hdir("s1"))
agent.save({"server_id": "s1", "node": "vmh-s1", "netns": "vmh-s1", "root": None, "volumes": {}, "routes": [],
            "ports": [{"veth": "vhs10", "ifname": "eth0", "ips": []}, {"veth": "vhs11", "ifname": "eth1", "ips": []}]})
agent.destroy("s1")
for c in calls:
    print("call:", c.replace(vmhost.NODE, "NODE"))
print("dir left:", os.path.exists(agent.hdir("s1")))
'
  echo "$output"
  [ "$status" -eq 0 ]
  calls="$(grep '^call: ' <<<"$output")"
  [ "$calls" = "$(printf 'call: %s\n' "ip link delete vhs10" "ip link delete vhs11" "NODE down vmh-s1" "ip netns delete vmh-s1")" ]
  [[ "$output" == *"dir left: False"* ]]
}

@test "vmhost-agent: the hosts of servers deleted together are all off the network before any node is stopped" {
  run agent_py '
import os
calls = []
vmhost.sh = lambda *args, check=True, **kw: calls.append(" ".join(args)) or type("R", (), {"returncode": 0, "stdout": ""})()
for sid in ("s1", "s2", "s3"):
    os.makedirs(agent.hdir(sid))
    agent.save({"server_id": sid, "node": f"vmh-{sid}", "netns": f"vmh-{sid}", "root": None, "volumes": {}, "routes": [],
                "ports": [{"veth": f"v{sid}", "ifname": "eth0", "ips": []}]})
agent.servers = lambda conn=None: []
agent.reap()
for c in calls:
    print("call:", c.replace(vmhost.NODE, "NODE"))
print("left:", sorted(agent.known()))
'
  echo "$output"
  [ "$status" -eq 0 ]
  first_down="$(grep -n '^call: NODE down' <<<"$output" | head -1 | cut -d: -f1)"
  last_unplug="$(grep -n '^call: ip link delete vs3$' <<<"$output" | head -1 | cut -d: -f1)"
  [ -n "$first_down" ] && [ -n "$last_unplug" ]
  [ "$last_unplug" -lt "$first_down" ]
  [ "$(grep -c '^call: NODE down' <<<"$output")" -eq 3 ]
  [[ "$output" == *"server s3 deleted: its host goes"* ]]
  [[ "$output" == *"left: []"* ]]
}
