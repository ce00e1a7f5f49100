#!/usr/bin/env bash
# Builds the binaries of the lab Kubernetes API from Go source, through the Go
# module proxy only, into a version-keyed cache outside the repository:
#
#   ${NFV_CACHE:-$HOME/.cache/pulumi-nfv}/k8s/<component>-<version>/bin/<binary>
#
#   lab/k8s/build.sh                      # everything
#   lab/k8s/build.sh etcd kwok            # only some components
#
# Components: kubernetes (= kube-apiserver kube-controller-manager kube-scheduler
# kubectl kubelet kubeadm kube-proxy, each its own cache entry; the last three are for the node
# image, lab/nodes), etcd, etcdctl, kwok. A component whose binaries are already in the cache is
# skipped (a second run is instant). Each build happens in a temp dir that is
# renamed into place only when complete. Builds run at `nice -n ${NFV_GO_NICE:-19}` with
# `go build -p ${NFV_GO_P:-1}` so they only take idle CPU. See README.md.
set -euo pipefail
# shellcheck source-path=SCRIPTDIR source=../lib/go-proxy.sh
. "$(dirname "${BASH_SOURCE[0]}")/../lib/go-proxy.sh"

# ---------------------------------------------------------------- versions --
K8S_VERSION=v1.34.4            # k8s.io/kubernetes
K8S_STAGING_VERSION=v0.34.4    # its staging modules k8s.io/* (same minor/patch)
# Build order (each its own cache entry); NFV_K8S_BINARIES narrows it.
read -r -a K8S_BINARIES <<<"${NFV_K8S_BINARIES:-kube-apiserver kube-controller-manager kube-scheduler kubectl kubelet kubeadm kube-proxy}"
ETCD_VERSION=v3.6.4            # go.etcd.io/etcd/server/v3 (etcdmain); = the etcd client of k8s 1.34.4
KWOK_VERSION=v0.8.0            # sigs.k8s.io/kwok
ALL_COMPONENTS=(kubernetes etcd etcdctl kwok)

# ------------------------------------------------------------------ layout --
NFV_CACHE="${NFV_CACHE:-$HOME/.cache/pulumi-nfv}"
K8S_CACHE="$NFV_CACHE/k8s"
WORK_DIR="$K8S_CACHE/.work"
GO_P="${NFV_GO_P:-1}"
GO_NICE="${NFV_GO_NICE:-19}"
SCRIPT_START=$SECONDS
FAILED=()
DONE=()

log() { printf '[%s] %s\n' "$(date -u '+%Y-%m-%dT%H:%M:%SZ')" "$*"; }
die() { log "ERROR: $*" >&2; exit 1; }

# ----------------------------------------------------------------- helpers --
# Module proxy only: drop "direct"/"off" from GOPROXY; local toolchain; no cgo.
setup_go_env() {
  use_module_proxy_only
  mkdir -p "$K8S_CACHE" "$WORK_DIR"
  log "go: $(go env GOVERSION), GOPROXY=$GOPROXY, cache: $K8S_CACHE, go build -p $GO_P"
}

# True when every binary named after the entry is in the cache.
cached() {
  local entry="$1" bin
  shift
  for bin in "$@"; do [[ -x "$K8S_CACHE/$entry/bin/$bin" ]] || return 1; done
}

# A fresh wrapper module dir for ENTRY (unique: two builds may run at once);
# prints its path.
new_wrapper() {
  mktemp -d "$WORK_DIR/$1.XXXXXX"
}

# go build PKGS into a temp entry, then rename it into place. When set,
# BUILD_EXTRA names a function run with the temp entry dir before the rename.
# Usage (inside the wrapper module): build_into ENTRY "LDFLAGS" PKG...
build_into() {
  local entry="$1" ldflags="$2" final tmp start
  shift 2
  final="$K8S_CACHE/$entry"
  tmp="$(mktemp -d "$K8S_CACHE/.tmp-$entry.XXXXXX")"
  mkdir -p "$tmp/bin"
  start=$SECONDS
  log "  nice -n $GO_NICE go build -p $GO_P $* -> $entry/bin/"
  if ! nice -n "$GO_NICE" go build -p "$GO_P" -trimpath -ldflags "-s -w $ldflags" -o "$tmp/bin/" "$@" ||
    ! "${BUILD_EXTRA:-true}" "$tmp"; then
    rm -rf "$tmp"
    return 1
  fi
  {
    echo "entry: $entry"
    echo "built: $(date -u '+%Y-%m-%dT%H:%M:%SZ')"
    echo "build_seconds: $((SECONDS - start))"
    echo "go: $(go env GOVERSION)"
    echo "packages: $*"
    echo "ldflags: -s -w $ldflags"
    echo "--- go.mod (as built)"
    cat go.mod
  } >"$tmp/BUILDINFO"
  rm -rf "$final"
  mv -T "$tmp" "$final"
  log "  done in $((SECONDS - start))s: $(cd "$final/bin" && du -h -- * | tr '\t\n' ': ')"
}

