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

    @Test("discover: NameFolding.fold drops a joiner and a variation selector (\"dz\\u{200D}\\u{FE0F}\" is \"dz\")")
    func foldZWJVariationSelector() async throws {
        let file = FuzzTarget.discover.crashersDirectory.appendingPathComponent("fold-zwj-vs16-not-idempotent")
        await FuzzTarget.discover.runAsync([UInt8](try Data(contentsOf: file)))
    }

    @Test("discover: the 3-character query \"o東京\" gets no fuzzy match (typos are allowed by characters)")
    func fuzzyMatchForThreeCharacters() async throws {
        let file = FuzzTarget.discover.crashersDirectory.appendingPathComponent("search-fuzzy-match-for-3-characters")
        await FuzzTarget.discover.runAsync([UInt8](try Data(contentsOf: file)))
    }
}
