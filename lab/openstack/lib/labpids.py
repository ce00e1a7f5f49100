#!/usr/bin/python3
"""labpids.py STATE_DIR [--sessions]: pids of the lab's processes, one a line.

Always: processes whose command line names STATE_DIR (privsep helpers, dnsmasq, ...) or whose
root directory is inside it (everything running in a VM host's chroot). With --sessions, also every
member of a session whose leader's pid is recorded in STATE_DIR/run/pids/*.pid.
"""
import glob
import os
import sys

state = sys.argv[1].rstrip("/") + "/"
sessions = set()
if "--sessions" in sys.argv:
    for f in glob.glob(state + "run/pids/*.pid"):
        try:
            sessions.add(int(open(f).read().split()[0]))
        except (OSError, ValueError, IndexError):
            pass
me = os.getpid()
for d in os.listdir("/proc"):
    if not d.isdigit() or int(d) == me:
        continue
    try:
        cmd = open(f"/proc/{d}/cmdline", "rb").read().replace(b"\0", b" ").decode(errors="replace")
        root = os.readlink(f"/proc/{d}/root")
        sid = int(open(f"/proc/{d}/stat").read().rsplit(")", 1)[1].split()[3])
    except (OSError, ValueError, IndexError):
        continue
    if state in cmd or (root + "/").startswith(state) or sid in sessions:
        print(d)
