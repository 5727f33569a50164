#!/usr/bin/env bash
# Installs the system libraries Places builds against (libsodium, SQLite headers),
# skipping the install when pkg-config already finds them. Uses sudo when not root.
set -euo pipefail
need=()
pkg-config --exists libsodium 2>/dev/null || need+=(libsodium-dev)
pkg-config --exists sqlite3 2>/dev/null || need+=(libsqlite3-dev)
command -v pkg-config >/dev/null 2>&1 || need+=(pkg-config)
if [ ${#need[@]} -eq 0 ]; then exit 0; fi
SUDO=""
if [ "$(id -u)" -ne 0 ]; then SUDO="sudo"; fi
echo "bootstrap: installing ${need[*]}" >&2
$SUDO env DEBIAN_FRONTEND=noninteractive apt-get -o DPkg::Lock::Timeout=300 update -qq
$SUDO env DEBIAN_FRONTEND=noninteractive apt-get -o DPkg::Lock::Timeout=300 install -y -qq "${need[@]}" >/dev/null
