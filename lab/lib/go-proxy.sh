# shellcheck shell=bash
# Go builds of the lab use the Go module proxy only: "direct" and "off" are dropped from GOPROXY
# (direct would reach the VCS hosts), the local toolchain is used, cgo is off and modules are
# resolved from go.mod. Sourced by lab/toolchain/build.sh and lab/k8s/build.sh; callers define die.

use_module_proxy_only() {
  command -v go >/dev/null || die "go not found on PATH (expected /usr/local/go/bin)"
  local proxy entry entries out=()
  proxy="$(go env GOPROXY)"
  IFS='|,' read -r -a entries <<<"$proxy"
  for entry in "${entries[@]}"; do
    case "$entry" in direct | off | "") ;; *) out+=("$entry") ;; esac
  done
  ((${#out[@]})) || die "GOPROXY ($proxy) names no module proxy"
  GOPROXY="$(IFS=,; echo "${out[*]}")"
  # The same compile flags for every build of the lab, `go run` and `go build` alike: the build
  # cache reuses a package only when its flags match too (-trimpath is part of its key).
  # -dwarf=false: the binaries are stripped (-ldflags -s -w) anyway, and not generating the debug
  # info cut the compile CPU of k8s.io/client-go and its deps by 14 % here (161 -> 139 CPU-s).
  export GOPROXY GOTOOLCHAIN=local CGO_ENABLED=0 GOFLAGS="-mod=mod -buildvcs=false -trimpath -gcflags=all=-dwarf=false"
}
