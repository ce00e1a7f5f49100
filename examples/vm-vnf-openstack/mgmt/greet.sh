#!/usr/bin/env bash
# The example's instantiate_end hook, run on the VM over SSH: appends the operation (its argument)
# and the greeting to /var/log/example-greeter.log. The greeting comes on stdin as a key=value
# line (`greeting=...`), as data: the program never writes it into this script or a command line.
set -euo pipefail
greeting=""
while IFS='=' read -r key value; do
  [[ $key == greeting ]] && greeting=$value
done
[[ $greeting =~ ^[A-Za-z0-9\ ,.!-]{1,80}$ ]] || { echo "greeting: 1 to 80 letters, digits, spaces or , . ! -" >&2; exit 2; }
printf '%s %s\n' "${1:-none}" "$greeting" >>/var/log/example-greeter.log
echo "greeted=$greeting"
