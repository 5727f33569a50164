#!/usr/bin/env bash
# Regenerates the committed Swift code for the sync protocol:
#   Protocol/sync.proto -> Sources/PlacesSync/Generated/sync.pb.swift
#
# Normal builds never run this; run it after editing a .proto file and commit the result.
# Needs protoc (Debian's protobuf-compiler is installed if missing) and protoc-gen-swift
# built from swift-protobuf at the version Package.swift pins (built into a temporary
# directory if it is not on PATH at that version, or given by PROTOC_GEN_SWIFT).
set -euo pipefail

# Keep in step with `protobufVersion` in Package.swift: generated code must match the
# SwiftProtobuf runtime it links against.
SWIFT_PROTOBUF_VERSION="1.39.0"
SWIFT_PROTOBUF_URL="https://github.com/apple/swift-protobuf"

root="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
cd "$root"

pinned="$(sed -n 's/^let protobufVersion: Version = "\(.*\)"$/\1/p' Package.swift)"
if [[ -n "$pinned" && "$pinned" != "$SWIFT_PROTOBUF_VERSION" ]]; then
    echo "Package.swift pins swift-protobuf $pinned but this script uses $SWIFT_PROTOBUF_VERSION; update the script" >&2
    exit 1
fi

if ! command -v protoc >/dev/null 2>&1; then
    echo "protoc not found; installing protobuf-compiler" >&2
    sudo_cmd=""
    if [[ "$(id -u)" != 0 ]]; then sudo_cmd="sudo"; fi
    $sudo_cmd apt-get install -y protobuf-compiler
fi

plugin="${PROTOC_GEN_SWIFT:-}"
if [[ -z "$plugin" ]] && command -v protoc-gen-swift >/dev/null 2>&1 \
    && [[ "$(protoc-gen-swift --version 2>/dev/null)" == *"$SWIFT_PROTOBUF_VERSION"* ]]; then
    plugin="$(command -v protoc-gen-swift)"
fi
if [[ -z "$plugin" ]]; then
    cache="${TMPDIR:-/tmp}/places-protoc-gen-swift-$SWIFT_PROTOBUF_VERSION"
    plugin="$cache/.build/release/protoc-gen-swift"
    if [[ ! -x "$plugin" ]]; then
        echo "Building protoc-gen-swift $SWIFT_PROTOBUF_VERSION in $cache (about two minutes)" >&2
        rm -rf "$cache"
        git -c advice.detachedHead=false clone --quiet --depth 1 --branch "$SWIFT_PROTOBUF_VERSION" "$SWIFT_PROTOBUF_URL" "$cache"
        (cd "$cache" && swift build -c release --product protoc-gen-swift)
    fi
fi

out="Sources/PlacesSync/Generated"
mkdir -p "$out"
protoc \
    --plugin=protoc-gen-swift="$plugin" \
    --swift_opt=Visibility=Internal \
    --swift_out="$out" \
    -I Protocol \
    Protocol/sync.proto
echo "Wrote $out/sync.pb.swift with $("$plugin" --version)" >&2
