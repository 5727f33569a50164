import PlacesCrypto
import Testing

@testable import PlacesSync

/// The wanted set's budget (`Protocol/sync.md` §7.4): each holder a bounded share, and wants
/// no holder will serve dropped, so one friend naming photos it never sends slows only its
/// own photos.
@Suite("Blob wants budget")
struct BlobWantsTests {
    static func hash(_ n: Int) -> [UInt8] {
        var bytes = [UInt8](repeating: 0, count: BlobTransfer.hashBytes)
        bytes[0] = UInt8(truncatingIfNeeded: n)
        bytes[1] = UInt8(truncatingIfNeeded: n >> 8)
        bytes[2] = UInt8(truncatingIfNeeded: n >> 16)
        return bytes
    }

    static func peer() throws -> PublicKey { try SigningKeyPair().publicKey }

    @Test("a holder that fills its share leaves room for another holder's photo")
    func shareBounded() throws {
        let x = try Self.peer(), f = try Self.peer()
        var wants = BlobWants()
        var taken = 0
        for n in 0..<1_000 where wants.want(Self.hash(n), from: x) { taken += 1 }
        #expect(taken == BlobTransfer.maxWantedPerHolder)
        #expect(wants.share(of: x) == BlobTransfer.maxWantedPerHolder)
        #expect(wants.leftOut.contains(x))
        let taken5000 = wants.want(Self.hash(5_000), from: f)
        #expect(taken5000)
        #expect(wants.candidates(for: f) == [Self.hash(5_000)])
    }

    @Test("when the set is full, the holder with the largest share gives way to a newcomer")
    func fullSetEvictsLargest() throws {
        var wants = BlobWants()
        var holders = [PublicKey]()
        var n = 0
        while wants.wanted.count < BlobTransfer.maxWanted {
            let holder = try Self.peer()
            holders.append(holder)
            for _ in 0..<BlobTransfer.maxWantedPerHolder where wants.wanted.count < BlobTransfer.maxWanted {
                wants.want(Self.hash(n), from: holder)
                n += 1
            }
        }
        let newcomer = try Self.peer()
        let admitted = wants.want(Self.hash(99_999), from: newcomer)
        #expect(admitted)
        #expect(wants.wanted.count == BlobTransfer.maxWanted)
        #expect(wants.share(of: newcomer) == 1)
        #expect(holders.contains { wants.leftOut.contains($0) })
    }

    @Test("a refusal drops the holder; a blob with no holder left is no longer wanted")
    func refusalDrops() throws {
        let x = try Self.peer(), f = try Self.peer()
        var wants = BlobWants()
        wants.want(Self.hash(1), from: x)
        wants.want(Self.hash(1), from: f)
        wants.want(Self.hash(2), from: x)
        wants.start(Self.hash(1), from: x, offset: 0, now: .now)
        wants.refuse(Self.hash(1), by: x)
        #expect(wants.wanted[Self.hash(1)]?.holders == [f])
        #expect(wants.candidates(for: f) == [Self.hash(1)])
        wants.refuse(Self.hash(2), by: x)
        #expect(wants.wanted[Self.hash(2)] == nil)
        #expect(wants.share(of: x) == 0)
        // Refused in this session: found again, it is not wanted from x.
        wants.want(Self.hash(2), from: x)
        #expect(wants.wanted[Self.hash(2)] == nil)
        // A new session asks again.
        wants.peerGone(x)
        wants.want(Self.hash(2), from: x)
        #expect(wants.wanted[Self.hash(2)]?.holders == [x])
    }

