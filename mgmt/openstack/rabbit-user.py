#!/usr/bin/env python3
"""A service's RabbitMQ virtual host and user, with every permission on it (idempotent), through
RabbitMQ's management API (what rabbitmqadmin calls, without the password on its command line).

Runs in a Job of the control plane (components/openstack-control-plane/cinder.ts); from the
environment, the passwords from a Secret:
  RABBIT_API                        the management API, http://host:15672
  RABBIT_ADMIN_USER, RABBIT_ADMIN_PASSWORD
  RABBIT_VHOST, RABBIT_USER, RABBIT_PASSWORD
"""
import base64
import json
import os
import sys
import time
import urllib.error
import urllib.parse
import urllib.request

env = os.environ
api = env["RABBIT_API"].rstrip("/")
auth = base64.b64encode(f"{env['RABBIT_ADMIN_USER']}:{env['RABBIT_ADMIN_PASSWORD']}".encode()).decode()
vhost, user = env["RABBIT_VHOST"], env["RABBIT_USER"]


def put(path, body):
    req = urllib.request.Request(f"{api}/api/{path}", data=json.dumps(body).encode(), method="PUT",
                                 headers={"Authorization": f"Basic {auth}", "Content-Type": "application/json"})
    with urllib.request.urlopen(req, timeout=30) as r:
        return r.status


q = lambda s: urllib.parse.quote(s, safe="")
for attempt in range(60):
    try:
        put(f"vhosts/{q(vhost)}", {})
        break
    except (urllib.error.URLError, ConnectionError) as e:
        print(f"rabbit-user: management API at {api} not answering yet ({getattr(e, 'code', e)})", flush=True)
        time.sleep(5)
else:
    sys.exit(f"rabbit-user: management API at {api} did not answer in 5 minutes")
put(f"users/{q(user)}", {"password": env["RABBIT_PASSWORD"], "tags": ""})
put(f"permissions/{q(vhost)}/{q(user)}", {"configure": ".*", "write": ".*", "read": ".*"})
print(f"rabbit-user: vhost {vhost} and user {user} ready", flush=True)
