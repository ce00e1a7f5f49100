#!/usr/bin/python3
"""Idempotent registration for the lab, in one process (the openstack CLI costs 3-4 s per call).

  bootstrap.py catalog    projects, roles, service users, services and endpoints
  bootstrap.py resources  images, flavors, volume type, provider network + subnet
  bootstrap.py heat       Heat's service, stack domain and roles (lib/heat.sh, `up --with-heat`)
  bootstrap.py magnum     Magnum's service, trustee domain and COE image (lib/magnum.sh, `up --with-magnum`)

Reads the admin password and the lab settings from the environment (set by lab/openstack/up).
Prints one `key=value` line per object it made or found.
"""
import os
import subprocess
import sys
import tempfile

import openstack
from keystoneauth1 import session as ks_session
from keystoneauth1.identity import v3

E = os.environ
SERVICE_PASSWORD = E["SERVICE_PASSWORD"]
SERVICES = {
    # name: (type, url, user)
    "keystone": ("identity", "http://127.0.0.1:5000/v3/", None),
    "glance": ("image", "http://127.0.0.1:9292", "glance"),
    "placement": ("placement", "http://127.0.0.1:8778", "placement"),
    "nova": ("compute", "http://127.0.0.1:8774/v2.1", "nova"),
    "neutron": ("network", "http://127.0.0.1:9696", "neutron"),
    # gophercloud/terraform look for volumev3, newer clients for block-storage
    "cinderv3": ("volumev3", "http://127.0.0.1:8776/v3/%(project_id)s", "cinder"),
    "cinder": ("block-storage", "http://127.0.0.1:8776/v3/%(project_id)s", None),
}

# Images named as the shared VNF packages' sw_image_data, plus generic ones. os_admin_user is the
# user the VM-host agent creates (the image's "default user").
VM_USER = E.get("VM_USER", "ubuntu")
IMAGES = {
    "tiny": ("raw", VM_USER),
    "cirros-0.5.2-x86_64-disk": ("qcow2", "cirros"),
    "ubuntu-20.04-server-cloudimg-amd64": ("qcow2", "ubuntu"),
    "Software of VDU1": ("qcow2", "cirros"),
    "VirtualStorage": ("qcow2", "cirros"),
    "Image for Private registry": ("qcow2", "ubuntu"),
    "Image for masterNode kubernetes": ("qcow2", "ubuntu"),
    "Image for workerNode kubernetes": ("qcow2", "ubuntu"),
    "Image for masterNode HA kubernetes": ("qcow2", "ubuntu"),
    "Image for workerNode HA kubernetes": ("qcow2", "ubuntu"),
    "Image for kubernetes node": ("qcow2", "ubuntu"),
}
# Image properties read by the VM-host agent: nfv_lab_standins=<kind> puts the recording stand-ins
# of lab/openstack/standins/<kind> on the VM hosts' PATH (the Kubernetes images: kubeadm, kubectl,
# systemctl, apt-get... cannot run in a namespace + chroot). Set on existing images too.
IMAGE_PROPERTIES = {
    name: {"nfv_lab_standins": "kubernetes"} for name in (
        "Image for masterNode kubernetes", "Image for workerNode kubernetes",
        "Image for masterNode HA kubernetes", "Image for workerNode HA kubernetes")
}
# nfv_lab_node=kubernetes: the VM host is a Kubernetes-capable node (lab/nodes: systemd, containerd,
# kubelet, kubeadm really run). Tests point a package's VDUs at it (the stand-in images above go
# when every K8sCluster test runs on real nodes: issue 20).
IMAGE_PROPERTIES["Image for kubernetes node"] = {"nfv_lab_node": "kubernetes"}
FLAVORS = {  # name: (vcpus, ram MiB, disk GiB)
    "m1.tiny": (1, 512, 1),
    "m1.small": (1, 2048, 20),
    "m1.medium": (2, 4096, 40),
    "m1.large": (4, 8192, 80),
}


def admin():
    auth = v3.Password(auth_url=E["OS_AUTH_URL"], username="admin", password=E["OS_PASSWORD"],
                       project_name="admin", user_domain_name="Default",
                       project_domain_name="Default")
    return openstack.connection.Connection(session=ks_session.Session(auth=auth),
                                           region_name="RegionOne", interface="public")


def out(k, v):
    print(f"{k}={v}", flush=True)


def ensure_role_assignment(idn, project, user, role):
    idn.assign_project_role_to_user(project, user, role)


