import PlacesCrypto
import PlacesModel

/// The blobs this daemon wants (`Protocol/sync.md` §7.4), who may hold them, and what is
/// being fetched from whom: at most `BlobTransfer.maxWanted` blobs, each fetched from one
/// peer at a time, at most `BlobTransfer.maxInFlightPerPeer` per peer, one want outstanding
/// per blob (the next want follows each chunk). Kept by the replicator, in memory: after a
/// restart the wants are found again from the documents, and downloads resume from the
/// partial files.
///
/// Each holder has a bounded share of the set (`BlobTransfer.maxWantedPerHolder`), and a
/// holder that will not serve a blob stops being one: it refused it, sent a bad chunk, left a
/// want unanswered for `BlobTransfer.maxWantWait`, or its last session closed. A blob no
/// holder is left for is no longer wanted. So a friend who names photos it never sends slows
/// only its own photos: it cannot fill the set, and what it holds there goes with it.
struct BlobWants: Sendable {
    /// A blob wanted: the peers that may hold it.
    struct Wanted: Sendable {
        var holders: [PublicKey] = []
        /// Order of arrival, so that blobs are fetched oldest want first.
        var order: UInt64
        /// The document whose ops named it, when it was found after a batch or an offer of
        /// one: when every holder has refused it, that document's other possible holders
        /// among the connected peers are looked for (`Replicator.refuseBlob`).
        var doc: DocumentID?
    }

    /// A blob being fetched from a peer: the offset its outstanding want named (the next
    /// chunk must start there), when that want went, the size the first chunk announced, and
    /// whether a chunk is being stored right now (another one for it is then out of turn).
    struct Flight: Sendable, Equatable {
        var offset: UInt64
        var askedAt: ContinuousClock.Instant
        var total: UInt64?
        var storing = false
    }

    private(set) var wanted: [[UInt8]: Wanted] = [:]
    private(set) var inFlight: [PublicKey: [[UInt8]: Flight]] = [:]
    /// How many wanted blobs name each holder (its share of the set).
    private var shares: [PublicKey: Int] = [:]
    /// The blobs each peer will not serve in its current session (at most
    /// `BlobTransfer.maxWanted` remembered per peer): not wanted from it again until then.
    private var refused: [PublicKey: Set<[UInt8]>] = [:]
    /// Holders some of whose blobs were left out (their share or the set was full): their
    /// documents are looked at again once their share is empty.
    private(set) var leftOut: Set<PublicKey> = []
    private var nextOrder: UInt64 = 0

    /// How many wanted blobs name `holder`.
    func share(of holder: PublicKey) -> Int { shares[holder] ?? 0 }

    /// Records that `holder` may hold `hash`; false when its share (or the set, with no one
    /// holding more to give way) is full: the want is left out, and found again later.
    @discardableResult
    mutating func want(_ hash: [UInt8], from holder: PublicKey, doc: DocumentID? = nil) -> Bool {
        // Refused by it in this session, or already wanted from it.
        if refused[holder]?.contains(hash) == true || wanted[hash]?.holders.contains(holder) == true { return true }
        guard share(of: holder) < BlobTransfer.maxWantedPerHolder else {
            leftOut.insert(holder)
            return false
        }
        if var entry = wanted[hash] {
            // Enough others may hold it.
            guard entry.holders.count < BlobTransfer.maxHoldersPerBlob else { return true }
            entry.holders.append(holder)
            entry.doc = entry.doc ?? doc
            wanted[hash] = entry
            shares[holder, default: 0] += 1
            return true
        }
        guard wanted.count < BlobTransfer.maxWanted || evictForNewcomer(holder) else {
            leftOut.insert(holder)
            return false
        }
        wanted[hash] = Wanted(holders: [holder], order: nextOrder, doc: doc)
        nextOrder &+= 1
        shares[holder, default: 0] += 1
        return true
    }

    /// The set is full: the holder with the largest share gives way to `holder` when it
    /// holds at least two more (its newest want not in flight is dropped, found again
    /// later). Every holder thus keeps at least an even part of the set.
    private mutating func evictForNewcomer(_ holder: PublicKey) -> Bool {
        guard let largest = shares.max(by: { $0.value < $1.value }), largest.value > share(of: holder) + 1 else {
            return false
        }
        let busy = Set(inFlight.values.flatMap(\.keys))
        let victim = wanted.filter { $0.value.holders.contains(largest.key) && !busy.contains($0.key) }
            .max { $0.value.order < $1.value.order }
        guard let victim else { return false }
        drop(victim.key)
        leftOut.insert(largest.key)
        return true
    }

    /// Free places in `peer`'s window.
    func freeSlots(for peer: PublicKey) -> Int {
        max(0, BlobTransfer.maxInFlightPerPeer - (inFlight[peer]?.count ?? 0))
    }

