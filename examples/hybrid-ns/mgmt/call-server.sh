#!/usr/bin/env bash
# The client VNF's hook (instantiate_end, heal_end): calls the server CNF over the NS virtual link
# and appends the answer to /var/log/nfv-client.log. Its parameters come on stdin as key=value
# lines (the stack config's hook_parameters, which the NS resolves from the server's outputs):
#   server_address   an address of a node of the server's cluster on the link
#   server_port      the server Service's node port
set -euo pipefail
address="" port=""
while IFS='=' read -r key value; do
  case "$key" in
    server_address) address=$value ;;
    server_port) port=$value ;;
  esac
done
[[ $address =~ ^[0-9A-Fa-f.:]+$ ]] || { echo "server_address: not an IP address: '$address'" >&2; exit 2; }
[[ $port =~ ^[0-9]+$ ]] || { echo "server_port: not a port: '$port'" >&2; exit 2; }
[[ $address == *:* ]] && address="[$address]"
# The server's pods may still be starting when the hook runs: retry for about a minute.
answer=$(curl -fsS --max-time 5 --retry 20 --retry-delay 3 --retry-all-errors "http://$address:$port/")
printf '%s %s %s\n' "$(date +%s.%N)" "${1:-none}" "$answer" >>/var/log/nfv-client.log
echo "answer=$answer"