ok() { DONE+=("$1: $K8S_CACHE/$2 ($3)"); log "$1: $3 ($K8S_CACHE/$2)"; }
fail() { FAILED+=("$1: $2"); log "FAILED $1: $2"; }

# ------------------------------------------------------------------- steps --
# k8s.io/kubernetes replaces its staging modules with ./staging/src/k8s.io/*,
# which a dependent module cannot use. The wrapper requires k8s.io/kubernetes
# and replaces every staging module with its published v0.Y.Z release.
_kubernetes_wrapper() {
  local modfile staging m
  modfile="$(go mod download -json "k8s.io/kubernetes@$K8S_VERSION" | sed -n 's/^[[:space:]]*"GoMod": "\(.*\)",$/\1/p')"
  [[ -f "$modfile" ]] || { log "  proxy refused k8s.io/kubernetes@$K8S_VERSION"; return 1; }
  mapfile -t staging < <(awk '$2 == "=>" && $3 ~ /^\.\/staging\// {print $1}' "$modfile")
  log "  ${#staging[@]} staging modules -> $K8S_STAGING_VERSION"
  go mod init nfv-lab/kubernetes-wrapper >/dev/null 2>&1
  # Keep the Go language version and GODEBUG defaults Kubernetes is built with.
  go mod edit -go="$(awk '$1 == "go" {print $2; exit}' "$modfile")"
  if grep -q '^godebug ' "$modfile"; then
    go mod edit -godebug="$(awk '$1 == "godebug" {print $2; exit}' "$modfile")"
  fi
  go mod edit -require="k8s.io/kubernetes@$K8S_VERSION"
  for m in "${staging[@]}"; do
    go mod edit -replace="$m=$m@$K8S_STAGING_VERSION"
  done
  # Resolve the whole graph for the commands (fills go.mod/go.sum).
  local pkgs=()
  for m in "${K8S_BINARIES[@]}"; do pkgs+=("k8s.io/kubernetes/cmd/$m@$K8S_VERSION"); done
  go get "${pkgs[@]}" || return 1
}

# The wrapper module of this run, made on first use (by kubernetes or etcd); main removes it.
K8S_WRAPPER=""
kubernetes_wrapper() {
  [[ -z "$K8S_WRAPPER" ]] || return 0
  local dir
  log "kubernetes: k8s.io/kubernetes@$K8S_VERSION wrapper module"
  dir="$(new_wrapper "kubernetes-$K8S_VERSION")"
  (cd "$dir" && _kubernetes_wrapper) || { rm -rf "$dir"; return 1; }
  K8S_WRAPPER="$dir"
}

# One cache entry per binary (<binary>-<version>/bin/<binary>), built in
# priority order, so that each finished binary is kept even if a later one is
# interrupted; the go build cache is shared between them.
build_kubernetes() {
  local ver="${K8S_VERSION#v}" ld p bin failed=0
  ld=""
  for p in k8s.io/component-base/version k8s.io/client-go/pkg/version; do
    ld+=" -X $p.gitVersion=$K8S_VERSION -X $p.gitMajor=${ver%%.*}"
    ld+=" -X $p.gitMinor=$(cut -d. -f2 <<<"$ver") -X $p.gitTreeState=clean"
    ld+=" -X $p.buildDate=$(date -u '+%Y-%m-%dT%H:%M:%SZ')"
  done
  for bin in "${K8S_BINARIES[@]}"; do
    if cached "$bin-$K8S_VERSION" "$bin"; then ok "$bin" "$bin-$K8S_VERSION" cached; continue; fi
    kubernetes_wrapper || { fail kubernetes "module resolution failed (see above)"; return 1; }
    log "$bin: k8s.io/kubernetes/cmd/$bin@$K8S_VERSION"
    if (cd "$K8S_WRAPPER" && build_into "$bin-$K8S_VERSION" "$ld" "k8s.io/kubernetes/cmd/$bin"); then
      ok "$bin" "$bin-$K8S_VERSION" built
    else
      fail "$bin" "go build k8s.io/kubernetes/cmd/$bin failed"
      failed=1
    fi
  done
  return "$failed"
}

