#!/usr/bin/env bash
# Shell tests for `npm test`: shellcheck on every shell script (mgmt/, lab/, tools/, the examples' mgmt/, test/, .ci/; by shebang),
# then bats on test/bats. Needs the Debian packages `shellcheck` and `bats`
# (`apt-get install -y shellcheck bats`, done by test/run-all). Prints key=value totals; exits 1 on any failure.
set -euo pipefail

require_tools() {
  local t missing=()
  for t in shellcheck bats; do command -v "$t" >/dev/null 2>&1 || missing+=("$t"); done
  if (( ${#missing[@]} > 0 )); then
    echo "run-shell-tests: missing ${missing[*]}: apt-get install -y shellcheck bats" >&2
    exit 1
  fi
}

run_shellcheck() {
  local files=() f failed=0
  # Every shell script, whatever its name: *.sh, and files whose first line names bash or sh.
  while IFS= read -r -d '' f; do
    if [[ "$f" == *.sh ]] || head -n 1 "$f" | grep -qE '^#!(/usr/bin/env |/bin/)(ba)?sh'; then files+=("$f"); fi
  done < <(find mgmt lab tools examples/*/mgmt test/bats/stubs test/run-shell-tests.sh test/run-all .ci -type f -print0 | sort -z)
  for f in "${files[@]}"; do
    shellcheck -x "$f" || failed=$((failed + 1))
  done
  echo "shellcheck_files=${#files[@]}"
  echo "shellcheck_failed=$failed"
  (( failed == 0 ))
}

# The TAP stream is kept for the closing "N passed, N failed" line (test/tools/summarize.mjs).
# NFV_BATS_DEFERRED: bats files (names, space-separated) left out here because the caller runs them
# later, once what they need is built (test/run-all: the lab node files after its background build).
run_bats() {
  local files=() f
  mkdir -p .test-results
  for f in test/bats/*.bats; do
    [[ " ${NFV_BATS_DEFERRED:-} " == *" $(basename "$f") "* ]] || files+=("$f")
  done
  bats --tap "${files[@]}" | tee .test-results/shell.tap
}

main() {
  cd "$(dirname "$0")/.."
  require_tools
  local rc=0
  run_shellcheck || rc=1
  run_bats || rc=1
  echo "shell_tests_status=$([[ $rc -eq 0 ]] && echo passed || echo failed)"
  return "$rc"
}

main "$@"
