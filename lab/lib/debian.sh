# shellcheck shell=bash
# Installs Debian packages that are missing, without letting their maintainer scripts start
# services on this machine (policy-rc.d): the lab and the tests start what they need themselves,
# where they need it (e.g. docker-registry inside a lab host). Callers define log.
#
# The lab's scripts may install at the same moment (the lab OpenStack's packages while a test file
# makes a lab host): one install at a time, under a lock, because policy-rc.d is shared and apt's
# own locks would make the second apt-get fail.
APT_LOCK=/run/lock/pulumi-nfv-apt.lock

missing_debian_packages() {
  local p
  for p in "$@"; do
    dpkg-query -W -f='${Status}' "$p" 2>/dev/null | grep -q "install ok installed" || echo "$p"
  done
}

install_debian_packages() {
  local missing=() lock rc=0 made_policy=0
  mapfile -t missing < <(missing_debian_packages "$@")
  ((${#missing[@]} == 0)) && return 0
  exec {lock}>"$APT_LOCK"
  flock -w 1800 "$lock" || { log "another install held $APT_LOCK for 30 min"; return 1; }
  # What the install before ours brought.
  mapfile -t missing < <(missing_debian_packages "${missing[@]}")
  if ((${#missing[@]} > 0)); then
    log "apt-get install ${missing[*]}"
    if [[ ! -e /usr/sbin/policy-rc.d ]]; then
      printf '#!/bin/sh\nexit 101\n' >/usr/sbin/policy-rc.d
      chmod 755 /usr/sbin/policy-rc.d
      made_policy=1
    fi
    apt-get update -qq || rc=$?
    ((rc == 0)) && { DEBIAN_FRONTEND=noninteractive apt-get install -y -qq --no-install-recommends \
      -o Dpkg::Options::=--force-confdef -o Dpkg::Options::=--force-confold "${missing[@]}" || rc=$?; }
    ((made_policy)) && rm -f /usr/sbin/policy-rc.d
  fi
  exec {lock}>&-
  return "$rc"
}
