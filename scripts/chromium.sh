#!/usr/bin/env bash
# Makes sure Debian's Chromium is installed, for the browser test of the simulator's report
# (simulator's ReportInBrowserTest). Installs it with apt when missing (needs root or sudo; about
# 100 MiB, once). Prints the browser's path on the last line.
#
# Usage: scripts/chromium.sh [provision]
# CHROMIUM, when set to an executable, is used as it is.
set -euo pipefail

log() { echo "[chromium] $*" >&2; }

as_root() {
  if [ "$(id -u)" -eq 0 ]; then "$@"; else sudo "$@"; fi
}

if [ -n "${CHROMIUM:-}" ]; then
  [ -x "$CHROMIUM" ] || { log "CHROMIUM=$CHROMIUM is not an executable"; exit 1; }
  echo "$CHROMIUM"
  exit 0
fi

if ! command -v chromium >/dev/null 2>&1; then
  log "installing Debian's chromium (once; a few minutes)"
  as_root apt-get update -qq >&2
  DEBIAN_FRONTEND=noninteractive as_root apt-get install -y -qq chromium >&2
fi
command -v chromium
