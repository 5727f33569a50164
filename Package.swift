// swift-tools-version: 6.1
import PackageDescription

// Dependency versions: only versions present in the local package mirror resolve.
let nioVersion: Version = "2.101.3"
let argumentParserVersion: Version = "1.8.2"
let logVersion: Version = "1.16.2"
let serviceLifecycleVersion: Version = "2.13.0"
let grdbVersion: Version = "7.10.0"
let protobufVersion: Version = "1.39.0"
/// TLS for the weather client's https sources (BoringSSL, vendored by the package).
let nioSSLVersion: Version = "2.37.6"
/// Tests only: reads Protocol/control-api.yaml to check every response against it.
let yamsVersion: Version = "6.2.2"

/// This directory, with a trailing slash (for the linker's ordering file).
let packageDirectory = String(#filePath.dropLast("Package.swift".count))

let package = Package(
    name: "places",
    platforms: [.macOS(.v14)],
    products: [
        .executable(name: "placesd", targets: ["placesd"]),
        .executable(name: "places", targets: ["places"]),
    ],
    dependencies: [
        .package(url: "https://github.com/apple/swift-nio", exact: nioVersion),
        .package(url: "https://github.com/apple/swift-nio-ssl", exact: nioSSLVersion),
        .package(url: "https://github.com/apple/swift-argument-parser", exact: argumentParserVersion),
        .package(url: "https://github.com/apple/swift-log", exact: logVersion),
        .package(url: "https://github.com/swift-server/swift-service-lifecycle", exact: serviceLifecycleVersion),
        .package(url: "https://github.com/groue/GRDB.swift", exact: grdbVersion),
        .package(url: "https://github.com/apple/swift-protobuf", exact: protobufVersion),
        .package(url: "https://github.com/jpsim/Yams", exact: yamsVersion),
    ],
    targets: [
        .systemLibrary(
            name: "CSodium",
            pkgConfig: "libsodium",
            providers: [.apt(["libsodium-dev"])]
        ),
        // One wrapper of SQLite's variadic `sqlite3_config` (the store turns off its memory
        // statistics, a process-wide mutex on every allocation).
        .systemLibrary(name: "CSQLiteTuning", providers: [.apt(["libsqlite3-dev"])]),
        .target(name: "PlacesCrypto", dependencies: ["CSodium", "PlacesModel"]),
        .target(name: "PlacesModel"),
        .target(name: "PlacesAccess", dependencies: ["PlacesCrypto", "PlacesModel"]),
        // The QR encoder for share links on a terminal: only the CLI uses it.
        .target(name: "PlacesQR"),
        .target(name: "PlacesRoutes"),
        // Suggested trips: opening hours (the OSM `opening_hours` syntax) and the orienteering
        // solver with time windows (TOPTW) that picks and orders the stops of each day.
        .target(name: "PlacesPlanner", dependencies: ["PlacesRoutes"]),
        // Trip folders: days, warnings, costs and the calendar, computed from a trip's items.
        .target(name: "PlacesTrips", dependencies: ["PlacesModel", "PlacesRoutes"]),
        // Group expenses: balances, pairwise debts and the fewest transfers to settle up,
        // computed from a trip's expenses (exact integer money).
        .target(name: "PlacesExpenses", dependencies: ["PlacesModel"]),
        // Discover: continents, countries, regions and cities from GeoNames (a committed
        // resource made by contrib/gazetteer/), folded names and ranked search.
        .target(
            name: "PlacesGazetteer", dependencies: ["PlacesModel"],
            resources: [.copy("Resources/gazetteer.tsv"), .copy("Resources/timezones.tsv")]),
        // Destinations: sun times (NOAA's equations), forecast answers checked, the spot of
        // the day; pure.
        .target(name: "PlacesDestinations", dependencies: ["PlacesModel"]),
        // Places in and out of other tools' files: GeoJSON (Google Takeout), KML, GPX.
        .target(name: "PlacesInterchange"),
        // Photos: the media type sniffed from the bytes, width and height from the header,
        // and the metadata (EXIF location, camera serial, maker notes) removed.
        .target(name: "PlacesMedia"),
        // Content-addressed, encrypted-at-rest blobs (photos) under the data dir: streamed in,
        // hashed as they arrive, resumed, collected, within a quota.
        .target(name: "PlacesBlobs", dependencies: ["PlacesCrypto"]),
        .target(
            name: "PlacesStore",
            dependencies: [
                "PlacesModel", "PlacesCrypto", "PlacesAccess", "CSQLiteTuning",
                .product(name: "GRDB", package: "GRDB.swift"),
                .product(name: "GRDBSQLite", package: "GRDB.swift"),
            ]
        ),
        .target(
            name: "PlacesSync",
            dependencies: [
                "PlacesAccess", "PlacesCrypto", "PlacesModel",
                .product(name: "SwiftProtobuf", package: "swift-protobuf"),
                .product(name: "NIOCore", package: "swift-nio"),
                .product(name: "NIOPosix", package: "swift-nio"),
                .product(name: "Logging", package: "swift-log"),
            ]
        ),
        // The control API's request and response types, `Problem` and their JSON: what the
        // CLI and the daemon share, without NIO.
        .target(name: "PlacesAPI", dependencies: ["PlacesModel"]),
        // The blocking Unix-socket HTTP client of the control API (the CLI and tests), without NIO.
        .target(name: "PlacesControlClient"),
        // The control API server (NIO, HTTP/1.1 on a Unix socket) and the router's interface.
        .target(
            name: "PlacesControl",
            dependencies: [
                "PlacesAPI", "PlacesModel",
                .product(name: "NIOCore", package: "swift-nio"),
                .product(name: "NIOPosix", package: "swift-nio"),
                .product(name: "NIOHTTP1", package: "swift-nio"),
            ]
        ),
        .target(
            name: "PlacesDaemon",
            dependencies: [
                "PlacesCrypto", "PlacesModel", "PlacesAccess", "PlacesStore", "PlacesAPI", "PlacesControl",
                "PlacesRoutes", "PlacesSync", "PlacesTrips", "PlacesInterchange", "PlacesExpenses",
                "PlacesGazetteer", "PlacesMedia", "PlacesBlobs", "PlacesPlanner", "PlacesDestinations",
                .product(name: "Logging", package: "swift-log"),
                .product(name: "ServiceLifecycle", package: "swift-service-lifecycle"),
                .product(name: "NIOCore", package: "swift-nio"),
                .product(name: "NIOPosix", package: "swift-nio"),
                .product(name: "NIOHTTP1", package: "swift-nio"),
                .product(name: "NIOSSL", package: "swift-nio-ssl"),
            ]
        ),
        .executableTarget(
            name: "placesd",
            dependencies: [
                "PlacesDaemon",
                .product(name: "ArgumentParser", package: "swift-argument-parser"),
                .product(name: "Logging", package: "swift-log"),
            ],
            // Release builds of the daemon are position-dependent (no dynamic relocations of
            // the Swift metadata at start), export no symbols (the dynamic linker no longer
            // searches 27,000 of them), and place the functions a running daemon uses next to
            // each other (contrib/placesd.text-order, made by scripts/profile-text-order.sh;
            // it needs the Makefile's `-function-sections`). With `--static-swift-stdlib`
            // they take its idle RSS from ~34 MB to ~21.5–23 MB (docs/architecture.md).
            linkerSettings: [
                .unsafeFlags(
                    [
                        "-Xclang-linker", "-no-pie", "-Xlinker", "--no-export-dynamic", "-Xlinker",
                        "--section-ordering-file=\(packageDirectory)contrib/placesd.text-order",
                    ],
                    .when(platforms: [.linux], configuration: .release))
            ]
        ),
        // The browser app (`places gui`): its static files and the loopback HTTP server that
        // serves them and forwards `/v1/` to the daemon's socket behind a token, cookie, Host,
        // Origin and CSRF gate (docs/web-app.md).
        .target(
            name: "PlacesWeb",
            dependencies: [
                .product(name: "NIOCore", package: "swift-nio"),
                .product(name: "NIOPosix", package: "swift-nio"),
                .product(name: "NIOHTTP1", package: "swift-nio"),
                .product(name: "NIOConcurrencyHelpers", package: "swift-nio"),
            ],
            resources: [.copy("App")]
        ),
        .executableTarget(
            name: "places",
            // The CLI talks to the daemon through PlacesAPI's types and the blocking socket
            // client; NIO comes in only with PlacesWeb, for `places gui`.
            dependencies: [
                "PlacesAPI", "PlacesControlClient", "PlacesModel", "PlacesQR", "PlacesRoutes", "PlacesWeb",
                .product(name: "ArgumentParser", package: "swift-argument-parser"),
            ]
        ),
        .executableTarget(
            name: "places-bench",
            dependencies: [
                "CSodium", "PlacesCryptoTesting", "PlacesDaemon", "PlacesCrypto", "PlacesExpenses", "PlacesStore",
                "PlacesModel", "PlacesAPI",
                "PlacesControlClient", "PlacesGazetteer",
            ]
        ),
        .executableTarget(name: "route-bench", dependencies: ["PlacesRoutes"]),
        // The orienteering benchmark (../shared/bench/optw): gap to the best-known scores.
        .executableTarget(name: "plan-bench", dependencies: ["PlacesPlanner"]),
        // Fuzz targets (docs/fuzzing.md): the harnesses in one library, one binary with a
        // target switch (a libFuzzer binary under `--sanitize=fuzzer -Xswiftc -DFUZZING`,
        // else a replay driver). The harnesses use `@testable import`: debug builds only.
        .target(
            name: "PlacesFuzz",
            dependencies: [
                "CSodium", "PlacesAccess", "PlacesAPI", "PlacesControl", "PlacesCrypto", "PlacesDaemon",
                "PlacesModel", "PlacesStore", "PlacesSync", "PlacesInterchange", "PlacesTrips", "PlacesExpenses",
                "PlacesGazetteer", "PlacesPlanner",
                .product(name: "Logging", package: "swift-log"),
                .product(name: "NIOCore", package: "swift-nio"),
                .product(name: "NIOEmbedded", package: "swift-nio"),
                .product(name: "NIOHTTP1", package: "swift-nio"),
                .product(name: "SwiftProtobuf", package: "swift-protobuf"),
            ]
        ),
        .executableTarget(
            name: "places-fuzz", dependencies: ["PlacesFuzz"], swiftSettings: [.unsafeFlags(["-parse-as-library"])]
        ),
        .target(
            name: "PlacesTestSupport",
            dependencies: [
                "PlacesAccess", "PlacesAPI", "PlacesControl", "PlacesControlClient", "PlacesCrypto", "PlacesDaemon",
                "PlacesModel", "PlacesStore", "PlacesSync",
                .product(name: "SwiftProtobuf", package: "swift-protobuf"),
                .product(name: "Yams", package: "Yams"),
                .product(name: "NIOCore", package: "swift-nio"),
                .product(name: "NIOPosix", package: "swift-nio"),
                .product(name: "NIOHTTP1", package: "swift-nio"),
                .product(name: "NIOConcurrencyHelpers", package: "swift-nio"),
                .product(name: "NIOSSL", package: "swift-nio-ssl"),
            ],
            path: "Tests/PlacesTestSupport"
        ),
        // CSodium: the Ed25519 key table's tests sign with torsion keys through libsodium's
        // point functions; Fixtures: C2SP CCTV's Ed25519 vectors.
        .testTarget(
            name: "PlacesCryptoTests", dependencies: ["PlacesCrypto", "PlacesModel", "PlacesCryptoTesting", "CSodium"],
            exclude: ["Fixtures"]),
        // Keys with a small-order part and signatures libsodium accepts from them: for the key
        // table's tests and its differential bench.
        .target(name: "PlacesCryptoTesting", dependencies: ["CSodium"], path: "Tests/PlacesCryptoTesting"),
        .testTarget(name: "PlacesModelTests", dependencies: ["PlacesModel"]),
        .testTarget(
            name: "PlacesAccessTests", dependencies: ["PlacesAccess", "PlacesCrypto", "PlacesModel", "PlacesRoutes"],
            exclude: ["Regressions"]
        ),
        .testTarget(name: "PlacesQRTests", dependencies: ["PlacesQR"], exclude: ["Fixtures"]),
        .testTarget(name: "PlacesRoutesTests", dependencies: ["PlacesRoutes"]),
        .testTarget(name: "PlacesPlannerTests", dependencies: ["PlacesPlanner", "PlacesRoutes"]),
        .testTarget(name: "PlacesTripsTests", dependencies: ["PlacesTrips", "PlacesModel", "PlacesRoutes"]),
        .testTarget(name: "PlacesExpensesTests", dependencies: ["PlacesExpenses", "PlacesModel"]),
        .testTarget(name: "PlacesGazetteerTests", dependencies: ["PlacesGazetteer", "PlacesModel"]),
        .testTarget(
            name: "PlacesDestinationsTests", dependencies: ["PlacesDestinations", "PlacesModel"],
            exclude: ["sun-vectors.tsv"]),
        .testTarget(name: "PlacesMediaTests", dependencies: ["PlacesMedia"]),
        .testTarget(name: "PlacesBlobsTests", dependencies: ["PlacesBlobs", "PlacesCrypto", "PlacesModel"]),
        .testTarget(
            name: "PlacesInterchangeTests", dependencies: ["PlacesInterchange", "PlacesRoutes"], exclude: ["Samples"]),
        .testTarget(
            name: "PlacesControlTests",
            dependencies: [
                "PlacesAPI", "PlacesControl", "PlacesControlClient", "PlacesModel",
                .product(name: "NIOCore", package: "swift-nio"),
            ]
        ),
        .testTarget(
            name: "PlacesDaemonTests",
            dependencies: [
                "PlacesDaemon", "PlacesModel", "PlacesRoutes", "PlacesAPI", "PlacesControl", "PlacesTestSupport",
                "PlacesStore", "PlacesCrypto",
            ]
        ),
        .testTarget(
            name: "PlacesSyncTests",
            dependencies: [
                "PlacesSync", "PlacesAccess", "PlacesCrypto", "PlacesModel",
                .product(name: "Logging", package: "swift-log"),
                .product(name: "NIOCore", package: "swift-nio"),
                .product(name: "NIOPosix", package: "swift-nio"),
                .product(name: "SwiftProtobuf", package: "swift-protobuf"),
            ]
        ),
        .testTarget(
            name: "PlacesStoreTests",
            dependencies: ["PlacesStore", "PlacesModel", "PlacesCrypto", "PlacesAccess", "PlacesRoutes"]
        ),
        .testTarget(name: "PlacesFuzzTests", dependencies: ["PlacesFuzz"]),
        .testTarget(
            name: "PlacesIntegrationTests",
            dependencies: [
                "PlacesTestSupport", "PlacesAPI", "PlacesControlClient", "PlacesModel", "PlacesStore", "PlacesCrypto",
                "PlacesAccess", "PlacesSync",
            ]
        ),
    ]
)