def ensure_roles(idn, names):
    return {r: idn.find_role(r) or idn.create_role(name=r) for r in names}


def register_service(idn, name, stype, url, user=None):
    """The service `stype` with its three endpoints at `url` and, if `user` is given, its service
    user (admin and service in the project `service`, made by `catalog`)."""
    if user:
        roles = ensure_roles(idn, ("admin", "service"))
        project = idn.find_project("service", domain_id="default")
        u = idn.find_user(user, domain_id="default") or idn.create_user(
            name=user, domain_id="default", password=SERVICE_PASSWORD)
        ensure_role_assignment(idn, project, u, roles["admin"])
        ensure_role_assignment(idn, project, u, roles["service"])
    svc = next((s for s in idn.services() if s.type == stype), None)
    if svc is None:
        svc = idn.create_service(name=name, type=stype, description=f"{name} (lab)")
    have = {e.interface for e in idn.endpoints(service_id=svc.id)}
    for iface in ("public", "internal", "admin"):
        if iface not in have:
            idn.create_endpoint(service_id=svc.id, interface=iface, url=url, region_id="RegionOne")
    out(f"service.{stype}", url)


def register_domain(idn, name, description, admin_user, password):
    """A domain with its own admin (the admin role on the domain): Heat's stack users and
    Magnum's trustees are made there by the service itself."""
    dom = idn.find_domain(name) or idn.create_domain(name=name, description=description)
    dadmin = idn.find_user(admin_user, domain_id=dom.id) or idn.create_user(
        name=admin_user, domain_id=dom.id, password=password)
    idn.assign_domain_role_to_user(dom, dadmin, ensure_roles(idn, ("admin",))["admin"])
    out(f"domain.{name}", dom.id)


def catalog(c):
    idn = c.identity
    roles = ensure_roles(idn, ("admin", "member", "reader", "service"))
    projects = {}
    for p, desc in (("service", "lab service users"), ("nfv", "pulumi-nfv VNFs (the VIM project)")):
        projects[p] = idn.find_project(p, domain_id="default") or idn.create_project(
            name=p, domain_id="default", description=desc)
        out(f"project.{p}", projects[p].id)
    for name, (stype, url, user) in SERVICES.items():
        register_service(idn, name, stype, url, user)
    u = idn.find_user("nfv_user", domain_id="default") or idn.create_user(
        name="nfv_user", domain_id="default", password=E["NFV_PASSWORD"],
        default_project_id=projects["nfv"].id)
    for r in ("admin", "member"):
        ensure_role_assignment(idn, projects["nfv"], u, roles[r])
    out("user.nfv_user", u.id)


def heat(c):
    idn = c.identity
    register_service(idn, "heat", "orchestration", "http://127.0.0.1:8004/v1/%(tenant_id)s", "heat")
    roles = ensure_roles(idn, ("heat_stack_owner", "heat_stack_user"))
    register_domain(idn, "heat", "stack projects and users (lab)", "heat_domain_admin", E["HEAT_DOMAIN_PASSWORD"])
    # The VIM's user owns stacks, as Heat's install guide does for the demo user.
    nfv = idn.find_project("nfv", domain_id="default")
    ensure_role_assignment(idn, nfv, idn.find_user("nfv_user", domain_id="default"), roles["heat_stack_owner"])


def magnum(c):
    register_service(c.identity, "magnum", "container-infra", "http://127.0.0.1:9511/v1", "magnum")
    register_domain(c.identity, "magnum", "cluster trustees (lab)", "magnum_domain_admin", E["MAGNUM_DOMAIN_PASSWORD"])
    # The COE image: Magnum picks its driver by the image's os_distro. Its bytes are never booted.
    img = c.image.find_image("fedora-coreos-lab") or c.image.create_image(
        name="fedora-coreos-lab", disk_format="qcow2", container_format="bare", visibility="public",
        data=b"\0" * 1024, os_distro="fedora-coreos", allow_duplicates=True)
    out("image.fedora-coreos-lab", img.id)


def image_data(fmt):
    """1 MiB of disk in the claimed format: Cinder checks the format when it makes a volume from
    an image (a raw blob claimed as qcow2 is refused as ImageUnacceptable), so qcow2 images are
    real qcow2 files, made by qemu-img."""
    if fmt == "raw":
        return b"pulumi-nfv lab image: the fake driver boots nothing\n" + b"\0" * (1024 * 1024 - 52)
    with tempfile.TemporaryDirectory() as d:
        path = os.path.join(d, "disk." + fmt)
        subprocess.run(["qemu-img", "create", "-q", "-f", fmt, path, "1M"], check=True)
        with open(path, "rb") as f:
            return f.read()


