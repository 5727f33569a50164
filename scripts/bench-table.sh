#!/usr/bin/env bash
# Issue 34's floor table (docs/benchmarks.md, "Issue 34: the floor table"), the first thing
# `make bench` prints: places-bench's rows (PLACES_BENCH_PROFILE=table: each hot path beside
# the floor measured in the same run), then one row each from the binaries that measure the
# rest, in the same Markdown table:
#   - route-bench: the TSPLIB set of ../shared/bench/tsplib, 1 s each, mean gap to the optima;
#   - the browser app's cold load: the max of BrowserBench's 10 cold loads (headless Chromium,
#     a debug test build driving the release binaries; it needs the release `places` and
#     `placesd` that `make release` builds).
# Usage: scripts/bench-table.sh RELEASE_BIN_DIR
# PLACES_BENCH_TABLE_SKIP (places-bench's sections, plus "tsplib" and "browser") leaves rows out.
set -uo pipefail

bin="${1:?usage: scripts/bench-table.sh RELEASE_BIN_DIR}"
swift="${SWIFT:-swift}"
skip=",${PLACES_BENCH_TABLE_SKIP:-},"
table="$(mktemp)"
log="$(mktemp)"
trap 'rm -f "$table" "$log"' EXIT

if ! PLACES_BENCH_PROFILE=table "$bin/places-bench" >"$table"; then
    echo "bench-table: places-bench's table failed" >&2
    exit 1
fi

rows=()
if [[ "$skip" != *,tsplib,* ]]; then
    echo "tsplib: route-bench over ../shared/bench/tsplib, 1 s each" >&2
    "$bin/route-bench" --tsplib-only --budget-ms 1000 >"$log" 2>&1
    # "mean gap 0.012 %, optimal 20/23"
    line="$(grep -E '^mean gap ' "$log" | tail -1)"
    gap="$(sed -E 's/^mean gap ([0-9.]+) %.*/\1/' <<<"$line")"
    optimal="$(sed -E 's/.*optimal ([0-9]+\/[0-9]+).*/\1/' <<<"$line")"
    if [[ -n "$line" ]]; then
        met="$(awk -v g="$gap" 'BEGIN { print (g <= 0.03 ? "met" : "**missed**") }')"
        rows+=("| TSPLIB set (\`../shared/bench/tsplib\`), 1 s each (route-bench) | the optimal tours | mean gap $gap % ($optimal optimal) | mean gap ≤ 0.03 % | $met |")
    else
        rows+=("| TSPLIB set (\`../shared/bench/tsplib\`), 1 s each (route-bench) | the optimal tours | not measured: $(tail -1 "$log" | cut -c1-300 | tr '|' '/') | mean gap ≤ 0.03 % | — |")
    fi
fi

if [[ "$skip" != *,browser,* ]]; then
    echo "browser: BrowserBench's 10 cold loads (debug test build, release daemons)" >&2
    if "$swift" build --build-tests >"$log" 2>&1; then
        PLACES_BIN_DIR="$bin" PLACES_BROWSER_BENCH=1 "$swift" test --skip-build \
            --filter 'BrowserBench.firstMeaningfulPaint' >"$log" 2>&1
    fi
    # "browser first meaningful paint (…): n=10 median=212.3 ms max=264.0 ms"
    line="$(grep -E '^browser first meaningful paint' "$log" | tail -1)"
    if [[ -n "$line" ]]; then
        max="$(sed -E 's/.* max=([0-9.]+) ms.*/\1/' <<<"$line")"
        median="$(sed -E 's/.* median=([0-9.]+) ms.*/\1/' <<<"$line")"
        count="$(sed -E 's/.* n=([0-9]+) .*/\1/' <<<"$line")"
        met="$(awk -v m="$max" 'BEGIN { print (m <= 300 ? "met" : "**missed**") }')"
        rows+=("| the browser app's cold load, itineraries list painted (BrowserBench) | — | max $max ms of $count loads (median $median ms) | max ≤ 300 ms | $met |")
    else
        rows+=("| the browser app's cold load (BrowserBench) | — | not measured: $(grep -E 'error|✘' "$log" | head -1 | cut -c1-300 | tr '|' '/') | max ≤ 300 ms | — |")
    fi
fi

cat "$table"
for row in "${rows[@]}"; do echo "$row"; done