    @Test("a want left unanswered past the wait counts as a refusal; one mid-store does not")
    func ageDrops() throws {
        let x = try Self.peer()
        var wants = BlobWants()
        let start = ContinuousClock.now
        wants.want(Self.hash(1), from: x)
        wants.want(Self.hash(2), from: x)
        wants.start(Self.hash(1), from: x, offset: 0, now: start)
        wants.start(Self.hash(2), from: x, offset: 0, now: start)
        var storing = try #require(wants.flight(Self.hash(2), from: x))
        storing.storing = true
        wants.setFlight(storing, Self.hash(2), from: x)
        let early = wants.expire(now: start + .seconds(1))
        #expect(early.isEmpty)
        let late = wants.expire(now: start + BlobTransfer.maxWantWait)
        #expect(late.map(\.hash) == [Self.hash(1)])
        #expect(wants.wanted[Self.hash(1)] == nil && wants.flight(Self.hash(1), from: x) == nil)
        #expect(wants.flight(Self.hash(2), from: x) != nil)
    }

    @Test("a closed session takes its holder's share with it; its documents are looked at again once drained")
    func sessionAndRefill() throws {
        let x = try Self.peer(), f = try Self.peer()
        var wants = BlobWants()
        for n in 0...BlobTransfer.maxWantedPerHolder { wants.want(Self.hash(n), from: x) }
        wants.want(Self.hash(0), from: f)
        let early = wants.takeRefill(x)
        #expect(!early, "x's share is not empty yet")
        wants.peerGone(x)
        #expect(wants.share(of: x) == 0)
        #expect(wants.wanted.count == 1 && wants.wanted[Self.hash(0)]?.holders == [f])
        // f's share empties with the blob held whole; it was never left out: no refill.
        wants.finish(Self.hash(0))
        let unmarked = wants.takeRefill(f)
        #expect(wants.wanted.isEmpty && !unmarked)
        for n in 0...BlobTransfer.maxWantedPerHolder { wants.want(Self.hash(n), from: f) }
        for n in 0..<BlobTransfer.maxWantedPerHolder { wants.finish(Self.hash(n)) }
        let refill = wants.takeRefill(f), again = wants.takeRefill(f)
        #expect(refill)
        #expect(!again, "the mark is cleared")
    }

    @Test("held wants: at most four per peer, answered when the blob is no longer wanted or after the wait")
    func heldWants() throws {
        let phone = try Self.peer(), tablet = try Self.peer()
        var held = HeldBlobWants()
        let start = ContinuousClock.now
        for n in 0..<BlobTransfer.maxInFlightPerPeer {
            expectHold(&held, true, Self.hash(n), offset: 0, from: phone, now: start)
        }
        // A fifth blob is answered at once; a second want of a held blob replaces the first.
        expectHold(&held, false, Self.hash(99), offset: 0, from: phone, now: start)
        expectHold(&held, true, Self.hash(0), offset: 512, from: phone, now: start)
        expectHold(&held, true, Self.hash(0), offset: 0, from: tablet, now: start)
        // Blob 1 is no longer wanted here: its want is due, not expired.
        var due = held.takeDue(now: start) { $0 != Self.hash(1) }
        #expect(due.map(\.hash) == [Self.hash(1)])
        #expect(due.first?.expired == false)
        // A freed place takes a new blob.
        expectHold(&held, true, Self.hash(98), offset: 0, from: phone, now: start)
        // After the wait every want is due, as expired.
        due = held.takeDue(now: start + BlobTransfer.maxWantWait) { _ in true }
        #expect(due.count == 5)
        #expect(due.allSatisfy { $0.expired })
        #expect(held.isEmpty)
        // A peer's last session takes its held wants.
        expectHold(&held, true, Self.hash(7), offset: 0, from: tablet, now: start)
        held.peerGone(tablet)
        #expect(held.isEmpty)
        due = held.takeDue(now: start + BlobTransfer.maxWantWait) { _ in true }
        #expect(due.isEmpty)
    }

    private func expectHold(
        _ held: inout HeldBlobWants, _ taken: Bool, _ hash: [UInt8], offset: UInt64, from peer: PublicKey,
        now: ContinuousClock.Instant
    ) {
        let result = held.hold(hash, offset: offset, from: peer, now: now)
        #expect(result == taken)
    }
}