# etcd 3.6's server module has etcdmain; its binary's main is a one-liner. It is built in the
# Kubernetes wrapper module: that graph already holds the server module at ETCD_VERSION (Kubernetes'
# own tests use it), so etcd only adds modules, changes no version the kube-* binaries are built
# with, and the etcd client, grpc and the rest it shares with kube-apiserver compile once.
build_etcd() {
  local entry="etcd-$ETCD_VERSION" selected
  if cached "$entry" etcd; then ok etcd "$entry" cached; return 0; fi
  kubernetes_wrapper || { fail etcd "module resolution failed (see above)"; return 1; }
  selected="$(cd "$K8S_WRAPPER" && go list -m -f '{{.Version}}' go.etcd.io/etcd/server/v3)" || selected=none
  if [[ "$selected" != "$ETCD_VERSION" ]]; then
    fail etcd "k8s.io/kubernetes@$K8S_VERSION selects go.etcd.io/etcd/server/v3 $selected, not ETCD_VERSION=$ETCD_VERSION"
    return 1
  fi
  log "etcd: go.etcd.io/etcd/server/v3@$ETCD_VERSION, in the Kubernetes wrapper module"
  if ! (
    cd "$K8S_WRAPPER" &&
      mkdir -p etcd &&
      printf '%s\n' 'package main' '' 'import (' '	"os"' '' \
        '	"go.etcd.io/etcd/server/v3/etcdmain"' ')' '' \
        'func main() { etcdmain.Main(os.Args) }' >etcd/main.go &&
      go get "go.etcd.io/etcd/server/v3@$ETCD_VERSION" &&
      build_into "$entry" "" ./etcd
  ); then
    fail etcd "go.etcd.io/etcd/server/v3@$ETCD_VERSION did not resolve or build"
    return 1
  fi
  ok etcd "$entry" built
}

# etcdctl (for the node image: what a control-plane node's operator runs), in the same wrapper
# module as etcd, at ETCD_VERSION.
build_etcdctl() {
  local entry="etcdctl-$ETCD_VERSION"
  if cached "$entry" etcdctl; then ok etcdctl "$entry" cached; return 0; fi
  kubernetes_wrapper || { fail etcdctl "module resolution failed (see above)"; return 1; }
  log "etcdctl: go.etcd.io/etcd/etcdctl/v3@$ETCD_VERSION, in the Kubernetes wrapper module"
  if ! (
    cd "$K8S_WRAPPER" &&
      go get "go.etcd.io/etcd/etcdctl/v3@$ETCD_VERSION" &&
      build_into "$entry" "" go.etcd.io/etcd/etcdctl/v3
  ); then
    fail etcdctl "go.etcd.io/etcd/etcdctl/v3@$ETCD_VERSION did not resolve or build"
    return 1
  fi
  ok etcdctl "$entry" built
}

# kwok has no built-in stages: ship the upstream "fast" node/pod stages and the
# lease heartbeat (what kwokctl uses by default) from the module, next to the binary.
KWOK_STAGES=(node/fast/node-initialize.yaml node/heartbeat-with-lease/node-heartbeat-with-lease.yaml
  pod/fast/pod-ready.yaml pod/fast/pod-complete.yaml pod/fast/pod-delete.yaml)
_kwok_stages() {
  local src f
  src="$(go list -m -f '{{.Dir}}' sigs.k8s.io/kwok)/kustomize/stage"
  mkdir -p "$1/stages"
  for f in "${KWOK_STAGES[@]}"; do
    { echo "---"; cat "$src/$f"; } >>"$1/stages/kwok-stages.yaml" || return 1
  done
}

build_kwok() {
  local entry="kwok-$KWOK_VERSION" dir
  if cached "$entry" kwok && [[ -f "$K8S_CACHE/$entry/stages/kwok-stages.yaml" ]]; then ok kwok "$entry" cached; return 0; fi
  log "kwok: sigs.k8s.io/kwok@$KWOK_VERSION"
  dir="$(new_wrapper "$entry")"
  if ! (
    cd "$dir" &&
      go mod init nfv-lab/kwok >/dev/null 2>&1 &&
      go get "sigs.k8s.io/kwok/cmd/kwok@$KWOK_VERSION" &&
      BUILD_EXTRA=_kwok_stages build_into "$entry" "" sigs.k8s.io/kwok/cmd/kwok
  ); then
    fail kwok "sigs.k8s.io/kwok@$KWOK_VERSION did not resolve or build"
    return 1
  fi
  rm -rf "$dir"
  ok kwok "$entry" built
}

summary() {
  local line
  log "summary after $((SECONDS - SCRIPT_START))s"
  for line in "${DONE[@]}"; do log "  ok   $line"; done
  for line in "${FAILED[@]}"; do log "  FAIL $line"; done
  ((${#FAILED[@]} == 0))
}

main() {
  local comps=("$@") c
  ((${#comps[@]})) || comps=("${ALL_COMPONENTS[@]}")
  setup_go_env
  for c in "${comps[@]}"; do
    case "$c" in
      kubernetes | etcd | etcdctl | kwok) "build_$c" || true ;;
      *) die "unknown component: $c (one of: ${ALL_COMPONENTS[*]})" ;;
    esac
  done
  [[ -z "$K8S_WRAPPER" ]] || rm -rf "$K8S_WRAPPER"
  summary
}

main "$@"
