#!/usr/bin/env python3
"""A service's MariaDB database and user, made or brought to the given password (idempotent).

Runs in a Job of the control plane (components/openstack-control-plane/cinder.ts), every value
from the environment, the passwords from a Secret; none is ever on a command line:
  DB_HOST, DB_PORT (default 3306)   the MariaDB server
  DB_ADMIN_PASSWORD                 its root's password
  DB_NAME, DB_USER, DB_PASSWORD     the database and the user that owns it
"""
import os
import sys
import time

import pymysql

env = os.environ
host, port = env["DB_HOST"], int(env.get("DB_PORT", "3306"))
name, user = env["DB_NAME"], env["DB_USER"]
# Identifiers are checked, not quoted: they come from our own code, a stray one is a bug.
for ident in (name, user):
    if not ident.replace("_", "").isalnum():
        sys.exit(f"db-init: '{ident}' is not a plain identifier")

for attempt in range(60):
    try:
        conn = pymysql.connect(host=host, port=port, user="root", password=env["DB_ADMIN_PASSWORD"])
        break
    except pymysql.err.OperationalError as e:
        print(f"db-init: MariaDB at {host}:{port} not answering yet ({e.args[0]})", flush=True)
        time.sleep(5)
else:
    sys.exit(f"db-init: MariaDB at {host}:{port} did not answer in 5 minutes")

with conn.cursor() as c:
    c.execute(f"CREATE DATABASE IF NOT EXISTS `{name}`")
    # The password is a parameter, which the driver escapes ('%%' is then a literal '%').
    c.execute(f"CREATE USER IF NOT EXISTS '{user}'@'%%' IDENTIFIED BY %s", (env["DB_PASSWORD"],))
    c.execute(f"ALTER USER '{user}'@'%%' IDENTIFIED BY %s", (env["DB_PASSWORD"],))
    c.execute(f"GRANT ALL PRIVILEGES ON `{name}`.* TO '{user}'@'%'")  # no parameters: '%' as it is
conn.commit()
print(f"db-init: database {name} and user {user} ready", flush=True)