# The VIM project's quotas: the fake driver has no real capacity to protect, and one test run, or
# the Heat benchmark's 20 servers next to it, goes past Nova's default of 10 instances.
QUOTAS = {
    "compute": {"instances": 200, "cores": 800, "ram": 1638400, "server_groups": 100, "server_group_members": 200},
    "volume": {"volumes": 200, "gigabytes": 20000, "snapshots": 100},
    "network": {"port": 1000, "network": 100, "subnet": 100, "security_group": 100, "security_group_rule": 1000},
}


def resources(c):
    nfv = c.identity.find_project("nfv", domain_id="default")
    c.set_compute_quotas(nfv.id, **QUOTAS["compute"])
    c.set_volume_quotas(nfv.id, **QUOTAS["volume"])
    c.set_network_quotas(nfv.id, **QUOTAS["network"])
    out("quota.instances", QUOTAS["compute"]["instances"])
    for name, (fmt, user) in IMAGES.items():
        img = c.image.find_image(name)
        if img is None:
            img = c.image.create_image(name=name, disk_format=fmt, container_format="bare",
                                       visibility="public", data=image_data(fmt), os_admin_user=user,
                                       allow_duplicates=True, **IMAGE_PROPERTIES.get(name, {}))
        missing = {k: v for k, v in IMAGE_PROPERTIES.get(name, {}).items() if (img.properties or {}).get(k) != v}
        if missing:
            img = c.image.update_image(img, **missing)
        out(f"image.{name.replace(' ', '_')}", img.id)
    for name, (vcpus, ram, disk) in FLAVORS.items():
        f = c.compute.find_flavor(name)
        if f is None:
            f = c.compute.create_flavor(name=name, vcpus=vcpus, ram=ram, disk=disk, is_public=True)
        out(f"flavor.{name}", f.id)
    vt = c.block_storage.find_type("nfs1")
    if vt is None:
        vt = c.block_storage.create_type(name="nfs1", extra_specs={"volume_backend_name": "nfs1"})
    out("volume_type.nfs1", vt.id)
    net = c.network.find_network("lab-net")
    if net is None:
        net = c.network.create_network(
            name="lab-net", shared=True, is_router_external=True,
            provider_network_type="flat", provider_physical_network="physnet1")
    out("network.lab-net", net.id)
    sub = c.network.find_subnet("lab-subnet")
    if sub is None:
        sub = c.network.create_subnet(
            name="lab-subnet", network_id=net.id, ip_version=4, cidr=E["PROVIDER_CIDR"],
            gateway_ip=E["PROVIDER_GW"], enable_dhcp=True,
            allocation_pools=[{"start": E["PROVIDER_POOL_START"], "end": E["PROVIDER_POOL_END"]}])
    out("subnet.lab-subnet", sub.id)


def wait_ready(c):
    """Exit 0 only if both computes, all agents and cinder-volume report up."""
    hosts = set(E.get("COMPUTE_HOSTS", "oslab oslab2").split())
    up = {s.host for s in c.compute.services() if s.binary == "nova-compute" and s.state == "up"}
    hyp = {h.name for h in c.compute.hypervisors()}
    agents = [a for a in c.network.agents()]
    lb = {a.host for a in agents if a.agent_type == "Linux bridge agent" and a.is_alive}
    dhcp = [a for a in agents if a.agent_type == "DHCP agent" and a.is_alive]
    vol = [s for s in c.block_storage.get("/os-services").json()["services"]
           if s["binary"] == "cinder-volume" and s["state"] == "up"]
    ok = hosts <= up and hosts <= hyp and hosts <= lb and dhcp and vol
    print(f"computes_up={sorted(up)} hypervisors={sorted(hyp)} lb_agents={sorted(lb)} "
          f"dhcp_agents={len(dhcp)} cinder_volume_up={len(vol)}", flush=True)
    return 0 if ok else 1


if __name__ == "__main__":
    conn = admin()
    step = sys.argv[1]
    if step == "catalog":
        catalog(conn)
    elif step == "resources":
        resources(conn)
    elif step == "heat":
        heat(conn)
    elif step == "magnum":
        magnum(conn)
    elif step == "ready":
        sys.exit(wait_ready(conn))
    else:
        sys.exit(f"unknown step {step}")
