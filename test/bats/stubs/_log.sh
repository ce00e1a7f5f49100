#!/usr/bin/env bash
# Sourced by every stub: records "name args..." in $STUB_LOG (one line per call).
set -euo pipefail
: "${STUB_STATE:?}" "${STUB_LOG:?}"
mkdir -p "$STUB_STATE"
{ printf '%s' "$(basename "$0")"; printf ' %s' "$@"; printf '\n'; } >>"$STUB_LOG"
