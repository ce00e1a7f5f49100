# shellcheck shell=bash disable=SC2034  # settings are used by the scripts sourcing this file
# Shared settings and helpers for lab/openstack/{up,down,check}. Sourced, never executed.
#
# Every setting can be overridden from the environment; defaults are the lab's documented ones.

# The image's python3 may be pyenv's (no OpenStack modules there): always use the system tools.
export PATH=/usr/local/sbin:/usr/sbin:/usr/bin:/sbin:/bin
export LC_ALL=C.UTF-8

LAB_DIR="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
STATE_ROOT="${NFV_LAB_STATE:-/var/lib/pulumi-nfv-lab}"
S="$STATE_ROOT/openstack"                      # state dir: configs, data, logs, pids
CACHE="${NFV_LAB_CACHE:-/var/cache/pulumi-nfv-lab}"
# The VM hosts' Debian tree, made once and copied per VM host. Its packages are what the lab's
# "images" ship: the base system with sshd, plus the registry VNF's packages (VM hosts have no
# route to a Debian mirror, like an air-gapped site with a golden image), and the real tools the
# Kubernetes cluster's scripts use next to the stand-ins (openssl for the CA hash, haproxy -c and
# keepalived's config test). The cache is keyed by this list, so changing it makes a new tree.
ROOTFS_PACKAGES="openssh-server,sudo,iproute2,procps,e2fsprogs,docker-registry,apache2-utils,curl,openssl,haproxy,keepalived"
ROOTFS_CACHE="$CACHE/rootfs-bookworm-$(printf '%s' "$ROOTFS_PACKAGES" | sha256sum | cut -c1-12)"
DEBIAN_MIRROR="${NFV_LAB_DEBIAN_MIRROR:-}"     # empty: taken from /etc/apt/sources.list*
VM_USER="${NFV_LAB_VM_USER:-ubuntu}"           # image default user when the image has no os_admin_user
BRIDGE="${NFV_LAB_BRIDGE:-nfvlab0}"            # the lab bridge: VM hosts + provider network
PHYS0=osphys0                                  # veth end given to neutron (physnet1)
PHYS1=osphys1                                  # veth end enslaved to $BRIDGE
PROVIDER_CIDR="${NFV_LAB_PROVIDER_CIDR:-10.10.0.0/24}"
PROVIDER_GW="${NFV_LAB_PROVIDER_GW:-10.10.0.1}"
PROVIDER_POOL_START="${NFV_LAB_PROVIDER_POOL_START:-10.10.0.10}"
PROVIDER_POOL_END="${NFV_LAB_PROVIDER_POOL_END:-10.10.0.250}"
GUARD_CIDR="${NFV_LAB_GUARD_CIDR:-10.10.0.0/16}" # unreachable route: lab addresses never leave
REGION=RegionOne
COMPUTE_HOSTS=(oslab oslab2)                   # two fake hosts: anti-affinity needs two
NFS_SHARE="127.0.0.1:/oslab-export"
KEYSTONE_URL="http://127.0.0.1:5000/v3"
IPT_COMMENT="pulumi-nfv-lab"

log() { printf '%s [lab/openstack] %s\n' "$(date -u +%H:%M:%S)" "$*" >&2; }

# One `up` or `down` at a time: test/run-all starts the lab in the background while test files that
# need it call `up` too (phases side by side), and an `up` beside another would rewrite the files the
# other's services and clients read. The script re-executes itself under flock's -o, so the lock is
# held by the flock process alone and no daemon it starts inherits it; NFV_LAB_LOCKED marks the
# process tree that holds it (up's clear_stale_state runs down inside it).
LAB_LOCK=/run/lock/pulumi-nfv-lab-openstack.lock
hold_lab_lock() { # hold_lab_lock SCRIPT ARGS...: returns only in the process that holds the lock
  [[ -n ${NFV_LAB_LOCKED:-} ]] && return 0
  mkdir -p "$(dirname "$LAB_LOCK")"
  NFV_LAB_LOCKED=1 exec flock -o -w 3600 "$LAB_LOCK" "$@"
}

# write_file PATH: stdin to PATH by rename, so that a reader never sees it half-written.
write_file() {
  cat >"$1.tmp.$$" && mv -f "$1.tmp.$$" "$1"
}
die() { log "ERROR: $*"; exit 1; }

# pid files: $S/run/pids/<name>.pid, one per process this lab started (each in its own session).
pidfile() { printf '%s/run/pids/%s.pid' "$S" "$1"; }

running() { # running NAME: true if the recorded process is alive
  local f pid
  f="$(pidfile "$1")"
  [[ -s "$f" ]] || return 1
  pid="$(<"$f")"
  kill -0 "$pid" 2>/dev/null || return 1
  # guard against pid reuse: the process must still be one of ours (session leader we started)
  [[ "$(ps -o sid= -p "$pid" | tr -d ' ')" == "$pid" ]]
}

# start NAME CMD...: start CMD in its own session, stdout/stderr to $S/log/NAME.log, record its pid.
start() {
  local name="$1"; shift
  if running "$name"; then log "$name already running (pid $(<"$(pidfile "$name")"))"; return 0; fi
  setsid "$@" </dev/null >>"$S/log/$name.log" 2>&1 &
  echo $! >"$(pidfile "$name")"
  log "started $name (pid $!)"
  disown "$!"   # not this shell's job: its end (a restart's kill) is not reported here
}

# restart NAME START_FUNCTION: stop the recorded process's session (TERM, KILL after 15 s), start it again.
restart() {
  local name="$1" pid i
  if running "$name"; then
    pid="$(<"$(pidfile "$name")")"
    kill -TERM -- "-$pid" 2>/dev/null || true
    for ((i = 0; i < 15; i++)); do running "$name" || break; sleep 1; done
    if running "$name"; then kill -KILL -- "-$pid" 2>/dev/null || true; sleep 1; fi
  fi
  rm -f "$(pidfile "$name")"
  "$2"
}

port_open() { (exec 3<>"/dev/tcp/127.0.0.1/$1") 2>/dev/null; }

wait_for() { # wait_for SECONDS DESCRIPTION CMD...: poll CMD every second
  local t="$1" what="$2" i; shift 2
  for ((i = 0; i < t; i++)); do
    if "$@" >/dev/null 2>&1; then return 0; fi
    sleep 1
  done
  die "timed out after ${t}s waiting for $what"
}

# Lab credentials (generated on first up, kept in the state dir, mode 600).
load_secrets() {
  # shellcheck source=/dev/null
  [[ -s "$S/secrets.env" ]] && . "$S/secrets.env"
  return 0
}

admin_env() {
  export OS_AUTH_URL="$KEYSTONE_URL" OS_IDENTITY_API_VERSION=3 OS_REGION_NAME="$REGION"
  export OS_USERNAME=admin OS_PASSWORD="$ADMIN_PASSWORD" OS_PROJECT_NAME=admin
  export OS_USER_DOMAIN_NAME=Default OS_PROJECT_DOMAIN_NAME=Default OS_INTERFACE=public
}

# md5 of the share string: the directory os-brick expects the NFS share to be mounted on.
nfs_mount_dir() { printf '%s/data/cinder/mnt/%s' "$S" "$(printf '%s' "$NFS_SHARE" | md5sum | cut -d' ' -f1)"; }
