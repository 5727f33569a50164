#!/usr/bin/env bash
# The convergence-under-faults test (Tests/PlacesIntegrationTests/FaultConvergenceTests.swift)
# at a long size: five daemons in a line editing one itinerary while they are frozen,
# killed and restarted, then checked for convergence, lost edits and database integrity.
#
#   scripts/fault-long.sh [SECONDS] [SEED]
#
# SECONDS of edits and faults (default 600); SEED replays a run's choices (printed as
# PLACES_FAULT_SEED at the start of every run). Runs niced: the machine stays usable.
set -euo pipefail
cd "$(dirname "$0")/.."
export PATH="/opt/swift/usr/bin:$PATH"
swift build --build-tests
export PLACES_FAULT_SECONDS="${1:-600}"
if [ -n "${2:-}" ]; then export PLACES_FAULT_SEED="$2"; fi
export PLACES_FAULT_CONVERGE_SECONDS="${PLACES_FAULT_CONVERGE_SECONDS:-300}"
log=".build/fault-long-$(date +%Y%m%d-%H%M%S).log"
echo "full output: $log"
nice -n 10 swift test --skip-build --filter 'FaultConvergenceTests' 2>&1 | tee "$log" | grep -E '^fault run|✘|Test run'
