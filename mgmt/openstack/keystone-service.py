#!/usr/bin/env python3
"""A service's Keystone user (in its domain and project, with its roles), its catalog entries and
their endpoints, made or brought to what is given (idempotent), with openstacksdk.

Runs in a Job of the control plane (components/openstack-control-plane/cinder.ts). The admin's
credentials are the OS_* variables openstacksdk reads; the rest, from the environment:
  SERVICE_USER, SERVICE_PASSWORD, SERVICE_DOMAIN, SERVICE_PROJECT, SERVICE_ROLES (comma-separated)
  CATALOG    JSON: [{"name", "type", "endpoints": {"public": url, "internal": url, "admin": url}}]
"""
import json
import os
import sys
import time

import openstack

env = os.environ
for attempt in range(60):
    try:
        conn = openstack.connect()
        conn.identity.get_token()
        break
    except Exception as e:  # Keystone may still be starting: any failure is retried for 5 minutes
        print(f"keystone-service: Keystone not answering yet ({type(e).__name__})", flush=True)
        time.sleep(5)
else:
    sys.exit("keystone-service: Keystone did not answer in 5 minutes")

idn = conn.identity
region = env.get("OS_REGION_NAME", "RegionOne")
domain = idn.find_domain(env["SERVICE_DOMAIN"]) or idn.create_domain(name=env["SERVICE_DOMAIN"])
project = idn.find_project(env["SERVICE_PROJECT"], domain_id=domain.id) or idn.create_project(
    name=env["SERVICE_PROJECT"], domain_id=domain.id)
user = idn.find_user(env["SERVICE_USER"], domain_id=domain.id)
if user is None:
    user = idn.create_user(name=env["SERVICE_USER"], domain_id=domain.id, password=env["SERVICE_PASSWORD"],
                           default_project_id=project.id)
else:
    user = idn.update_user(user, password=env["SERVICE_PASSWORD"])
for name in filter(None, env["SERVICE_ROLES"].split(",")):
    role = idn.find_role(name) or idn.create_role(name=name)
    idn.assign_project_role_to_user(project, user, role)

for entry in json.loads(env["CATALOG"]):
    service = next((s for s in idn.services() if s.type == entry["type"] and s.name == entry["name"]), None)
    service = service or idn.create_service(name=entry["name"], type=entry["type"], is_enabled=True)
    have = {e.interface: e for e in idn.endpoints(service_id=service.id, region_id=region)}
    for interface, url in entry["endpoints"].items():
        if interface not in have:
            idn.create_endpoint(service_id=service.id, interface=interface, url=url, region_id=region)
        elif have[interface].url != url:
            idn.update_endpoint(have[interface], url=url)
print(f"keystone-service: user {env['SERVICE_USER']} and {len(json.loads(env['CATALOG']))} catalog entries ready", flush=True)
