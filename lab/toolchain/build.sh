#!/usr/bin/env bash
# Builds the offline Pulumi toolchain of pulumi-nfv from Go source, through the
# Go module proxy only, into a version-keyed cache outside the repository, then
# installs the provider plugins into a private PULUMI_HOME.
#
#   lab/toolchain/build.sh                  # build + install everything
#   lab/toolchain/build.sh cli langhost     # only some components (+ install)
#   NFV_TOOLCHAIN_STRICT=1 lab/toolchain/build.sh   # exit 1 if any component is missing
#
# Components: cli langhost command kubernetes openstack. A component whose
# binary is already in the cache is skipped. See lab/toolchain/README.md.
set -euo pipefail
# shellcheck source-path=SCRIPTDIR source=../lib/go-proxy.sh
. "$(dirname "${BASH_SOURCE[0]}")/../lib/go-proxy.sh"
# shellcheck source-path=SCRIPTDIR

# ---------------------------------------------------------------- versions --
PULUMI_VERSION=3.274.1                      # CLI (module github.com/pulumi/pulumi/pkg/v3)
PULUMI_PKG_MOD=github.com/pulumi/pulumi/pkg/v3
PULUMI_SDK_MOD=github.com/pulumi/pulumi/sdk/v3
CLIPBOARD_REPLACE=github.com/atotto/clipboard=github.com/tgummerer/clipboard@v0.0.0-20241001131231-d02d263e614e
# The CLI's build tags (upstream's goreleaser), the language host's too.
CLI_TAGS=grpcnotrace,osusergo

# The language host and the command and openstack plugins are built from the upstream tags' source
# in UPSTREAM_SRC (git archives; the proxy refuses those modules), with their dependencies from the
# Go module proxy.

LANGHOST_VERSION=3.248.0                    # = npm @pulumi/pulumi
LANGHOST_MOD=github.com/pulumi/pulumi/sdk/nodejs/cmd/pulumi-language-nodejs/v3
LANGHOST_TAR=pulumi-language-nodejs-v$LANGHOST_VERSION-notests.tar.gz

COMMAND_VERSION=1.2.1                       # = npm @pulumi/command
COMMAND_MOD=github.com/pulumi/pulumi-command/provider
COMMAND_TAR=pulumi-command-v$COMMAND_VERSION-provider.tar.gz

K8S_VERSION=4.25.0                          # = npm @pulumi/kubernetes
K8S_MOD=github.com/pulumi/pulumi-kubernetes/provider/v4
K8S_MODVER=v4.0.0-20260115033456-f47bc2d6f199       # commit of tag v4.25.0
K8S_SDK_MOD=github.com/pulumi/pulumi-kubernetes/sdk/v4

OPENSTACK_VERSION=3.15.2                    # = npm @pulumi/openstack
OPENSTACK_MOD=github.com/pulumi/pulumi-openstack/provider/v3
OPENSTACK_TAR=pulumi-openstack-v$OPENSTACK_VERSION-provider.tar.gz

ALL_COMPONENTS=(cli langhost command kubernetes openstack)

# ------------------------------------------------------------------ layout --
NFV_CACHE="${NFV_CACHE:-$HOME/.cache/pulumi-nfv}"
TOOLCHAIN_DIR="$NFV_CACHE/toolchain"
WORK_DIR="$NFV_CACHE/work"
BIN_DIR="$NFV_CACHE/bin"
SCRIPT_DIR="$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)"
REPO_ROOT="$(cd "$SCRIPT_DIR/../.." && pwd)"
UPSTREAM_SRC="${NFV_UPSTREAM_SRC:-$REPO_ROOT/../shared/upstream-src}"

FAILED=()      # "component: reason"
BUILT=()       # "component: cache dir (built|cached)"
SCRIPT_START=$SECONDS

# ----------------------------------------------------------------- helpers --
log() { printf '[%s] %s\n' "$(date '+%Y-%m-%d %H:%M:%S')" "$*"; }
die() { log "ERROR: $*" >&2; exit 1; }

