import PlacesCrypto

/// Wants this daemon holds back (`Protocol/sync.md` §7.4, "Giving"). A peer that may have a
/// blob once it is held here (another device of this person) asked for one this daemon is
/// fetching itself: the want is answered when that fetch ends — with the chunk, or
/// `BlobMissing` when the blob is no longer wanted here — or with `BlobMissing` once it has
/// waited `BlobTransfer.maxWantWait` (the asker gives up then). At most
/// `BlobTransfer.maxInFlightPerPeer` per peer, as many as a peer keeps outstanding; gone with
/// the peer's last session.
struct HeldBlobWants: Sendable {
    struct Held: Sendable, Equatable {
        var peer: PublicKey
        var offset: UInt64
        var since: ContinuousClock.Instant
    }

    /// A held want to answer now: `expired` when it waited too long (answered `BlobMissing`),
    /// else the blob is no longer wanted here (held whole now, or given up).
    struct Due: Sendable {
        var hash: [UInt8]
        var want: Held
        var expired: Bool
    }

    private(set) var byHash: [[UInt8]: [Held]] = [:]
    private var perPeer: [PublicKey: Int] = [:]

    var isEmpty: Bool { byHash.isEmpty }

    /// Holds `peer`'s want of `hash` from `offset`; false when its share is full (the want
    /// is answered `BlobMissing` at once). A second want of one blob replaces the first.
    mutating func hold(_ hash: [UInt8], offset: UInt64, from peer: PublicKey, now: ContinuousClock.Instant) -> Bool {
        var wants = byHash[hash] ?? []
        if let index = wants.firstIndex(where: { $0.peer == peer }) {
            wants[index] = Held(peer: peer, offset: offset, since: now)
            byHash[hash] = wants
            return true
        }
        guard perPeer[peer, default: 0] < BlobTransfer.maxInFlightPerPeer else { return false }
        wants.append(Held(peer: peer, offset: offset, since: now))
        byHash[hash] = wants
        perPeer[peer, default: 0] += 1
        return true
    }

    /// Takes the wants to answer now: of blobs `stillWanted` says no, and those held since
    /// before `now − BlobTransfer.maxWantWait`.
    mutating func takeDue(now: ContinuousClock.Instant, stillWanted: ([UInt8]) -> Bool) -> [Due] {
        var due = [Due]()
        for (hash, wants) in byHash {
            let wanted = stillWanted(hash)
            var kept = [Held]()
            for want in wants {
                let expired = now - want.since >= BlobTransfer.maxWantWait
                if wanted && !expired {
                    kept.append(want)
                } else {
                    due.append(Due(hash: hash, want: want, expired: wanted))
                    lower(want.peer)
                }
            }
            byHash[hash] = kept.isEmpty ? nil : kept
        }
        return due
    }

    /// `peer`'s last session closed: its held wants go unanswered.
    mutating func peerGone(_ peer: PublicKey) {
        guard perPeer[peer] != nil else { return }
        for (hash, wants) in byHash {
            let kept = wants.filter { $0.peer != peer }
            byHash[hash] = kept.isEmpty ? nil : kept
        }
        perPeer[peer] = nil
    }

    private mutating func lower(_ peer: PublicKey) {
        let left = perPeer[peer, default: 0] - 1
        perPeer[peer] = left > 0 ? left : nil
    }
}
