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
# The CLI's build tags. The lab command provider is built with them too: a tag that selects other
# files (grpcnotrace: grpc's trace_notrace.go) changes the cache key of every package above it.
CLI_TAGS=grpcnotrace,osusergo

LANGHOST_MOD=github.com/pulumi/pulumi/sdk/nodejs/cmd/pulumi-language-nodejs/v3
# Fallback when the proxy refuses LANGHOST_MOD: the last Node.js language host
# that still lived inside sdk/v3 (it moved to its own module in v3.69.0).
LANGHOST_FALLBACK_VERSION=3.68.0

COMMAND_VERSION=1.2.1                       # = npm @pulumi/command
COMMAND_MOD=github.com/pulumi/pulumi-command/provider
COMMAND_MODVER=v0.0.0-20260303235922-7f3eb6f3b77c   # commit of tag v1.2.1

K8S_VERSION=4.25.0                          # = npm @pulumi/kubernetes
K8S_MOD=github.com/pulumi/pulumi-kubernetes/provider/v4
K8S_MODVER=v4.0.0-20260115033456-f47bc2d6f199       # commit of tag v4.25.0
K8S_SDK_MOD=github.com/pulumi/pulumi-kubernetes/sdk/v4

OPENSTACK_VERSION=3.15.2                    # = npm @pulumi/openstack
OPENSTACK_MOD=github.com/pulumi/pulumi-openstack/provider/v3
OPENSTACK_MODVER=v3.0.0-20240329191609-a9de4228c2fb # commit of tag v3.15.2

ALL_COMPONENTS=(cli langhost command kubernetes openstack)

# ------------------------------------------------------------------ layout --
NFV_CACHE="${NFV_CACHE:-$HOME/.cache/pulumi-nfv}"
TOOLCHAIN_DIR="$NFV_CACHE/toolchain"
WORK_DIR="$NFV_CACHE/work"
BIN_DIR="$NFV_CACHE/bin"
SCRIPT_DIR="$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)"
REPO_ROOT="$(cd "$SCRIPT_DIR/../.." && pwd)"

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

# 2. Node.js language host. Preferred: its own module at the commit that
#    sdk/v3@vPULUMI_VERSION comes from (pseudo-version from .Origin.Hash); else
#    its @latest with pkg/sdk pinned to vPULUMI_VERSION; else (the proxy refuses
#    the module) the in-sdk host of sdk/v3@vLANGHOST_FALLBACK_VERSION.
#    Prints "ENTRY MODVER" or nothing.
langhost_resolve() {
  local hash modver
  hash="$(go list -m -f '{{with .Origin}}{{.Hash}}{{end}}' "$PULUMI_SDK_MOD@v$PULUMI_VERSION" 2>/dev/null || true)"
  if [[ -n "$hash" ]]; then
    log "  sdk/v3@v$PULUMI_VERSION comes from commit $hash" >&2
    modver="$(mod_version "$LANGHOST_MOD@$hash")"
    [[ -n "$modver" ]] && { echo "pulumi-language-nodejs-$PULUMI_VERSION $modver"; return 0; }
  else
    log "  the proxy gives no .Origin.Hash for $PULUMI_SDK_MOD@v$PULUMI_VERSION" >&2
  fi
  log "  trying $LANGHOST_MOD@latest" >&2
  modver="$(mod_version "$LANGHOST_MOD@latest")"
  [[ -n "$modver" ]] && echo "pulumi-language-nodejs-${modver#v} $modver"
  return 0
}

_langhost_in_src() {
  go mod edit -dropreplace="$PULUMI_PKG_MOD" -dropreplace="$PULUMI_SDK_MOD" \
    -require="$PULUMI_PKG_MOD@v$PULUMI_VERSION" -require="$PULUMI_SDK_MOD@v$PULUMI_VERSION" || return 1
  clipboard_replace || return 1
  build_into "$1" pulumi-language-nodejs "$LANGHOST_MOD@$2 (pkg, sdk v$PULUMI_VERSION)" \
    "-X $PULUMI_SDK_MOD/go/common/version.Version=v$PULUMI_VERSION" . "$CLI_TAGS"
}

