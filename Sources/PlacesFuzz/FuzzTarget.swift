import Foundation
import PlacesInterchange

/// The fuzz targets (`docs/fuzzing.md`). Each takes any bytes, never throws, and crashes
/// only on a bug: an invariant it checks broken, a trap in the code under test, or a
/// sanitizer report.
public enum FuzzTarget: String, CaseIterable, Sendable {
    /// Noise frame decoding (`SyncFrameDecoder` in a NIO pipeline) and fragment reassembly.
    case frames
    /// A whole sync session against a real `Engine` over a temporary data dir.
    case syncSession = "sync-session"
    /// `SignedOp(decoding:)` and `Store.ingest` into a store holding an itinerary.
    case ingest
    /// `CapabilityToken(decoding:)`, its checks, and `ShareLink(parsing:)`.
    case tokens
    /// `Beacon.decode` through the receiver's `BeaconFilter`.
    case beacons
    /// The control API's HTTP request parsing and request-body decoding.
    case control
    /// `PlaceImport.read` of a file in every format (GeoJSON, KML, GPX), its export read
    /// back, and the import plan (`PlaceImport.fuzz`).
    case placeImport = "import"
    /// A trip folder of peer-shaped items through days, warnings, costs, day-route ends and
    /// the calendar (`FuzzTrips`).
    case trips
    /// Expense terms as a peer stores them, exchange rates, amounts, the ledger and the
    /// settle-up planner with arbitrary balances (`FuzzExpenses`).
    case expenses
    /// Issue 15's discover input: a peer's gazetteer ids, `NameFolding.fold` and a gazetteer
    /// search over arbitrary UTF-8 (`FuzzDiscover`).
    case discover
    /// A relay link's token and text, a signed access list and the relay messages (`FuzzRelay`).
    case relay
    /// A place's opening hours: `OpeningHours` over arbitrary and syntax-shaped text (`FuzzHours`).
    case hours
    /// `Ed25519KeyTable.verify` against libsodium on keys, signatures and messages from the
    /// input (`FuzzSignatures`).
    case signatures

    /// Runs one input. `sync-session` drives an actor: here it waits for it on a
    /// semaphore, so call this from a thread outside Swift's cooperative pool (libFuzzer's,
    /// a command line tool's main thread); async code calls `runAsync`.
    public func run(_ input: [UInt8]) {
        switch self {
        case .frames: FuzzFrames.run(input)
        case .syncSession: blocking { await FuzzSyncSession.run(input) }
        case .ingest: FuzzIngest.run(input)
        case .tokens: FuzzTokens.run(input)
        case .beacons: FuzzBeacons.run(input)
        case .control: FuzzControl.run(input)
        case .placeImport: PlaceImport.fuzz(input)
        case .trips: FuzzTrips.run(input)
        case .expenses: FuzzExpenses.run(input)
        case .discover: FuzzDiscover.run(input)
        case .relay: FuzzRelay.run(input)
        case .hours: FuzzHours.run(input)
        case .signatures: FuzzSignatures.run(input)
        }
    }

    /// Runs one input from async code.
    public func runAsync(_ input: [UInt8]) async {
        switch self {
        case .syncSession: await FuzzSyncSession.run(input)
        default: run(input)
        }
    }

    /// The seed corpus directory, `Fuzz/corpus/<target>`.
    public var corpusDirectory: URL { FuzzWorld.fuzzDirectory.appendingPathComponent("corpus/\(rawValue)") }
    /// Saved crashing inputs, `Fuzz/crashers/<target>`.
    public var crashersDirectory: URL { FuzzWorld.fuzzDirectory.appendingPathComponent("crashers/\(rawValue)") }

    /// Every regular file in `directory`, sorted by name (none when it does not exist).
    public static func files(in directory: URL) -> [URL] {
        let names = (try? FileManager.default.contentsOfDirectory(atPath: directory.path)) ?? []
        return names.filter { !$0.hasPrefix(".") }.sorted().map { directory.appendingPathComponent($0) }
    }
}

/// Waits for `body` on a semaphore (from a thread outside the cooperative pool).
func blocking(_ body: @escaping @Sendable () async -> Void) {
    let done = DispatchSemaphore(value: 0)
    Task.detached {
        await body()
        done.signal()
    }
    done.wait()
}

/// What the harnesses saw, on stderr when `PLACES_FUZZ_VERBOSE` is set: to check that
/// seeds reach the checks they are meant for (`places-fuzz TARGET` with the variable set).
enum FuzzLog {
    static let enabled = ProcessInfo.processInfo.environment["PLACES_FUZZ_VERBOSE"] != nil

    static func note(_ text: @autoclosure () -> String) {
        guard enabled else { return }
        FileHandle.standardError.write(Data(("  " + text() + "\n").utf8))
    }
}
