#!/usr/bin/env bash
# Provisions a real Kubernetes control plane (etcd + kube-apiserver + kube-scheduler 1.20.2, and
# kube-controller-manager for the benchmark's jobs path) for Arranger's integration tests, benchmarks
# and local runs, without Docker or downloads beyond the
# Debian package archive: etcd comes from Debian, the Kubernetes binaries are built from Debian's
# own `kubernetes` source package. Idempotent and cached.
#
# Usage: scripts/control-plane.sh [provision|controller-manager|path]
#   provision (default)  make sure the binaries exist; print the folder holding them on the last line
#   controller-manager   as provision, and build kube-controller-manager into the same folder when a
#                        cache made before it was added lacks it (the tests never need it)
#   path                 print the folder that holds (or would hold) the binaries
#
# If KUBEBUILDER_ASSETS names a folder with kube-apiserver and etcd, that folder is used as is.
set -euo pipefail

K8S_VERSION=1.20.2
CACHE_ROOT="${ARRANGER_CACHE:-${XDG_CACHE_HOME:-$HOME/.cache}/arranger}"
ASSETS="$CACHE_ROOT/control-plane/$K8S_VERSION"

log() { echo "[control-plane] $*" >&2; }

as_root() {
  if [ "$(id -u)" -eq 0 ]; then "$@"; else sudo "$@"; fi
}

assets_complete() {
  [ -x "$1/kube-apiserver" ] && [ -x "$1/etcd" ]
}

install_debian_packages() {
  local missing=()
  for pkg in golang-go etcd-server rsync golang-github-modern-go-reflect2-dev golang-github-json-iterator-go-dev dpkg-dev; do
    dpkg-query -W -f='${Status}' "$pkg" 2>/dev/null | grep -q "install ok installed" || missing+=("$pkg")
  done
  if [ ${#missing[@]} -gt 0 ]; then
    log "installing Debian packages: ${missing[*]}"
    as_root apt-get update -qq
    as_root env DEBIAN_FRONTEND=noninteractive apt-get install -y -qq "${missing[@]}" >&2
  fi
}

enable_source_packages() {
  local src=/etc/apt/sources.list.d/arranger-deb-src.sources
  if [ ! -f "$src" ]; then
    log "enabling Debian source packages ($src)"
    sed 's/^Types: deb$/Types: deb-src/' /etc/apt/sources.list.d/debian.sources | as_root tee "$src" >/dev/null
    as_root apt-get update -qq
  fi
}

# Builds the named commands (cmd/<name>) from Debian's kubernetes source into $ASSETS.tmp.
build_kubernetes() {
  local work="$CACHE_ROOT/build"
  mkdir -p "$work"
  cd "$work"
  local orig
  orig=$(ls kubernetes_*.orig.tar.gz 2>/dev/null | head -n1 || true)
  if [ -z "$orig" ]; then
    enable_source_packages
    log "downloading Debian's kubernetes source package"
    apt-get source --download-only kubernetes >&2
    orig=$(ls kubernetes_*.orig.tar.gz | head -n1)
  fi
  local version=${orig#kubernetes_}
  version=${version%.orig.tar.gz}
  case "$version" in
    "$K8S_VERSION"|"$K8S_VERSION"+*|*really"$K8S_VERSION") ;;
    *) log "Debian's kubernetes source is $version, expected $K8S_VERSION"; exit 1 ;;
  esac
  local src="$work/kubernetes-$K8S_VERSION"
  if [ ! -d "$src" ]; then
    log "unpacking $orig"
    rm -rf "$work/unpack" && mkdir -p "$work/unpack"
    tar -xzf "$orig" -C "$work/unpack"
    mv "$work/unpack"/* "$src"
    rmdir "$work/unpack"
  fi
  # Go 1.19 crashes the vendored reflect2 1.0.1 on the first custom-resource create; Debian's
  # packaged reflect2 and json-iterator work with it.
  log "replacing vendored reflect2 and json-iterator with Debian's copies"
  rm -rf "$src/vendor/github.com/modern-go/reflect2" "$src/vendor/github.com/json-iterator/go"
  cp -a /usr/share/gocode/src/github.com/modern-go/reflect2 "$src/vendor/github.com/modern-go/reflect2"
  cp -a /usr/share/gocode/src/github.com/json-iterator/go "$src/vendor/github.com/json-iterator/go"
  mkdir -p "$src/.go/src/k8s.io"
  ln -sfn "$src" "$src/.go/src/k8s.io/kubernetes"
  local what="" name
  for name in "$@"; do what="$what cmd/$name"; done
  log "building$what (about 4-5 minutes on 2 cores for the first, less for each more)"
  (cd "$src/.go/src/k8s.io/kubernetes" &&
    env GOPATH="$src/.go" GO111MODULE=off GOFLAGS= CGO_ENABLED=0 KUBE_GIT_VERSION="v$K8S_VERSION" \
      make WHAT="${what# }" >&2)
  mkdir -p "$ASSETS.tmp"
  for name in "$@"; do cp "$src/_output/local/bin/linux/amd64/$name" "$ASSETS.tmp/"; done
}

provision() {
  if [ -n "${KUBEBUILDER_ASSETS:-}" ]; then
    if assets_complete "$KUBEBUILDER_ASSETS"; then
      log "using KUBEBUILDER_ASSETS=$KUBEBUILDER_ASSETS"
      echo "$KUBEBUILDER_ASSETS"
      return
    fi
    log "KUBEBUILDER_ASSETS=$KUBEBUILDER_ASSETS lacks kube-apiserver or etcd"
    exit 1
  fi
  if assets_complete "$ASSETS"; then
    log "cached binaries in $ASSETS"
    echo "$ASSETS"
    return
  fi
  log "no cached control plane in $ASSETS: provisioning it (first run takes several minutes)"
  install_debian_packages
  rm -rf "$ASSETS.tmp"
  build_kubernetes kube-apiserver kube-scheduler kube-controller-manager
  cp /usr/bin/etcd "$ASSETS.tmp/etcd"
  rm -rf "$ASSETS" && mv "$ASSETS.tmp" "$ASSETS"
  log "control plane ready in $ASSETS"
  "$ASSETS/kube-apiserver" --version >&2 || true
  echo "$ASSETS"
}

controller_manager() {
  provision >/dev/null
  if [ -n "${KUBEBUILDER_ASSETS:-}" ] || [ -x "$ASSETS/kube-controller-manager" ]; then
    [ -x "${KUBEBUILDER_ASSETS:-$ASSETS}/kube-controller-manager" ] || {
      log "KUBEBUILDER_ASSETS=$KUBEBUILDER_ASSETS lacks kube-controller-manager"
      exit 1
    }
    echo "${KUBEBUILDER_ASSETS:-$ASSETS}"
    return
  fi
  log "the cached control plane in $ASSETS has no kube-controller-manager: building it"
  install_debian_packages
  rm -rf "$ASSETS.tmp"
  build_kubernetes kube-controller-manager
  mv "$ASSETS.tmp/kube-controller-manager" "$ASSETS/"
  rm -rf "$ASSETS.tmp"
  echo "$ASSETS"
}

# One provisioning at a time: parallel test JVMs or a developer's shell may ask together.
mkdir -p "$CACHE_ROOT"
exec 9>"$CACHE_ROOT/.lock"
case "${1:-provision}" in
  provision) flock 9; provision ;;
  controller-manager) flock 9; controller_manager ;;
  path) echo "${KUBEBUILDER_ASSETS:-$ASSETS}" ;;
  *) echo "usage: $0 [provision|controller-manager|path]" >&2; exit 2 ;;
esac
