#!/usr/bin/env bash
# `make test`'s test runs, after `swift build --build-tests`: each step runs the package's
# test binary directly with Swift Testing's filter. `swift test --skip-build` did the same
# but first planned the package again and ran the binary twice (XCTest, then Swift Testing),
# about 6.5 s a step on this 2-core machine against 0.2 s; the package has no XCTest tests.
# Each step prints a "swift test …" line (what `scripts/suite-times.py` splits a log on).
#
# Why the steps are apart:
# - The in-process unit and protocol tests first; the two suites of real TCP sessions with
#   second-scale waits (SyncServiceTests, TransportLimitsTests) on their own right after,
#   since beside 750 other tests a re-dial's backoff outlasted its wait in a CI run.
# - The in-process suites whose daemon fetches weather from a loopback server in its own
#   background loop: beside 750 other tests that loop did not get to run within 30 s in a
#   CI run (the cards stayed "not fetched yet"), while each suite passes alone.
# - Then the tests that drive real placesd processes. The hostile-peer tests among them
#   flood daemons and block test threads on sockets, which would starve the in-process
#   tests' timers if both ran at once. Of those, the timing-sensitive attacks and the
#   five-daemon fault run go one suite at a time: beside each other (20,000 items in a day,
#   five daemons frozen and killed), the equivocation and fault tests' convergence timed
#   out in CI runs, while each passes alone in seconds.
# - The CLI suites (each command a process, 27 of them in a row for bad expense input) run
#   apart from the multi-daemon sync tests: beside them, a three-hop share missed its
#   seconds in a CI run.
# - RelayTripPhotoAttackTests goes on its own: one of its tests compares the slowest API
#   answer while a daemon reconnects to its relay with the slowest while idle.
# - The browser app's tests (headless Chromium over WebDriver) run last, on their own: a
#   browser beside the daemon floods would make their waits a matter of luck.
set -euo pipefail
cd "$(dirname "$0")/.."
SWIFT="${SWIFT:-swift}"
bin="$("$SWIFT" build --show-bin-path)"
tests=("$bin"/*PackageTests.xctest)
if [ ! -x "${tests[0]}" ]; then
    echo "no test binary in $bin: run swift build --build-tests first" >&2
    exit 1
fi
export NO_COLOR=1
# Every test's files (stores, daemons' data dirs and logs) go under one directory for the
# run, removed at the end: before, a full run left about 1.5 GB in /tmp.
# It is searchable by everyone, as /tmp is: a test connects to a daemon's socket as another user.
scratch="$(mktemp -d "${TMPDIR:-/tmp}/places-tests-XXXXXX")"
chmod 755 "$scratch"
trap 'rm -rf "$scratch"' EXIT
export TMPDIR="$scratch"

step() {
    echo "swift test --skip-build $*"
    "${tests[0]}" --testing-library swift-testing "$@"
}

weather='WeatherTLSTests|TripDayWeatherTests|DashboardAPITests'
apart='HostilePeerTests|HostileTripPeerTests|HostileExpensePeerTests|HostileCardPeerTests|HostileSocialPeerTests|HostileExplorePeerTests|RelayTripPhotoAttackTests|FaultConvergenceTests|PlacesIntegrationTests.CLI|BrowserApp|BrowserBench'

step --skip "PlacesIntegrationTests|SyncServiceTests|TransportLimitsTests|VerifyAheadTests|$weather"
step --filter 'SyncServiceTests|TransportLimitsTests|VerifyAheadTests'
step --filter "$weather"
step --filter PlacesIntegrationTests --skip "$apart"
step --filter 'PlacesIntegrationTests.CLI'
for suite in HostilePeerTests HostileTripPeerTests HostileExpensePeerTests HostileCardPeerTests \
    HostileSocialPeerTests HostileExplorePeerTests RelayTripPhotoAttackTests FaultConvergenceTests BrowserApp; do
    step --filter "$suite"
done
