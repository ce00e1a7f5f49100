# shellcheck shell=bash
# Config files for every service, written under $S/etc (never /etc). Sourced by `up`.
# Needs: S, DB_PASSWORD, SERVICE_PASSWORD (from secrets.env) and lib/common.sh.

db_url() { printf 'mysql+pymysql://oslab:%s@127.0.0.1/%s?charset=utf8' "$DB_PASSWORD" "$1"; }

RABBIT_URL="rabbit://guest:guest@127.0.0.1:5672/"

authtoken() { # authtoken USER: keystonemiddleware section for a service user
  cat <<EOT
[keystone_authtoken]
www_authenticate_uri = http://127.0.0.1:5000
auth_url = http://127.0.0.1:5000
auth_type = password
project_domain_name = Default
user_domain_name = Default
project_name = service
username = $1
password = $SERVICE_PASSWORD
service_token_roles_required = true
EOT
}

svc_auth() { # svc_auth SECTION USER: a keystoneauth password section (nova's [neutron], etc.)
  cat <<EOT
[$1]
auth_type = password
auth_url = http://127.0.0.1:5000/v3
project_domain_name = Default
user_domain_name = Default
project_name = service
username = $2
password = $SERVICE_PASSWORD
region_name = $REGION
EOT
}

# uwsgi_ini NAME PORT WSGI_FILE ENV PROCESSES THREADS
uwsgi_ini() {
  cat <<EOT
[uwsgi]
http-socket = 127.0.0.1:$2
wsgi-file = $3
env = $4
master = true
processes = $5
threads = $6
die-on-term = true
need-app = true
buffer-size = 65535
# keystoneauth/requests reuse sockets that uwsgi's http-socket has already closed
add-header = Connection: close
logto = $S/log/$1-uwsgi.log
EOT
}

write_keystone_conf() {
  mkdir -p "$S/etc/keystone"
  cat >"$S/etc/keystone/keystone.conf" <<EOT
[DEFAULT]
log_file = $S/log/keystone.log
[database]
connection = $(db_url keystone)
[token]
provider = fernet
[fernet_tokens]
key_repository = $S/data/keystone/fernet-keys
[credential]
key_repository = $S/data/keystone/credential-keys
[identity]
password_hash_rounds = 4
EOT
  uwsgi_ini keystone 5000 /usr/bin/keystone-wsgi-public \
    "OS_KEYSTONE_CONFIG_FILES=$S/etc/keystone/keystone.conf" 1 4 >"$S/etc/keystone/uwsgi.ini"
}

write_glance_conf() {
  mkdir -p "$S/etc/glance"
  cat >"$S/etc/glance/glance-api.conf" <<EOT
[DEFAULT]
bind_host = 127.0.0.1
bind_port = 9292
workers = 1
log_file = $S/log/glance-api.log
enabled_backends = fs:file
[database]
connection = $(db_url glance)
$(authtoken glance)
[paste_deploy]
config_file = /etc/glance/glance-api-paste.ini
flavor = keystone
[glance_store]
default_backend = fs
[fs]
filesystem_store_datadir = $S/data/glance/images
[os_glance_staging_store]
filesystem_store_datadir = $S/data/glance/staging
[os_glance_tasks_store]
filesystem_store_datadir = $S/data/glance/tasks
[oslo_concurrency]
lock_path = $S/data/glance/lock
EOT
}

write_placement_conf() {
  mkdir -p "$S/etc/placement"
  cat >"$S/etc/placement/placement.conf" <<EOT
[DEFAULT]
log_file = $S/log/placement.log
[placement_database]
connection = $(db_url placement)
[api]
auth_strategy = keystone
$(authtoken placement)
EOT
  uwsgi_ini placement 8778 /usr/bin/placement-api "OS_PLACEMENT_CONFIG_DIR=$S/etc/placement" 1 2 \
    >"$S/etc/placement/uwsgi.ini"
}

nova_common() { # the parts every nova process shares (no database: computes get none)
  cat <<EOT
[DEFAULT]
transport_url = $RABBIT_URL
my_ip = 127.0.0.1
state_path = $S/data/nova
[api]
auth_strategy = keystone
$(authtoken nova)
$(svc_auth placement placement)
$(svc_auth neutron neutron)
$(svc_auth cinder cinder)
[glance]
region_name = $REGION
[service_user]
send_service_user_token = true
auth_type = password
auth_url = http://127.0.0.1:5000/v3
project_domain_name = Default
user_domain_name = Default
project_name = service
username = nova
password = $SERVICE_PASSWORD
[oslo_concurrency]
lock_path = $S/data/nova/lock
[vnc]
enabled = false
[wsgi]
api_paste_config = $S/etc/nova/api-paste.ini
EOT
}

