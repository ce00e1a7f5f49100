#!/usr/bin/env python3
"""Where a test run's CPU went, by kind of process: what test/run-all's time budget is made of.

  cpu-by-kind.py record FILE [SECONDS]   every SECONDS (30), one JSON line: each kind's CPU seconds
                                         since the line before, and the machine's (/proc/stat)
  cpu-by-kind.py summary FILE            the run's totals by kind, then the top kinds of each 10 min

A kind is named from the command line (the first rule that matches) and prefixed "node:" for a
process inside a lab node (its cgroup is a lab node's, lab/nodes/node), so the cluster's own
services and the lab OpenStack's are told apart. A process that starts and ends between two
samples (a compiler, a CLI call) is counted in its parent's kind, by what the parent reaped from it
beyond what was seen of it alive. Reads /proc only; never fails the run it watches.
"""
import json
import os
import re
import sys
import time
from collections import Counter

HZ = os.sysconf("SC_CLK_TCK")
RULES = [
    ("go build", r"/(compile|link|asm|cgo|vet)( |$)|(^|/)go (build|mod|list|install|run)"),
    ("pulumi engine", r"(^|/)pulumi( |$)"),
    ("pulumi openstack provider", r"pulumi-resource-openstack"),
    ("pulumi kubernetes provider", r"pulumi-resource-kubernetes"),
    ("pulumi command provider", r"pulumi-resource-command"),
    ("pulumi nodejs host", r"pulumi-language-nodejs"),
    ("canary process sampler", r"process-sampler"),
    ("vitest", r"vitest"),
    ("node", r"(^|/)node( |$)"),
    ("openstack CLI", r"bin/openstack( |$)"),
    ("lab VM-host agent", r"vmhost-agent"),
    ("nova", r"nova-"),
    ("neutron", r"neutron"),
    ("keystone", r"keystone"),
    ("glance", r"glance"),
    ("cinder", r"cinder"),
    ("heat", r"heat-"),
    ("placement", r"placement"),
    ("magnum", r"magnum"),
    ("apache/uwsgi", r"apache2|uwsgi"),
    ("mariadb", r"mysqld|mariadbd"),
    ("postgresql", r"postgres"),
    ("rabbitmq", r"beam\.smp|rabbitmq|epmd|erl_child"),
    ("etcd", r"(^|/)etcd( |$)"),
    ("kube-apiserver", r"kube-apiserver"),
    ("kube-controller-manager", r"kube-controller"),
    ("kube-scheduler", r"kube-scheduler"),
    ("kubelet", r"kubelet"),
    ("kube-proxy", r"kube-proxy"),
    ("containerd/runc", r"containerd|runc"),
    ("coredns", r"coredns"),
    ("kwok", r"kwok"),
    ("systemd", r"systemd|/sbin/init"),
    ("ssh", r"sshd|(^|/)ssh( |$)|(^|/)scp( |$)"),
    ("docker-registry", r"docker-registry|registry serve"),
    ("haproxy/keepalived", r"haproxy|keepalived"),
    ("apt/dpkg/debootstrap", r"apt|dpkg|debootstrap"),
    ("skopeo/umoci", r"skopeo|umoci"),
    ("python", r"python"),
    ("shell", r"(^|/)(ba|da)?sh( |$)"),
]
COMPILED = [(name, re.compile(rule)) for name, rule in RULES]


def kind(cmd, comm, in_node):
    name = next((n for n, rx in COMPILED if rx.search(cmd)), None)
    if name is None:
        name = f"kernel: {comm}" if not cmd else f"other: {comm}"
    return f"node: {name}" if in_node else name


def processes():
    """pid -> (start, ppid, own ticks, reaped children's ticks, kind)."""
    out = {}
    for pid in os.listdir("/proc"):
        if not pid.isdigit():
            continue
        try:
            with open(f"/proc/{pid}/stat") as f:
                stat = f.read()
            with open(f"/proc/{pid}/cmdline", "rb") as f:
                cmd = f.read().replace(b"\0", b" ").decode(errors="replace").strip()
            with open(f"/proc/{pid}/cgroup") as f:
                in_node = "/vmh-" in f.read()
        except OSError:
            continue
        comm = stat[stat.find("(") + 1 : stat.rfind(")")]
        fields = stat[stat.rfind(")") + 2 :].split()
        out[pid] = (fields[19], fields[1], int(fields[11]) + int(fields[12]), int(fields[13]) + int(fields[14]), kind(cmd, comm, in_node))
    return out


def machine_busy():
    with open("/proc/stat") as f:
        v = [int(x) for x in f.readline().split()[1:]]
    return sum(v) - v[3] - v[4]


def record(path, seconds):
    prev, prev_busy = processes(), machine_busy()
    while True:
        time.sleep(seconds)
        cur, busy = processes(), machine_busy()
        per = Counter()
        # What each process reaped beyond what was seen of its children alive: a process gone since
        # the last sample was counted up to then (ticks and reaped kids), and its CPU went to the
        # first of its ancestors still alive (a wrapper between them, gone too, reaped it first).
        alive = lambda pid: pid in cur and cur[pid][0] == prev[pid][0]
        seen_of_gone = Counter()
        for pid, (_, ppid, ticks, kids, _) in prev.items():
            if alive(pid):
                continue
            while ppid in prev and not alive(ppid):
                ppid = prev[ppid][1]
            seen_of_gone[ppid] += ticks + kids
        for pid, (start, _, ticks, kids, k) in cur.items():
            before = prev.get(pid)
            same = before is not None and before[0] == start
            per[k] += ticks - (before[2] if same else 0)
            per[k] += max(0, kids - (before[3] if same else 0) - seen_of_gone[pid])
        line = {
            "t": time.strftime("%H:%M:%S", time.gmtime()),
            "machine": round((busy - prev_busy) / HZ, 1),
            "kinds": {k: round(v / HZ, 1) for k, v in per.most_common() if v > 0},
        }
        with open(path, "a") as f:
            f.write(json.dumps(line) + "\n")
        prev, prev_busy = cur, busy


def summary(path):
    lines = [json.loads(l) for l in open(path) if l.strip()]
    if not lines:
        print("cpu by kind: no sample")
        return
    total, busy = Counter(), sum(l["machine"] for l in lines)
    for l in lines:
        total.update(l["kinds"])
    print(f"cpu by kind, {lines[0]['t']}-{lines[-1]['t']}: the machine busy {busy / 60:.0f} cpu-min; counted by kind {sum(total.values()) / 60:.0f}")
    for k, v in total.most_common(25):
        print(f"  {k:32s} {v / 60:7.1f} cpu-min {100 * v / busy:5.1f} %")
    for i in range(0, len(lines), 20):
        part = lines[i : i + 20]
        c = Counter()
        for l in part:
            c.update(l["kinds"])
        top = ", ".join(f"{k} {v / 60:.1f}" for k, v in c.most_common(6))
        print(f"  from {part[0]['t']}: busy {sum(l['machine'] for l in part) / 60:.1f} cpu-min: {top}")


if __name__ == "__main__":
    if len(sys.argv) >= 3 and sys.argv[1] == "record":
        record(sys.argv[2], float(sys.argv[3]) if len(sys.argv) > 3 else 30)
    elif len(sys.argv) == 3 and sys.argv[1] == "summary":
        summary(sys.argv[2])
    else:
        sys.exit(__doc__)
