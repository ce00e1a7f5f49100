# shellcheck shell=bash
# Installs Debian packages that are missing, without letting their maintainer scripts start
# services on this machine (policy-rc.d): the lab and the tests start what they need themselves,
# where they need it (e.g. docker-registry inside a lab host). Callers define log.

install_debian_packages() {
  local missing=() p
  for p in "$@"; do
    dpkg-query -W -f='${Status}' "$p" 2>/dev/null | grep -q "install ok installed" || missing+=("$p")
  done
  ((${#missing[@]} == 0)) && return 0
  log "apt-get install ${missing[*]}"
  apt-get update -qq
  printf '#!/bin/sh\nexit 101\n' >/usr/sbin/policy-rc.d
  chmod +x /usr/sbin/policy-rc.d
  local rc=0
  DEBIAN_FRONTEND=noninteractive apt-get install -y -qq --no-install-recommends "${missing[@]}" >/dev/null || rc=$?
  rm -f /usr/sbin/policy-rc.d
  return "$rc"
}
