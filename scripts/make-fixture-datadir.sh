#!/usr/bin/env bash
# Regenerates Tests/Fixtures/datadir-v1: a data dir made by real daemons (Ana's, shaped by
# Bruno, Chloé and Dmitri: places with every field, favorites in a custom order, two
# itineraries with lodging, prices in two currencies, moved and deleted stops, a member by id,
# a member through a link, a revoked link, a received share, a pending invitation, contacts)
# and expected.json, what each read route answered on it.
#
#   scripts/make-fixture-datadir.sh [BIN_DIR]
#
# The fixture pins the data format of the commit that made it: FixtureDataDirTests checks
# that *later* daemons open it and answer the same. So regenerate it only to pin a new
# format, at that commit (or with BIN_DIR pointing at that commit's placesd and places),
# never to make a failing comparison pass. Without BIN_DIR the worktree's debug build is used.
set -euo pipefail
cd "$(dirname "$0")/.."
export PATH="/opt/swift/usr/bin:$PATH"
swift build --build-tests
if [ -n "${1:-}" ]; then export PLACES_BIN_DIR="$1"; fi
PLACES_MAKE_FIXTURE=1 PLACES_FIXTURE_COMMIT="$(git rev-parse --short HEAD)" \
    swift test --skip-build --filter 'FixtureDataDirBuilder'
ls -l Tests/Fixtures/datadir-v1/data
