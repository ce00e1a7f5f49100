#!/usr/bin/env python3
"""A service's RabbitMQ virtual host and user, with every permission on it (idempotent), through
RabbitMQ's management API: what helm-toolkit's rabbit-init.sh does with rabbitmqadmin, without a
password on a command line.

Runs as the charts' rabbit-init.sh (components/openstack-control-plane/secret-rewrites.ts) and in
Cinder's Job (cinder.ts), from the environment helm-toolkit's rabbit-init Jobs give, the URLs from
a Secret:
  RABBITMQ_ADMIN_CONNECTION          the management API with the administrator, http://user:password@host:15672
  RABBITMQ_USER_CONNECTION           the service's transport, rabbit://user:password@host:5672/vhost
  RABBITMQ_AUXILIARY_CONFIGURATION   optional: definitions (policies, ...) to import, JSON
The user names and passwords are percent-encoded in the URLs, as oslo.messaging reads them.
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
if env.get("RABBITMQ_X509"):
    sys.exit("rabbit-user: TLS client certificates (RABBITMQ_X509) are not supported")
admin = urllib.parse.urlsplit(env["RABBITMQ_ADMIN_CONNECTION"])
service = urllib.parse.urlsplit(env["RABBITMQ_USER_CONNECTION"])
api = f"http://{admin.hostname}:{admin.port or 15672}/api"
credentials = f"{urllib.parse.unquote(admin.username)}:{urllib.parse.unquote(admin.password)}"
auth = base64.b64encode(credentials.encode()).decode()
user, password = urllib.parse.unquote(service.username), urllib.parse.unquote(service.password)
vhost = urllib.parse.unquote(service.path.lstrip("/")) or "/"


def call(method, path, body=None):
    req = urllib.request.Request(f"{api}/{path}", data=None if body is None else json.dumps(body).encode(), method=method,
                                 headers={"Authorization": f"Basic {auth}", "Content-Type": "application/json"})
    with urllib.request.urlopen(req, timeout=30) as r:
        return r.status


q = lambda s: urllib.parse.quote(s, safe="")
for attempt in range(60):
    try:
        call("GET", "overview")
        break
    except (urllib.error.URLError, ConnectionError) as e:
        print(f"rabbit-user: management API at {api} not answering yet ({getattr(e, 'code', e)})", flush=True)
        time.sleep(5)
else:
    sys.exit(f"rabbit-user: management API at {api} did not answer in 5 minutes")
call("PUT", f"users/{q(user)}", {"password": password, "tags": "user"})
try:
    call("DELETE", "users/guest")
except urllib.error.HTTPError as e:
    if e.code != 404:
        raise
if vhost != "/":
    call("PUT", f"vhosts/{q(vhost)}", {})
call("PUT", f"permissions/{q(vhost)}/{q(user)}", {"configure": ".*", "write": ".*", "read": ".*"})
if env.get("RABBITMQ_AUXILIARY_CONFIGURATION"):
    call("POST", "definitions", json.loads(env["RABBITMQ_AUXILIARY_CONFIGURATION"]))
print(f"rabbit-user: vhost {vhost} and user {user} ready", flush=True)
