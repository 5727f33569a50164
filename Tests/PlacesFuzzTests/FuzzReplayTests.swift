import Foundation
import PlacesFuzz
import Testing

/// Every committed seed and crasher of every fuzz target (`Fuzz/corpus/`, `Fuzz/crashers/`)
/// goes through the target's entry function in-process: a crash here is a regression.
/// The test passing is its assertion; the harnesses check their invariants with
/// preconditions.
@Suite("Fuzz corpus replay")
struct FuzzReplayTests {
    /// Saved crashers whose bug is not fixed yet: skipped by `replay`, each kept below as
    /// a disabled test naming where it crashes.
    static let knownCrashers: Set<String> = []

    @Test("every saved input of the target runs without crashing", arguments: FuzzTarget.allCases)
    func replay(_ target: FuzzTarget) async throws {
        let corpus = FuzzTarget.files(in: target.corpusDirectory)
        #expect(!corpus.isEmpty, "no seed corpus in \(target.corpusDirectory.path)")
        let crashers = FuzzTarget.files(in: target.crashersDirectory).filter {
            !Self.knownCrashers.contains("\(target.rawValue)/\($0.lastPathComponent)")
        }
        for file in corpus + crashers {
            await target.runAsync([UInt8](try Data(contentsOf: file)))
        }
    }
}
