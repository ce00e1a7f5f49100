# shellcheck shell=bash
# await_exec PID CHECK...: after a lab script has started a service with `setsid BIN ... &`, true
# once CHECK (a test of what PID runs: its /proc/PID/exe or cmdline) succeeds, false as soon as PID
# has ended, false after 10 s. Until its exec, PID is a copy of the starting shell, whose exe and
# cmdline are that shell's: a check made at once called a service that was about to run gone. It
# did, beside CI's other work: lab/oidc/up ("glewlwyd exited", an empty log) and lab/k8s/up (etcd
# "exited", the up failing in 2 s).
await_exec() {
  local pid="$1" state i
  shift
  for ((i = 0; i < 200; i++)); do
    "$@" >/dev/null 2>&1 && return 0
    # The third field of /proc/PID/stat (the name before it holds no space here): Z or X once ended.
    state="$(awk '{print $3}' "/proc/$pid/stat" 2>/dev/null || true)"
    [[ -n "$state" && "$state" != Z && "$state" != X ]] || return 1
    sleep 0.05
  done
  return 1
}
