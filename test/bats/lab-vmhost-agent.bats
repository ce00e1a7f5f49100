#!/usr/bin/env bats
# The lab's VM-host agent (lab/openstack/vmhost-agent) with Nova's list and the host operations
# replaced by fakes, and the lab driver's request to it (lab/openstack/lib/nova_compute.py) over its
# real socket: Nova's destroy gets its answer only once the host is gone, also while the loop is busy
# making another host, and waits while the loop works on that host; the loop makes no host for a
# destroyed server until a rebuild launches it anew; the loop's backstop removes the hosts of
# servers gone without a destroy; removed hosts leave the network first, all of them before any is
# torn down.

AGENT="$BATS_TEST_DIRNAME/../../lab/openstack/vmhost-agent"
DRIVER="$BATS_TEST_DIRNAME/../../lab/openstack/lib/nova_compute.py"
OLD=11111111-1111-4111-8111-111111111111
OTHER=22222222-2222-4222-8222-222222222222

# Runs a Python body with `agent` (an Agent on a temporary state dir, openstack and keystoneauth
# stubbed out), `vmhost` and `driver` (the two modules), `ask(sid, launched_at)` (the driver's
# destroy request on the agent's socket), `live(sid, launched_at)` (a live server as Nova lists it),
# `follow(nova)` (the agent lists that dict as Nova's servers, no guard routes), `host(sid,
# launched_at)` (a ready node's host record made and returned), OLD and OTHER (server ids) defined.
agent_py() {
  NFV_LAB_ROOTFS=/nonexistent python3 - "$AGENT" "$DRIVER" "$BATS_TEST_TMPDIR" "$1" <<'EOF'
import importlib.machinery, importlib.util, os, sys, types
for name in ("openstack", "keystoneauth1", "keystoneauth1.session", "keystoneauth1.identity", "keystoneauth1.identity.v3"):
    sys.modules[name] = types.ModuleType(name)
sys.modules["keystoneauth1"].session = sys.modules["keystoneauth1.session"]
sys.modules["keystoneauth1.identity"].v3 = sys.modules["keystoneauth1.identity.v3"]
def load(name, path):
    loader = importlib.machinery.SourceFileLoader(name, path)
    module = importlib.util.module_from_spec(importlib.util.spec_from_loader(name, loader))
    loader.exec_module(module)
    return module
vmhost, driver = load("vmhost", sys.argv[1]), load("nova_compute", sys.argv[2])
state = sys.argv[3]
os.makedirs(os.path.join(state, "run"), exist_ok=True)
agent = vmhost.Agent(state)
ask = lambda sid, launched_at=None: driver.ask_agent({"destroy": sid, "launched_at": launched_at}, os.path.join(state, "run", "vmhost-agent.sock"), 30)
live = lambda sid, at: {"id": sid, "status": "ACTIVE", "OS-SRV-USG:launched_at": at, "addresses": {}}
def follow(nova):
    agent.servers = lambda: list(nova.values())
    agent.guard_subnets = lambda: None
def host(sid, launched_at):
    os.makedirs(agent.hdir(sid))
    h = {"server_id": sid, "name": "vm", "netns": "n", "user": "u", "launched_at": launched_at, "node": "n", "ssh_ready": True, "ports": [], "volumes": {}}
    agent.save(h)
    return h
OLD, OTHER = os.environ["OLD"], os.environ["OTHER"]
exec(sys.argv[4])
EOF
}
export OLD OTHER

@test "vmhost-agent: Nova's destroy is answered once the host is gone, while the loop is still making another host" {
  run agent_py '
import shutil, threading
making, removed = threading.Event(), threading.Event()
nova = {OLD: live(OLD, "2026-12-07T03:00:00.000000"), OTHER: live(OTHER, "2026-12-07T03:00:05.000000")}
host(OLD, nova[OLD]["OS-SRV-USG:launched_at"])
follow(nova)
def create(s):
    # The slow part of the loop (a node boots for tens of seconds): it ends once the destroy has
    # removed the old host, or after 30 s.
    making.set()
    removed.wait(30)
    raise RuntimeError("stop here")
agent.create = create
def destroy(sid):
    print(f"host of {sid[:8]} destroyed while making: {making.is_set() and not removed.is_set()}")
    shutil.rmtree(agent.hdir(sid))
    removed.set()
agent.destroy = destroy
requests = agent.serve()
def run_loop():
    try:
        agent.sync()
    except RuntimeError as e:
        print("loop:", e)
loop = threading.Thread(target=run_loop)
loop.start()
assert making.wait(30), "the loop never made a host"
answer = ask(OLD, "2026-12-07T03:00:00+00:00")
left = os.path.exists(agent.hdir(OLD))
loop.join(60)  # before printing: its own line comes as the answer does
print(f"answer: {answer}")
print(f"host left at the answer: {left}")
requests.shutdown()
'
  echo "$output"
  [ "$status" -eq 0 ]
  [[ "$output" == *"server $OLD destroyed by nova-compute: its host goes"* ]]
  [[ "$output" == *"host of 11111111 destroyed while making: True"* ]]
  [[ "$output" == *"answer: {'ok': True}"* ]]
  [[ "$output" == *"host left at the answer: False"* ]]
  [[ "$output" == *"loop: stop here"* ]]
  [ "$(grep -c "host of" <<<"$output")" -eq 1 ]
}