build_langhost() {
  local resolved entry modver src
  # A host built from the release commit is final: no proxy query needed.
  entry="pulumi-language-nodejs-$PULUMI_VERSION"
  if cached "$entry" pulumi-language-nodejs; then record_ok langhost "$entry" cached; log "langhost: cached ($entry)"; return 0; fi
  log "langhost: resolving $LANGHOST_MOD"
  resolved="$(langhost_resolve)"
  if [[ -n "$resolved" ]]; then
    read -r entry modver <<<"$resolved"
    if cached "$entry" pulumi-language-nodejs; then record_ok langhost "$entry" cached; log "langhost: cached ($entry)"; return 0; fi
    src="$WORK_DIR/$entry"
    log "langhost: $LANGHOST_MOD@$modver"
    if fetch_module "$LANGHOST_MOD@$modver" "$src" && (cd "$src" && _langhost_in_src "$entry" "$modver"); then
      rm -rf "$src"; record_ok langhost "$entry" built; return 0
    fi
    log "langhost: $LANGHOST_MOD@$modver did not build; using the fallback"
  else
    log "langhost: the proxy refuses $LANGHOST_MOD; using the fallback (the host inside sdk/v3@v$LANGHOST_FALLBACK_VERSION)"
  fi
  build_langhost_fallback
}

build_langhost_fallback() {
  local v="$LANGHOST_FALLBACK_VERSION" entry="pulumi-language-nodejs-$LANGHOST_FALLBACK_VERSION"
  local src="$WORK_DIR/$entry"
  if cached "$entry" pulumi-language-nodejs; then record_ok langhost "$entry" "cached, fallback"; log "langhost: cached ($entry)"; return 0; fi
  log "langhost: $PULUMI_SDK_MOD@v$v ./nodejs/cmd/pulumi-language-nodejs"
  fetch_module "$PULUMI_SDK_MOD@v$v" "$src" ||
    { record_fail langhost "Go module proxy refused $LANGHOST_MOD and $PULUMI_SDK_MOD@v$v"; return 1; }
  (cd "$src" && build_into "$entry" pulumi-language-nodejs "$PULUMI_SDK_MOD@v$v ./nodejs/cmd/pulumi-language-nodejs" \
    "-X $PULUMI_SDK_MOD/go/common/version.Version=v$v" ./nodejs/cmd/pulumi-language-nodejs) ||
    { record_fail langhost "go build of the v$v fallback failed (see the log above)"; return 1; }
  rm -rf "$src"
  record_ok langhost "$entry" "built, fallback"
}

# 3. pulumi-resource-command. Pulumi's provider module is refused by the Go
#    module proxy (every version, HTTP 403); then the lab's own implementation of
#    its remote resources is built instead (command-provider/, see the README),
#    keyed by a hash of its source so that an edit rebuilds it.
build_command() {
  local entry="pulumi-resource-command-$COMMAND_VERSION" src="$WORK_DIR/pulumi-resource-command-$COMMAND_VERSION"
  if cached "$entry" pulumi-resource-command; then record_ok command "$entry" cached; log "command: cached ($entry)"; return 0; fi
  log "command: $COMMAND_MOD@$COMMAND_MODVER"
  if ! fetch_module "$COMMAND_MOD@$COMMAND_MODVER" "$src"; then
    log "command: the Go module proxy refused $COMMAND_MOD@$COMMAND_MODVER; building the lab implementation"
    build_command_lab
    return
  fi
  (cd "$src" && build_into "$entry" pulumi-resource-command "$COMMAND_MOD@$COMMAND_MODVER" \
    "-X $COMMAND_MOD/pkg/version.Version=v$COMMAND_VERSION" ./cmd/pulumi-resource-command) ||
    { record_fail command "go build failed (see the log above)"; return 1; }
  rm -rf "$src"
  record_ok command "$entry" built
}

