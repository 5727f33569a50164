#!/usr/bin/env bash
# Coverage-guided fuzzing with libFuzzer (docs/fuzzing.md).
#
#   scripts/fuzz.sh [TARGET|all] [SECONDS]
#
# Builds `places-fuzz` with `--sanitize=fuzzer` in its own scratch path (.build-fuzz), then
# runs each target for SECONDS (default 60) starting from its committed seeds
# (Fuzz/corpus/TARGET; new inputs go to .build-fuzz/corpus/TARGET, not committed). A
# crashing input is saved as Fuzz/crashers/TARGET/crash-<sha1>: commit it, and the replay
# test (Tests/PlacesFuzzTests) keeps it as a regression. Exits non-zero if any target
# crashed. Extra libFuzzer flags can be given in FUZZ_FLAGS (e.g. FUZZ_FLAGS=-jobs=2).
set -euo pipefail
cd "$(dirname "$0")/.."
export PATH="/opt/swift/usr/bin:$PATH"

all=(frames sync-session ingest tokens beacons control import trips expenses discover relay hours signatures)
target="${1:-all}"
seconds="${2:-60}"
if [ "$target" = all ]; then
    targets=("${all[@]}")
else
    case " ${all[*]} " in
    *" $target "*) targets=("$target") ;;
    *)
        echo "unknown target '$target'; one of: ${all[*]} all" >&2
        exit 2
        ;;
    esac
fi

build=(swift build --sanitize=fuzzer --scratch-path .build-fuzz -Xswiftc -DFUZZING)
"${build[@]}" --product places-fuzz
binary="$("${build[@]}" --show-bin-path)/places-fuzz"

failed=()
for t in "${targets[@]}"; do
    work=".build-fuzz/corpus/$t"
    mkdir -p "$work" "Fuzz/crashers/$t"
    echo "== fuzzing $t for ${seconds}s"
    # SWIFT_BACKTRACE=enable=no: Swift's backtracer would otherwise catch the crash first and
    # libFuzzer would write no crash file.
    set +e
    # shellcheck disable=SC2086
    PLACES_FUZZ_TARGET="$t" SWIFT_BACKTRACE=enable=no "$binary" \
        -max_total_time="$seconds" -timeout=20 -rss_limit_mb=3072 -print_final_stats=1 \
        -artifact_prefix="Fuzz/crashers/$t/" ${FUZZ_FLAGS:-} "$work" "Fuzz/corpus/$t" >".build-fuzz/$t.log" 2>&1
    status=$?
    set -e
    grep -E '^(#[0-9]+[[:space:]]+(INITED|DONE)|stat::number_of_executed_units|stat::average_exec_per_sec|stat::new_units_added)' \
        ".build-fuzz/$t.log" || true
    if [ "$status" -ne 0 ]; then
        failed+=("$t")
        tail -n 60 ".build-fuzz/$t.log" >&2
        echo "!! $t crashed (exit $status): full log in .build-fuzz/$t.log, input in Fuzz/crashers/$t/" >&2
    fi
done

if [ "${#failed[@]}" -gt 0 ]; then
    echo "fuzz targets that crashed: ${failed[*]}" >&2
    exit 1
fi
echo "fuzzing done: no crash in ${targets[*]}"