# Go environment: module proxy only (never "direct", which would go to the
# VCS hosts), local toolchain, no cgo, modules resolved from go.mod.
setup_go_env() {
  use_module_proxy_only
  mkdir -p "$TOOLCHAIN_DIR" "$WORK_DIR" "$BIN_DIR"
  # One build.sh at a time per cache; then leftovers of an interrupted build
  # (never used: only complete entries are renamed into place) can go.
  exec 9>"$NFV_CACHE/.build.lock"
  flock -n 9 || die "another build.sh is using $NFV_CACHE (lock $NFV_CACHE/.build.lock)"
  rm -rf "$TOOLCHAIN_DIR"/.tmp-* "$BIN_DIR"/*.tmp.*
  log "go: $(go env GOVERSION), GOPROXY=$GOPROXY, cache: $NFV_CACHE"
}

# A module's resolved version on stdout; on refusal, nothing on stdout and
# the proxy's answer on stderr.
mod_version() {
  local out
  if out="$(go list -m -f '{{.Version}}' "$1" 2>&1)"; then
    echo "$out"
  else
    printf '%s\n' "$out" | sed 's/^/    /' >&2
  fi
}

# Copy a module from the module cache into a fresh writable work dir.
# Usage: fetch_module MODULE@VERSION DEST
fetch_module() {
  local json dir
  if ! json="$(go mod download -json "$1" 2>&1)"; then
    printf '%s\n' "$json" | sed 's/^/    /' >&2
    return 1
  fi
  dir="$(printf '%s\n' "$json" | sed -n 's/^[[:space:]]*"Dir": "\(.*\)",\{0,1\}$/\1/p')"
  if [[ -z "$dir" || ! -d "$dir" ]]; then
    printf '%s\n' "$json" | sed 's/^/    /' >&2
    return 1
  fi
  rm -rf "$2"
  cp -r "$dir" "$2"
  chmod -R u+w "$2"
}

# True when cache entry NAME-VERSION holds its binary.
cached() { [[ -x "$TOOLCHAIN_DIR/$1/bin/$2" ]]; }

# go build into a temp dir under the cache, then rename the whole entry into
# place, so an interrupted build never leaves a half binary in the cache.
# Usage: build_into ENTRY BINARY MODULE_DESC LDFLAGS PKG [TAGS]   (run in module dir)
build_into() {
  local entry="$1" bin="$2" desc="$3" ldflags="$4" pkg="$5" tags="${6:-}"
  local final="$TOOLCHAIN_DIR/$entry" tmp start
  tmp="$(mktemp -d "$TOOLCHAIN_DIR/.tmp-$entry.XXXXXX")"
  chmod 0755 "$tmp"
  mkdir -p "$tmp/bin"
  start=$SECONDS
  log "  go build $pkg -> $entry/bin/$bin"
  if ! go build -p 2 -trimpath ${tags:+-tags "$tags"} -ldflags "-s -w $ldflags" -o "$tmp/bin/$bin" "$pkg"; then
    rm -rf "$tmp"
    return 1
  fi
  {
    echo "module: $desc"
    echo "version: ${entry#"$bin"-}"
    echo "built: $(date -u '+%Y-%m-%dT%H:%M:%SZ')"
    echo "build_seconds: $((SECONDS - start))"
    echo "go: $(go env GOVERSION)"
    echo "ldflags: -s -w $ldflags"
    echo "tags: ${tags:-none}"
    echo "size_bytes: $(stat -c %s "$tmp/bin/$bin")"
    echo "--- go.mod (as built)"
    cat go.mod
  } >"$tmp/BUILDINFO"
  rm -rf "$final"
  mv -T "$tmp" "$final"
  log "  done in $((SECONDS - start))s, $(du -h "$final/bin/$bin" | cut -f1)"
}

record_ok() { BUILT+=("$1: $TOOLCHAIN_DIR/$2 ($3)"); }
record_fail() { FAILED+=("$1: $2"); log "FAILED $1: $2"; }

# ------------------------------------------------------------------- steps --
# Each build_X prints progress, records ok/failure and never aborts the script:
# the next component is still tried. The _X_in_src helpers run inside the
# writable module copy, in a subshell, and return 1 at the first failure.

# Keep the clipboard fork replace if the proxy serves it (it only matters on
# Windows), else drop it.
clipboard_replace() {
  go mod download "${CLIPBOARD_REPLACE#*=}" 2>/dev/null && return 0
  log "  clipboard fork not served: dropping its replace"
  go mod edit -dropreplace="${CLIPBOARD_REPLACE%%=*}"
}

# 1. Pulumi CLI from pkg/v3 with the local sdk replace dropped.
_cli_in_src() {
  go mod edit -dropreplace="$PULUMI_SDK_MOD" -require="$PULUMI_SDK_MOD@v$PULUMI_VERSION" || return 1
  clipboard_replace || return 1
  build_into "pulumi-$PULUMI_VERSION" pulumi "$PULUMI_PKG_MOD@v$PULUMI_VERSION ./cmd/pulumi" \
    "-X $PULUMI_SDK_MOD/go/common/version.Version=v$PULUMI_VERSION" ./cmd/pulumi "$CLI_TAGS"
}

build_cli() {
  local entry="pulumi-$PULUMI_VERSION" src="$WORK_DIR/pulumi-$PULUMI_VERSION"
  if cached "$entry" pulumi; then record_ok cli "$entry" cached; log "cli: cached ($entry)"; return 0; fi
  log "cli: $PULUMI_PKG_MOD@v$PULUMI_VERSION"
  fetch_module "$PULUMI_PKG_MOD@v$PULUMI_VERSION" "$src" ||
    { record_fail cli "Go module proxy refused $PULUMI_PKG_MOD@v$PULUMI_VERSION"; return 1; }
  (cd "$src" && _cli_in_src) || { record_fail cli "go build failed (see the log above)"; return 1; }
  rm -rf "$src"
  record_ok cli "$entry" built
}

# Unpack directory DIR of upstream archive TAR (its single top folder stripped) into a fresh
# writable DEST. Usage: unpack_upstream TAR DIR DEST
unpack_upstream() {
  local tar="$UPSTREAM_SRC/$1" top
  [[ -f "$tar" ]] || { log "  $tar not found" >&2; return 1; }
  rm -rf "$3" && mkdir -p "$3"
  top="$(tar -tzf "$tar" | awk -F/ 'NR == 1 { print $1 }')"
  tar -xzf "$tar" -C "$3" --strip-components="$(($(tr -cd / <<<"$2/" | wc -c) + 1))" "$top/$2" || return 1
  chmod -R u+w "$3"
}

# Build upstream component NAME (ENTRY = BINARY-VERSION) from directory DIR of archive TAR, with
# IN_SRC run inside the unpacked module. Usage: build_upstream NAME ENTRY BINARY TAR DIR IN_SRC
build_upstream() {
  local name=$1 entry=$2 bin=$3 tar=$4 dir=$5 in_src=$6 src="$WORK_DIR/$2"
  if cached "$entry" "$bin"; then record_ok "$name" "$entry" cached; log "$name: cached ($entry)"; return 0; fi
  log "$name: $tar ($dir)"
  unpack_upstream "$tar" "$dir" "$src" || { record_fail "$name" "cannot unpack $UPSTREAM_SRC/$tar"; return 1; }
  (cd "$src" && "$in_src" "$entry") || { record_fail "$name" "generate or go build failed (see the log above)"; return 1; }
  rm -rf "$src"
  record_ok "$name" "$entry" built
}

# 2. Node.js language host: its go.mod replaces pkg/v3 and sdk/v3 with the monorepo's folders
#    (../../../..); require both at the host's release instead. It does not compile against the
#    CLI's v3.274.1, so it shares none of the CLI's compiled packages.
_langhost_in_src() {
  go mod edit -dropreplace="$PULUMI_PKG_MOD" -dropreplace="$PULUMI_SDK_MOD" \
    -require="$PULUMI_PKG_MOD@v$LANGHOST_VERSION" -require="$PULUMI_SDK_MOD@v$LANGHOST_VERSION" || return 1
  clipboard_replace || return 1
  build_into "$1" pulumi-language-nodejs "$LANGHOST_MOD v$LANGHOST_VERSION ($LANGHOST_TAR; pkg, sdk v$LANGHOST_VERSION)" \
    "-X $PULUMI_SDK_MOD/go/common/version.Version=v$LANGHOST_VERSION" . "$CLI_TAGS"
}

build_langhost() {
  build_upstream langhost "pulumi-language-nodejs-$LANGHOST_VERSION" pulumi-language-nodejs \
    "$LANGHOST_TAR" sdk/nodejs/cmd/pulumi-language-nodejs _langhost_in_src
}

# 3. pulumi-resource-command, as it is (no replace; its schema is made at run time).
_command_in_src() {
  build_into "$1" pulumi-resource-command "$COMMAND_MOD v$COMMAND_VERSION ($COMMAND_TAR)" \
    "-X $COMMAND_MOD/pkg/version.Version=v$COMMAND_VERSION" ./cmd/pulumi-resource-command
}

build_command() {
  build_upstream command "pulumi-resource-command-$COMMAND_VERSION" pulumi-resource-command \
    "$COMMAND_TAR" provider _command_in_src
}

# 4. pulumi-resource-kubernetes: drop the local sdk/v4 replace, require the
#    sdk/v4 release, generate the two embed files, build.
_kubernetes_in_src() {
  go mod edit -dropreplace="$K8S_SDK_MOD" -require="$K8S_SDK_MOD@$1" || return 1
  log "  generating schema-embed.json and terraform-mapping-embed.json (VERSION=$K8S_VERSION)"
  (cd cmd/pulumi-resource-kubernetes && VERSION="$K8S_VERSION" go run generate.go) || return 1
  build_into "pulumi-resource-kubernetes-$K8S_VERSION" pulumi-resource-kubernetes "$K8S_MOD@$K8S_MODVER (sdk/v4 $1)" \
    "-X $K8S_MOD/pkg/version.Version=v$K8S_VERSION" ./cmd/pulumi-resource-kubernetes
}

build_kubernetes() {
  local entry="pulumi-resource-kubernetes-$K8S_VERSION" src="$WORK_DIR/pulumi-resource-kubernetes-$K8S_VERSION" sdkver
  if cached "$entry" pulumi-resource-kubernetes; then record_ok kubernetes "$entry" cached; log "kubernetes: cached ($entry)"; return 0; fi
  log "kubernetes: $K8S_MOD@$K8S_MODVER"
  fetch_module "$K8S_MOD@$K8S_MODVER" "$src" ||
    { record_fail kubernetes "Go module proxy refused $K8S_MOD@$K8S_MODVER"; return 1; }
  sdkver="$(mod_version "$K8S_SDK_MOD@v$K8S_VERSION")"
  [[ -n "$sdkver" ]] || { record_fail kubernetes "Go module proxy refused $K8S_SDK_MOD@v$K8S_VERSION"; return 1; }
  (cd "$src" && _kubernetes_in_src "$sdkver") || { record_fail kubernetes "generate or go build failed (see the log above)"; return 1; }
  rm -rf "$src"
  record_ok kubernetes "$entry" built
}

# 5. pulumi-resource-openstack: schema.json and bridge-metadata.json are committed (no tfgen);
#    generate.go makes the embed file from them, then the build; its replaces are kept.
_openstack_in_src() {
  log "  generating schema-embed.json (VERSION=$OPENSTACK_VERSION)"
  (cd cmd/pulumi-resource-openstack && VERSION="$OPENSTACK_VERSION" go run generate.go) || return 1
  build_into "$1" pulumi-resource-openstack "$OPENSTACK_MOD v$OPENSTACK_VERSION ($OPENSTACK_TAR)" \
    "-X $OPENSTACK_MOD/pkg/version.Version=v$OPENSTACK_VERSION" ./cmd/pulumi-resource-openstack
}

build_openstack() {
  build_upstream openstack "pulumi-resource-openstack-$OPENSTACK_VERSION" pulumi-resource-openstack \
    "$OPENSTACK_TAR" provider _openstack_in_src
}

# 6. Install: CLI + language host side by side in $NFV_CACHE/bin, providers
#    into $PULUMI_HOME/plugins at exactly the npm versions.
install_bin() {
  local src="$1" dst="$BIN_DIR/$2"
  [[ -f "$src" ]] || return 1
  if ! cmp -s "$src" "$dst" 2>/dev/null; then
    cp "$src" "$dst.tmp.$$" && chmod 0755 "$dst.tmp.$$" && mv -f "$dst.tmp.$$" "$dst"
    log "install: $dst <- $src"
  fi
}

# Installed, and the same binary as in the cache (a rebuilt plugin is installed again).
plugin_installed() {
  cmp -s "$3" "$PULUMI_HOME/plugins/resource-$1-v$2/pulumi-resource-$1"
}

install_toolchain() {
  # shellcheck source=SCRIPTDIR/env.sh
  . "$SCRIPT_DIR/env.sh"
  mkdir -p "$PULUMI_HOME"
  install_bin "$TOOLCHAIN_DIR/pulumi-$PULUMI_VERSION/bin/pulumi" pulumi || { log "install: no pulumi CLI in the cache"; return 1; }
  local name ver
  install_bin "$TOOLCHAIN_DIR/pulumi-language-nodejs-$LANGHOST_VERSION/bin/pulumi-language-nodejs" pulumi-language-nodejs ||
    log "install: no language host in the cache"
  # Bundled dynamic-provider shim (for pulumi.dynamic.Resource): it ships in
  # the npm package @pulumi/pulumi and must sit next to the pulumi binary.
  local shim="${NFV_NODE_MODULES:-$REPO_ROOT/node_modules}/@pulumi/pulumi/pulumi-resource-pulumi-nodejs"
  if [[ -f "$shim" ]]; then
    install_bin "$shim" pulumi-resource-pulumi-nodejs
  else
    log "install: $shim not found (npm ci first); pulumi.dynamic.Resource will not work"
  fi
  for pv in "command:$COMMAND_VERSION" "kubernetes:$K8S_VERSION" "openstack:$OPENSTACK_VERSION"; do
    name="${pv%%:*}" ver="${pv#*:}"
    local bin
    bin="$TOOLCHAIN_DIR/pulumi-resource-$name-$ver/bin/pulumi-resource-$name"
    if [[ ! -x "$bin" ]]; then log "install: plugin resource $name v$ver NOT installed (no binary in the cache)"; continue; fi
    if plugin_installed "$name" "$ver" "$bin"; then log "install: plugin resource $name v$ver already installed"; continue; fi
    log "install: pulumi plugin install resource $name $ver --file $bin"
    "$BIN_DIR/pulumi" plugin install resource "$name" "$ver" --file "$bin" --reinstall
  done
}

summary() {
  local item
  log "summary ($((SECONDS - SCRIPT_START))s):"
  for item in "${BUILT[@]+"${BUILT[@]}"}"; do log "  ok    $item"; done
  for item in "${FAILED[@]+"${FAILED[@]}"}"; do log "  MISSING $item"; done
  if [[ -x "$BIN_DIR/pulumi" ]]; then
    log "pulumi version: $("$BIN_DIR/pulumi" version)"
    log "pulumi plugin ls:"
    "$BIN_DIR/pulumi" plugin ls
  fi
  log "use it with:  . $SCRIPT_DIR/env.sh"
}

main() {
  local comps=("$@") c
  ((${#comps[@]})) || comps=("${ALL_COMPONENTS[@]}")
  for c in "${comps[@]}"; do
    [[ " ${ALL_COMPONENTS[*]} " == *" $c "* ]] || die "unknown component '$c' (known: ${ALL_COMPONENTS[*]})"
  done
  setup_go_env
  # One after the other (2 cores, memory); a failure does not stop the others.
  for c in "${comps[@]}"; do
    "build_$c" || true
  done
  install_toolchain || true
  summary
  if [[ "${NFV_TOOLCHAIN_STRICT:-0}" == 1 && ${#FAILED[@]} -gt 0 ]]; then exit 1; fi
  # The CLI and a language host are the minimum for any pulumi run.
  [[ -x "$BIN_DIR/pulumi" && -x "$BIN_DIR/pulumi-language-nodejs" ]]
}

main "$@"