    /// Blobs to ask `peer` for next: wanted from it and not being fetched from anyone; oldest
    /// first, as many as its window has room for.
    func candidates(for peer: PublicKey) -> [[UInt8]] {
        let free = freeSlots(for: peer)
        guard free > 0 else { return [] }
        let busy = Set(inFlight.values.flatMap(\.keys))
        return wanted.filter { hash, entry in entry.holders.contains(peer) && !busy.contains(hash) }
            .sorted { $0.value.order < $1.value.order }
            .prefix(free).map(\.key)
    }

    /// Whether `hash` is being fetched from anyone.
    func isInFlight(_ hash: [UInt8]) -> Bool { inFlight.values.contains { $0[hash] != nil } }

    func flight(_ hash: [UInt8], from peer: PublicKey) -> Flight? { inFlight[peer]?[hash] }

    /// A want for `hash` from `offset` went to `peer` at `now`.
    mutating func start(_ hash: [UInt8], from peer: PublicKey, offset: UInt64, now: ContinuousClock.Instant) {
        inFlight[peer, default: [:]][hash] = Flight(offset: offset, askedAt: now)
    }

    mutating func setFlight(_ flight: Flight, _ hash: [UInt8], from peer: PublicKey) {
        inFlight[peer]?[hash] = flight
    }

    /// The blob is held whole (or no longer needed): it is not wanted from anyone.
    mutating func finish(_ hash: [UInt8]) { drop(hash) }

    /// `peer` does not have the blob, sent a bad chunk of it, or left a want of it
    /// unanswered: it is no longer a holder of it while this session with it lasts, and a
    /// blob no holder is left for is no longer wanted. Returns the document that named it
    /// when that refusal left it with no holder and the document is known.
    @discardableResult
    mutating func refuse(_ hash: [UInt8], by peer: PublicKey) -> DocumentID? {
        endFlight(hash, from: peer)
        if refused[peer, default: []].count < BlobTransfer.maxWanted { refused[peer, default: []].insert(hash) }
        return removeHolder(peer, of: hash)
    }

    /// Wants sent before `now − BlobTransfer.maxWantWait` and still unanswered (none of
    /// them mid-store): each counts as a refusal by its peer. Returns what was given up, with
    /// the document of each blob that no holder is left for (as `refuse` does).
    mutating func expire(now: ContinuousClock.Instant) -> [(hash: [UInt8], peer: PublicKey, orphanedIn: DocumentID?)] {
        var late = [(hash: [UInt8], peer: PublicKey)]()
        for (peer, flights) in inFlight {
            for (hash, flight) in flights where !flight.storing && now - flight.askedAt >= BlobTransfer.maxWantWait {
                late.append((hash, peer))
            }
        }
        return late.map { ($0.hash, $0.peer, refuse($0.hash, by: $0.peer)) }
    }

    /// Whether `holder`'s documents are to be looked at again: some of its blobs were left
    /// out and its share is now empty. Clears the mark.
    mutating func takeRefill(_ holder: PublicKey) -> Bool {
        guard share(of: holder) == 0, leftOut.contains(holder) else { return false }
        leftOut.remove(holder)
        return true
    }

    /// `peer`'s last session closed: its window, its refusals and its share go (it holds
    /// nothing for this daemon while away); the next session finds its wants again.
    mutating func peerGone(_ peer: PublicKey) {
        inFlight[peer] = nil
        refused[peer] = nil
        leftOut.remove(peer)
        for (hash, entry) in wanted where entry.holders.contains(peer) { removeHolder(peer, of: hash) }
        shares[peer] = nil
    }

    // MARK: Bookkeeping

    private mutating func endFlight(_ hash: [UInt8], from peer: PublicKey) {
        inFlight[peer]?[hash] = nil
        if inFlight[peer]?.isEmpty == true { inFlight[peer] = nil }
    }

    /// Returns the blob's document when `peer` was its last holder (it is no longer wanted).
    @discardableResult
    private mutating func removeHolder(_ peer: PublicKey, of hash: [UInt8]) -> DocumentID? {
        guard var entry = wanted[hash], let index = entry.holders.firstIndex(of: peer) else { return nil }
        entry.holders.remove(at: index)
        lowerShare(of: peer)
        guard entry.holders.isEmpty else {
            wanted[hash] = entry
            return nil
        }
        // No holder is left that may serve it.
        wanted[hash] = nil
        for other in inFlight.keys where inFlight[other]?[hash] != nil { endFlight(hash, from: other) }
        return entry.doc
    }

    /// Not wanted any more, from anyone.
    private mutating func drop(_ hash: [UInt8]) {
        if let entry = wanted.removeValue(forKey: hash) {
            for holder in entry.holders { lowerShare(of: holder) }
        }
        for peer in inFlight.keys where inFlight[peer]?[hash] != nil { endFlight(hash, from: peer) }
    }

    private mutating func lowerShare(of holder: PublicKey) {
        let left = share(of: holder) - 1
        shares[holder] = left > 0 ? left : nil
    }
}
