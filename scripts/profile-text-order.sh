#!/bin/bash
# Regenerates contrib/placesd.text-order: every function a release placesd runs from start
# through `places init` and a typical session (places, favorites, an itinerary, activity,
# events, a few refused requests), in the order callgrind first saw them. Release builds
# link those functions next to each other (Package.swift, `--section-ordering-file`), so the
# code an idle or lightly used daemon touches sits in a few hundred KiB of its 23 MB of
# code instead of being spread across all of it (see docs/benchmarks.md).
#
# Needs valgrind (apt-get install valgrind), curl and python3. Run it after large changes
# to the daemon's start-up or request paths; `make bench` shows the idle RSS it gives.
set -euo pipefail
cd "$(dirname "$0")/.."
command -v valgrind > /dev/null || { echo "needs valgrind: apt-get install valgrind" >&2; exit 1; }

make release-placesd
BIN="$(swift build -c release --static-swift-stdlib --show-bin-path)/placesd"
WORK=$(mktemp -d /tmp/places-order-XXXXXX)
trap 'pkill -f "$WORK/data" 2> /dev/null || true; rm -rf "$WORK"' EXIT
# Valgrind 3.19 cannot read the toolchain's DWARF 5; the symbol table is all it needs.
cp "$BIN" "$WORK/placesd"
strip --strip-debug "$WORK/placesd"
mkdir -m 700 "$WORK/data"
SOCK="$WORK/data/placesd.sock"

valgrind --tool=callgrind --demangle=no --callgrind-out-file="$WORK/callgrind.out" \
    "$WORK/placesd" --data-dir "$WORK/data" --log-level warning --no-discovery > "$WORK/log" 2>&1 &
VG=$!
for _ in $(seq 1 600); do [ -S "$SOCK" ] && break; sleep 0.2; done

c() { curl -s --unix-socket "$SOCK" "$@"; }
id() { python3 -c 'import json, sys; print(json.load(sys.stdin)["id"])'; }
c -X POST http://places/v1/init -d '{"name":"Order","username":"order","noPassphrase":true}' > /dev/null
sleep 2
c http://places/v1/status > /dev/null
PLACE=""
for i in 1 2 3; do
    PLACE=$(c -X POST http://places/v1/places \
        -d "{\"name\":\"Place $i\",\"latitude\":4$i.5,\"longitude\":2.$i,\"categories\":[\"food\"],\"rating\":4}" | id)
    c -X POST http://places/v1/favorites -d "{\"placeId\":\"$PLACE\"}" > /dev/null
done
c http://places/v1/places > /dev/null
c http://places/v1/favorites > /dev/null
IT=$(c -X POST http://places/v1/itineraries \
    -d '{"name":"Trip","startDate":"2026-12-01","endDate":"2026-12-05","travelPrice":{"amountMinor":12000,"currency":"EUR"}}' | id)
c -X POST "http://places/v1/itineraries/$IT/places" -d "{\"placeId\":\"$PLACE\"}" > /dev/null
c -X PATCH "http://places/v1/itineraries/$IT" -d '{"notes":"bring boots"}' > /dev/null
c http://places/v1/itineraries > /dev/null
c "http://places/v1/itineraries/$IT" > /dev/null
c "http://places/v1/itineraries/$IT/activity" > /dev/null
c http://places/v1/peers > /dev/null
c http://places/v1/itineraries/ffffffff > /dev/null
c -X POST http://places/v1/places -d '{"name":"Bad","latitude":123}' > /dev/null
timeout 1 curl -s -N --unix-socket "$SOCK" http://places/v1/events > /dev/null || true
sleep 1
kill -TERM "$VG"
wait "$VG" || true

python3 - "$WORK/callgrind.out" contrib/placesd.text-order << 'EOF'
import re, sys
names, objects, order, seen = {}, {}, [], set()
current = None
for line in open(sys.argv[1], errors="replace"):
    m = re.match(r"^(c?ob|c?fn)=\((\d+)\)(?: (.*))?$", line.rstrip("\n"))
    if not m:
        continue
    kind, index, name = m.groups()
    table = objects if kind.endswith("ob") else names
    if name is not None:
        table[index] = name
    if kind == "ob":
        current = objects[index]
    elif kind == "fn" and current and current.endswith("/placesd"):
        fn = re.sub(r"'\d+$", "", names[index])  # callgrind marks recursion levels with 'N
        if not fn.startswith("0x") and fn not in seen:
            seen.add(fn)
            order.append(".text." + fn)
with open(sys.argv[2], "w") as out:
    out.write("\n".join(order) + "\n")
print(f"{len(order)} functions written to {sys.argv[2]}")
EOF