# The cache entry of the lab's own build of provider NAME at VERSION (source in NAME-provider/),
# keyed by a hash of that source, so that an edit rebuilds it.
lab_entry() {
  local hash
  hash="$(cd "$SCRIPT_DIR/$1-provider" &&
    find . -type f \( -name '*.go' -o -name go.mod -o -name go.sum -o -name '*.mjs' \) -print0 |
    LC_ALL=C sort -z | xargs -0 sha256sum | sha256sum | cut -c1-12)"
  echo "pulumi-resource-$1-$2-lab-$hash"
}

build_command_lab() {
  local entry
  entry="$(lab_entry command "$COMMAND_VERSION")"
  if cached "$entry" pulumi-resource-command; then record_ok command "$entry" "cached, lab implementation"; return 0; fi
  (cd "$SCRIPT_DIR/command-provider" && build_into "$entry" pulumi-resource-command "pulumi-nfv lab command provider" \
    "-X main.version=$COMMAND_VERSION" . "$CLI_TAGS") ||
    { record_fail command "go build of lab/toolchain/command-provider failed (see the log above)"; return 1; }
  record_ok command "$entry" "built, lab implementation"
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

# 5. pulumi-resource-openstack: keep its replaces, generate schema-embed.json,
#    build; if the old golang.org/x/tools breaks under Go >= 1.25, bump it.
_openstack_in_src() {
  local entry="pulumi-resource-openstack-$OPENSTACK_VERSION" ld="-X $OPENSTACK_MOD/pkg/version.Version=v$OPENSTACK_VERSION"
  log "  generating schema-embed.json (VERSION=$OPENSTACK_VERSION)"
  (cd cmd/pulumi-resource-openstack && VERSION="$OPENSTACK_VERSION" go run generate.go) || return 1
  build_into "$entry" pulumi-resource-openstack "$OPENSTACK_MOD@$OPENSTACK_MODVER" "$ld" ./cmd/pulumi-resource-openstack && return 0
  log "  retrying with golang.org/x/tools@v0.36.0 (old x/tools vs Go >= 1.25)"
  go get golang.org/x/tools@v0.36.0 || return 1
  build_into "$entry" pulumi-resource-openstack "$OPENSTACK_MOD@$OPENSTACK_MODVER (+ x/tools v0.36.0)" "$ld" ./cmd/pulumi-resource-openstack
}

build_openstack() {
  local entry="pulumi-resource-openstack-$OPENSTACK_VERSION" src="$WORK_DIR/pulumi-resource-openstack-$OPENSTACK_VERSION"
  if cached "$entry" pulumi-resource-openstack; then record_ok openstack "$entry" cached; log "openstack: cached ($entry)"; return 0; fi
  log "openstack: $OPENSTACK_MOD@$OPENSTACK_MODVER"
  if ! fetch_module "$OPENSTACK_MOD@$OPENSTACK_MODVER" "$src"; then
    log "openstack: the Go module proxy refused $OPENSTACK_MOD@$OPENSTACK_MODVER; building the lab bridge build"
    build_openstack_lab
    return
  fi
  (cd "$src" && _openstack_in_src) || { record_fail openstack "generate or go build failed (see the log above)"; return 1; }
  rm -rf "$src"
  record_ok openstack "$entry" built
}

# The lab's own bridge build of the provider (openstack-provider/: the Terraform provider that
# pulumi-openstack 3.15.2 bridged, mapped to the npm SDK's tokens), keyed by a hash of its source.
# In a writable copy of openstack-provider/: build the tfgen binary, write the schema and
# bridge-metadata.json that the plugin embeds, compare the schema with the npm SDK, build.
_openstack_lab_in_src() {
  local entry="$1" out=cmd/pulumi-resource-openstack
  local sdk="${NFV_NODE_MODULES:-$REPO_ROOT/node_modules}/@pulumi/openstack" ld="-X main.version=$OPENSTACK_VERSION"
  log "  go build ./cmd/pulumi-tfgen-openstack"
  go build -p 2 -trimpath -ldflags "-s -w $ld" -o tfgen ./cmd/pulumi-tfgen-openstack || return 1
  log "  tfgen schema --out $out (schema.json, bridge-metadata.json)"
  if ! ./tfgen schema --out "$out" >tfgen.log 2>&1; then tail -n 40 tfgen.log; return 1; fi
  mv "$out/schema.json" "$out/schema-embed.json"
  rm -f "$out/Pulumi.yaml"
  if [[ -f "$sdk/package.json" ]]; then
    log "  comparing the schema with $sdk"
    node check-sdk.mjs "$out/schema-embed.json" "$sdk" | tail -n 40
    [[ "${PIPESTATUS[0]}" == 0 ]] || return 1
  else
    log "  $sdk not found (npm ci first): the schema is not compared with the SDK"
  fi
  build_into "$entry" pulumi-resource-openstack \
    "pulumi-nfv lab openstack provider (pulumi-terraform-bridge + terraform-provider-openstack, see go.mod)" \
    "$ld" ./cmd/pulumi-resource-openstack || return 1
  cp "$out/schema-embed.json" "$TOOLCHAIN_DIR/$entry/schema.json"
  cp "$out/bridge-metadata.json" "$TOOLCHAIN_DIR/$entry/bridge-metadata.json"
}

build_openstack_lab() {
  local entry src
  entry="$(lab_entry openstack "$OPENSTACK_VERSION")"
  src="$WORK_DIR/$entry"
  if cached "$entry" pulumi-resource-openstack; then record_ok openstack "$entry" "cached, lab bridge build"; return 0; fi
  rm -rf "$src"
  cp -r "$SCRIPT_DIR/openstack-provider" "$src"
  (cd "$src" && _openstack_lab_in_src "$entry") ||
    { record_fail openstack "build of lab/toolchain/openstack-provider failed (see the log above)"; return 1; }
  rm -rf "$src"
  record_ok openstack "$entry" "built, lab bridge build"
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

newest_langhost() {
  local d
  for d in "$TOOLCHAIN_DIR/pulumi-language-nodejs-$PULUMI_VERSION" "$TOOLCHAIN_DIR"/pulumi-language-nodejs-3.0.0-* \
    "$TOOLCHAIN_DIR/pulumi-language-nodejs-$LANGHOST_FALLBACK_VERSION"; do
    [[ -x "$d/bin/pulumi-language-nodejs" ]] && { echo "$d/bin/pulumi-language-nodejs"; return 0; }
  done
  return 1
}

# The cached binary of provider NAME at VERSION: the upstream build, else (command, openstack) the lab's.
plugin_binary() {
  local bin="$TOOLCHAIN_DIR/pulumi-resource-$1-$2/bin/pulumi-resource-$1"
  if [[ ! -x "$bin" && -d "$SCRIPT_DIR/$1-provider" ]]; then bin="$TOOLCHAIN_DIR/$(lab_entry "$1" "$2")/bin/pulumi-resource-$1"; fi
  echo "$bin"
}

# Installed, and the same binary as in the cache (a rebuilt lab provider is installed again).
plugin_installed() {
  cmp -s "$3" "$PULUMI_HOME/plugins/resource-$1-v$2/pulumi-resource-$1"
}

install_toolchain() {
  # shellcheck source=SCRIPTDIR/env.sh
  . "$SCRIPT_DIR/env.sh"
  mkdir -p "$PULUMI_HOME"
  install_bin "$TOOLCHAIN_DIR/pulumi-$PULUMI_VERSION/bin/pulumi" pulumi || { log "install: no pulumi CLI in the cache"; return 1; }
  local lh name ver
  if lh="$(newest_langhost)"; then install_bin "$lh" pulumi-language-nodejs; else log "install: no language host in the cache"; fi
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
    bin="$(plugin_binary "$name" "$ver")"
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
