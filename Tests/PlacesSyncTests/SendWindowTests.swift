import PlacesModel
import Testing

@testable import PlacesSync

@Suite("Send windows of pipelined sync rounds")
struct SendWindowTests {
    let author = String(repeating: "ab", count: 32)
    let other = String(repeating: "cd", count: 32)

    func vector(_ seq: UInt64) -> VersionVector { VersionVector([author: seq]) }

    /// A window that sent batches ending at the given seqs, starting from what the peer held.
    func window(from start: UInt64, batches ends: [UInt64]) -> SendWindow {
        var window = SendWindow(frontier: vector(start))
        for end in ends {
            window.inFlight.append((through: vector(end), bytes: 1_000))
            window.frontier = vector(end)
        }
        return window
    }

    /// `window.acknowledge(theirs)`, outside `#expect` (which cannot mutate).
    func acknowledge(_ window: inout SendWindow, _ theirs: VersionVector) -> Bool {
        window.acknowledge(theirs)
    }

    @Test("a pull after a stored batch acknowledges it; the next round starts after what is in flight")
    func pullAcknowledgesStoredBatches() {
        var w = window(from: 0, batches: [100, 200, 300])
        let first = acknowledge(&w, vector(100))
        #expect(first)
        #expect(w.inFlight.count == 2 && w.inFlightBytes == 2_000)
        #expect(w.frontier == vector(300), "not the peer's vector: that would send the batches in flight again")
        let last = acknowledge(&w, vector(300))
        #expect(last)
        #expect(w.inFlight.isEmpty)
    }

    @Test("an offer showing no new progress keeps the window")
    func offerWithoutProgressKeepsWindow() {
        var w = window(from: 0, batches: [100, 200])
        let stored = acknowledge(&w, vector(100))
        let again = acknowledge(&w, vector(100))
        let older = acknowledge(&w, vector(0))
        #expect(stored && again && older)
        #expect(w.inFlight.count == 1 && w.frontier == vector(200))
        // An empty vector after progress asks for the whole log (equivocation recovery).
        #expect(!acknowledge(&w, VersionVector()))
    }

    @Test("a peer that stored only part of a batch makes the window start again")
    func partialBatchResets() {
        var w = window(from: 0, batches: [100, 200])
        let partOfFirst = acknowledge(&w, vector(50))
        #expect(!partOfFirst)
        var v = window(from: 0, batches: [100, 200])
        let first = acknowledge(&v, vector(100))
        let partOfSecond = acknowledge(&v, vector(150))
        #expect(first && !partOfSecond)
    }

    @Test("ops of other authors the peer got elsewhere do not hide its progress")
    func otherAuthors() {
        var w = window(from: 0, batches: [100, 200])
        var theirs = vector(100)
        theirs.include(other, 7)
        let acknowledged = acknowledge(&w, theirs)
        #expect(acknowledged)
        #expect(w.inFlight.count == 1)
        #expect(w.frontier[other] == 7 && w.frontier[author] == 200)
    }
}
