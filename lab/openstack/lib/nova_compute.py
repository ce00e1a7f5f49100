#!/usr/bin/python3
"""nova_compute.py --config-file ...: the lab's nova-compute, Nova's fake driver whose destroy takes
the server's VM host down before it returns, as a hypervisor's destroy stops the VM.

Nova calls destroy in a delete (before it releases the server's ports) and in a rebuild (before it
spawns the new image and reports ACTIVE). Until this driver, the VM-host agent noticed both from
Nova's API, a second or more later under load, and the window let a replacement given a kept port
find the old host at its address (whole-cluster heals), and a change of package's SSH wait and
hooks reach the old root of a rebuilt server (its hook log lost: change-vnfpkg-on-openstack-lab,
three times until 2026-12-07). Here destroy asks the agent over its socket
(<NFV_LAB_STATE_DIR>/run/vmhost-agent.sock) and returns only once the host is off the network and
gone.
"""
import json
import os
import socket
import sys

# The agent tears a node down in seconds, in tens of them on a loaded machine; a host that is not
# gone after this long is a fault to see, not to wait out.
DESTROY_TIMEOUT = 600


def agent_socket():
    return os.path.join(os.environ["NFV_LAB_STATE_DIR"], "run", "vmhost-agent.sock")


def ask_agent(request, path=None, timeout=DESTROY_TIMEOUT):
    """Sends one request (a dict) to the VM-host agent and returns its answer (a dict); raises
    RuntimeError when the agent refuses or cannot be reached."""
    path = path or agent_socket()
    with socket.socket(socket.AF_UNIX, socket.SOCK_STREAM) as s:
        s.settimeout(timeout)
        try:
            s.connect(path)
            s.sendall(json.dumps(request).encode() + b"\n")
            answer = b""
            while not answer.endswith(b"\n"):
                chunk = s.recv(4096)
                if not chunk:
                    break
                answer += chunk
        except OSError as e:
            raise RuntimeError(f"vmhost-agent at {path}: {request}: {type(e).__name__}: {e}") from e
    reply = json.loads(answer or b"{}")
    if not reply.get("ok"):
        raise RuntimeError(f"vmhost-agent: {request}: {reply.get('error', 'no answer')}")
    return reply


def driver_class():
    """The driver, defined once nova-compute's start has patched eventlet in (importing nova.virt
    before it would bind the unpatched socket module)."""
    from nova.virt import fake

    class LabDriver(fake.FakeDriver):
        def destroy(self, context, instance, *args, **kwargs):
            # The launch being destroyed: a rebuild's next one is another, a delete's stays listed.
            launched = instance.launched_at.isoformat() if instance.launched_at else None
            ask_agent({"destroy": instance.uuid, "launched_at": launched})
            return super().destroy(context, instance, *args, **kwargs)

    return LabDriver


def main():
    from nova.cmd import compute  # patches eventlet in first

    # Nova loads `nova.virt.<compute_driver>`: compute_driver = lab.LabDriver finds it here.
    module = type(sys)("nova.virt.lab")
    module.LabDriver = driver_class()
    sys.modules["nova.virt.lab"] = module
    return compute.main()


if __name__ == "__main__":
    sys.exit(main())