@test "vmhost-agent: Nova's destroy waits while the loop has the host claimed, and takes it once released" {
  run agent_py '
import threading, time
os.makedirs(agent.hdir(OLD))
seen = []
def destroy(sid):
    seen.append(sid[:8])
    os.rmdir(agent.hdir(sid))
agent.destroy = destroy
requests = agent.serve()
assert agent.claim(OLD)
assert not agent.claim(OLD), "claimed twice"
answers = []
t = threading.Thread(target=lambda: answers.append(ask(OLD)))
t.start()
time.sleep(1)
print("while claimed:", seen, answers)
agent.release(OLD)
t.join(10)
print("after release:", seen, answers)
requests.shutdown()
'
  echo "$output"
  [ "$status" -eq 0 ]
  [[ "$output" == *"while claimed: [] []"* ]]
  [[ "$output" == *"after release: ['11111111'] [{'ok': True}]"* ]]
}

@test "vmhost-agent: after Nova's destroy the loop makes no host for the launch it destroyed; the rebuild's next launch gets one, whenever it came" {
  run agent_py '
import shutil
nova = {OLD: live(OLD, "2026-12-07T03:00:00.000000")}
follow(nova)
made = []
def create(s):
    made.append(s["OS-SRV-USG:launched_at"])
    return host(s["id"], s["OS-SRV-USG:launched_at"])
agent.create = create
requests = agent.serve()
# Nova destroys the launch it lists (as the compute sends it: with its time zone).
print("answer:", ask(OLD, "2026-12-07T03:00:00+00:00"))
agent.sync()
print("made while deleting:", made)
# The new launch of a rebuild, earlier than the clock of this test: its launch tells it apart, not
# when it came (Nova keeps launched_at to the second, often the very second of the destroy).
nova[OLD]["OS-SRV-USG:launched_at"] = "2026-12-07T03:00:01.000000"
agent.sync()
print("made after the rebuild:", made)
del nova[OLD]
agent.destroy = lambda sid: shutil.rmtree(agent.hdir(sid))
agent.sync()
print("destroys remembered once Nova lists it no more:", agent.destroyed, "hosts:", sorted(agent.known()))
requests.shutdown()
'
  echo "$output"
  [ "$status" -eq 0 ]
  [[ "$output" == *"answer: {'ok': True}"* ]]
  [[ "$output" == *"made while deleting: []"* ]]
  [[ "$output" == *"made after the rebuild: ['2026-12-07T03:00:01.000000']"* ]]
  [[ "$output" == *"destroys remembered once Nova lists it no more: {} hosts: []"* ]]
}

@test "vmhost-agent: a destroy request naming no server id is refused with the reason; without an agent the driver names its socket" {
  run agent_py '
requests = agent.serve()
for sid, launched_at in (("../../etc", None), (7, None), (OLD, 7)):
    try:
        ask(sid, launched_at)
        print("accepted", sid)
    except RuntimeError as e:
        print("refused:", e)
requests.shutdown()
try:
    driver.ask_agent({"destroy": OLD}, "/nonexistent/vmhost-agent.sock", 5)
except RuntimeError as e:
    print("no agent:", e)
'
  echo "$output"
  [ "$status" -eq 0 ]
  [[ "$output" != *"accepted"* ]]
  [[ "$output" == *"refused: vmhost-agent: {'destroy': '../../etc', 'launched_at': None}: ValueError: not a server id: '../../etc'"* ]]
  [[ "$output" == *"refused: vmhost-agent: {'destroy': 7, 'launched_at': None}: ValueError: not a server id: 7"* ]]
  [[ "$output" == *"refused: vmhost-agent: {'destroy': '$OLD', 'launched_at': 7}: ValueError: not a launch time: 7"* ]]
  [[ "$output" == *"no agent: vmhost-agent at /nonexistent/vmhost-agent.sock: {'destroy': '$OLD'}: FileNotFoundError"* ]]
}

@test "vmhost-agent: the loop's backstop removes the hosts of servers gone, not live (REBUILD) or rebuilt without a destroy" {
  run agent_py '
for sid in ("gone", "rebuilding", "rebuilt", "kept"):
    os.makedirs(agent.hdir(sid))
    agent.save({"server_id": sid, "launched_at": "t0"})
nova = {"rebuilding": {**live("rebuilding", "t0"), "status": "REBUILD"}, "rebuilt": live("rebuilt", "t1"), "kept": live("kept", "t0")}
print("stale:", sorted(agent.stale(agent.known(), nova).items()))
'
  echo "$output"
  [ "$status" -eq 0 ]
  [[ "$output" == *"stale: [('gone', 'deleted'), ('rebuilding', 'REBUILD'), ('rebuilt', 'rebuilt')]"* ]]
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
agent.servers = lambda: []
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