write_nova_conf() {
  mkdir -p "$S/etc/nova"
  cp /etc/nova/api-paste.ini "$S/etc/nova/api-paste.ini"
  { nova_common; cat <<EOT
[api_database]
connection = $(db_url nova_api)
[database]
connection = $(db_url nova)
[scheduler]
discover_hosts_in_cells_interval = 10
workers = 1
[conductor]
workers = 1
EOT
  } >"$S/etc/nova/nova.conf"
  # computes: the fake driver whose destroy takes the VM host down (lib/nova_compute.py), no
  # [database] (else "No DB access allowed in nova-compute")
  { nova_common; cat <<EOT
[DEFAULT]
compute_driver = lab.LabDriver
vif_plugging_is_fatal = False
vif_plugging_timeout = 0
reserved_host_memory_mb = 0
# FakeDriver reports 8 vCPU / 8000 MB / 500 GB per host: overcommit so 20+ servers fit
cpu_allocation_ratio = 64.0
ram_allocation_ratio = 40.0
disk_allocation_ratio = 40.0
EOT
  } >"$S/etc/nova/nova-compute.conf"
  local h
  for h in "${COMPUTE_HOSTS[@]}"; do
    mkdir -p "$S/data/nova-$h"
    cat >"$S/etc/nova/host-$h.conf" <<EOT
[DEFAULT]
host = $h
state_path = $S/data/nova-$h
instances_path = $S/data/nova-$h/instances
log_file = $S/log/nova-compute-$h.log
[oslo_concurrency]
lock_path = $S/data/nova-$h/lock
EOT
  done
  uwsgi_ini nova-api 8774 /usr/bin/nova-api-wsgi "OS_NOVA_CONFIG_DIR=$S/etc/nova" 2 1 \
    >"$S/etc/nova/uwsgi.ini"
}

write_neutron_conf() {
  mkdir -p "$S/etc/neutron"
  cat >"$S/etc/neutron/neutron.conf" <<EOT
[DEFAULT]
core_plugin = ml2
service_plugins = router
transport_url = $RABBIT_URL
auth_strategy = keystone
bind_host = 127.0.0.1
bind_port = 9696
api_workers = 1
rpc_workers = 1
rpc_state_report_workers = 0
state_path = $S/data/neutron
api_paste_config = /etc/neutron/api-paste.ini
notify_nova_on_port_status_changes = true
notify_nova_on_port_data_changes = true
dhcp_agents_per_network = 1
[database]
connection = $(db_url neutron)
$(authtoken neutron)
$(svc_auth nova nova)
[oslo_concurrency]
lock_path = $S/data/neutron/lock
[agent]
root_helper = sudo neutron-rootwrap /etc/neutron/rootwrap.conf
root_helper_daemon = sudo neutron-rootwrap-daemon /etc/neutron/rootwrap.conf
[experimental]
linuxbridge = true
EOT
  cat >"$S/etc/neutron/ml2_conf.ini" <<EOT
[ml2]
type_drivers = flat,vxlan
tenant_network_types = vxlan
mechanism_drivers = linuxbridge,l2population
extension_drivers = port_security
[ml2_type_flat]
flat_networks = physnet1
[ml2_type_vxlan]
vni_ranges = 1:1000
[securitygroup]
enable_ipset = true
EOT
  local h
  for h in "${COMPUTE_HOSTS[@]}"; do
    cat >"$S/etc/neutron/linuxbridge-$h.ini" <<EOT
[DEFAULT]
host = $h
[linux_bridge]
physical_interface_mappings = physnet1:$PHYS0
[vxlan]
enable_vxlan = true
local_ip = 127.0.0.1
l2_population = true
[securitygroup]
enable_security_group = true
firewall_driver = iptables
EOT
  done
  cat >"$S/etc/neutron/dhcp_agent.ini" <<EOT
[DEFAULT]
host = ${COMPUTE_HOSTS[0]}
interface_driver = linuxbridge
enable_isolated_metadata = false
force_metadata = false
dnsmasq_local_resolv = false
EOT
}

write_cinder_conf() {
  mkdir -p "$S/etc/cinder"
  echo "$NFS_SHARE" >"$S/etc/cinder/nfs_shares"
  cat >"$S/etc/cinder/cinder.conf" <<EOT
[DEFAULT]
transport_url = $RABBIT_URL
auth_strategy = keystone
my_ip = 127.0.0.1
host = oslab
osapi_volume_listen = 127.0.0.1
osapi_volume_listen_port = 8776
osapi_volume_workers = 1
state_path = $S/data/cinder
api_paste_config = /etc/cinder/api-paste.ini
rootwrap_config = /etc/cinder/rootwrap.conf
enabled_backends = nfs1
default_volume_type = nfs1
[database]
connection = $(db_url cinder)
$(authtoken cinder)
$(svc_auth nova nova)
[oslo_concurrency]
lock_path = $S/data/cinder/lock
[nfs1]
volume_driver = cinder.volume.drivers.nfs.NfsDriver
volume_backend_name = nfs1
nfs_shares_config = $S/etc/cinder/nfs_shares
nfs_mount_point_base = $S/data/cinder/mnt
nfs_sparsed_volumes = true
nas_secure_file_permissions = false
nas_secure_file_operations = false
EOT
}

write_configs() {
  write_keystone_conf
  write_glance_conf
  write_placement_conf
  write_nova_conf
  write_neutron_conf
  write_cinder_conf
}
