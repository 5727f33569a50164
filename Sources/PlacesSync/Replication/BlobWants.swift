import PlacesCrypto

/// The blobs this daemon wants (`Protocol/sync.md` §7.4), who may hold them, and what is
/// being fetched from whom: at most `BlobTransfer.maxWanted` blobs, each fetched from one
/// peer at a time, at most `BlobTransfer.maxInFlightPerPeer` per peer, one want outstanding
/// per blob (the next want follows each chunk). Kept by the replicator, in memory: after a
/// restart the wants are found again from the documents, and downloads resume from the
/// partial files.
struct BlobWants: Sendable {
    /// A blob wanted: the peers that may hold it, and those that said they do not (or sent a
    /// bad chunk) in their current session.
    struct Wanted: Sendable {
        var holders: [PublicKey] = []
        var refusedBy: Set<PublicKey> = []
        /// Order of arrival, so that blobs are fetched oldest want first.
        var order: UInt64
    }

    /// A blob being fetched from a peer: the offset its outstanding want named (the next
    /// chunk must start there), the size the first chunk announced, and whether a chunk is
    /// being stored right now (another one for it is then out of turn).
    struct Flight: Sendable, Equatable {
        var offset: UInt64
        var total: UInt64?
        var storing = false
    }

    private(set) var wanted: [[UInt8]: Wanted] = [:]
    private(set) var inFlight: [PublicKey: [[UInt8]: Flight]] = [:]
    private var nextOrder: UInt64 = 0

    /// Records that `holder` may hold `hash`; false when the set is full (the want is
    /// dropped, and found again later).
    @discardableResult
    mutating func want(_ hash: [UInt8], from holder: PublicKey) -> Bool {
        if var entry = wanted[hash] {
            if !entry.holders.contains(holder) && entry.holders.count < BlobTransfer.maxHoldersPerBlob {
                entry.holders.append(holder)
                wanted[hash] = entry
            }
            return true
        }
        guard wanted.count < BlobTransfer.maxWanted else { return false }
        wanted[hash] = Wanted(holders: [holder], order: nextOrder)
        nextOrder &+= 1
        return true
    }

    /// Free places in `peer`'s window.
    func freeSlots(for peer: PublicKey) -> Int {
        max(0, BlobTransfer.maxInFlightPerPeer - (inFlight[peer]?.count ?? 0))
    }

    /// Blobs to ask `peer` for next: wanted from it, not refused by it, not being fetched
    /// from anyone; oldest first, as many as its window has room for.
    func candidates(for peer: PublicKey) -> [[UInt8]] {
        let free = freeSlots(for: peer)
        guard free > 0 else { return [] }
        let busy = Set(inFlight.values.flatMap(\.keys))
        return wanted.filter { hash, entry in
            entry.holders.contains(peer) && !entry.refusedBy.contains(peer) && !busy.contains(hash)
        }
        .sorted { $0.value.order < $1.value.order }
        .prefix(free).map(\.key)
    }

    /// Whether `hash` is being fetched from anyone.
    func isInFlight(_ hash: [UInt8]) -> Bool { inFlight.values.contains { $0[hash] != nil } }

    func flight(_ hash: [UInt8], from peer: PublicKey) -> Flight? { inFlight[peer]?[hash] }

    /// A want for `hash` from `offset` went to `peer`.
    mutating func start(_ hash: [UInt8], from peer: PublicKey, offset: UInt64) {
        inFlight[peer, default: [:]][hash] = Flight(offset: offset)
    }

    mutating func setFlight(_ flight: Flight, _ hash: [UInt8], from peer: PublicKey) {
        inFlight[peer]?[hash] = flight
    }

    /// The blob is held whole (or no longer needed): it is not wanted from anyone.
    mutating func finish(_ hash: [UInt8]) {
        wanted[hash] = nil
        for peer in inFlight.keys { inFlight[peer]?[hash] = nil }
        inFlight = inFlight.filter { !$0.value.isEmpty }
    }

    /// `peer` does not have the blob, or sent a bad chunk of it: not asked again while this
    /// session with it lasts.
    mutating func refuse(_ hash: [UInt8], by peer: PublicKey) {
        inFlight[peer]?[hash] = nil
        if inFlight[peer]?.isEmpty == true { inFlight[peer] = nil }
        wanted[hash]?.refusedBy.insert(peer)
    }

    /// `peer`'s last session closed: its window goes; its refusals are forgotten, so that the
    /// next session asks again (the blob may have arrived there, or a bad transfer may go
    /// better).
    mutating func peerGone(_ peer: PublicKey) {
        inFlight[peer] = nil
        for hash in wanted.keys where wanted[hash]?.refusedBy.contains(peer) == true {
            wanted[hash]?.refusedBy.remove(peer)
        }
    }
}
