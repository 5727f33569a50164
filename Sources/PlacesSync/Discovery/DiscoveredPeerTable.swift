import PlacesCrypto

/// The peers learned from discovery beacons that the transport dials (`Protocol/discovery.md`
/// §4): one address per key, the latest beacon's address winning; at most `maxPeers` keys,
/// at most `maxPerAddress` of them from one source address; a key is forgotten once no
/// beacon has come from it for `expiry`.
///
/// A beacon for a new key when the table is full is dropped (after expired entries are
/// cleared): peers already known are never pushed out by a flood of fresh keys.
struct DiscoveredPeerTable {
    /// What recording a beacon did.
    enum Update: Equatable {
        /// A new key: dial `target`.
        case added(DialTarget)
        /// A known key at a new address: dial `to`; `from` is no longer this key's address.
        case moved(from: DialTarget, to: DialTarget)
        /// A known key at its known address: its expiry is pushed back.
        case refreshed
        /// The table (or the source address's share of it) is full.
        case refused
    }

    private struct Entry {
        var target: DialTarget
        var lastSeen: ContinuousClock.Instant
    }

    let maxPeers: Int
    let maxPerAddress: Int
    let expiry: Duration
    private var entries: [PublicKey: Entry] = [:]

    init(maxPeers: Int, maxPerAddress: Int, expiry: Duration) {
        self.maxPeers = maxPeers
        self.maxPerAddress = maxPerAddress
        self.expiry = expiry
    }

    /// The number of keys held (expired ones included until the next clean-up).
    var count: Int { entries.count }

    /// Records a valid beacon from `key` announcing `target`, seen at `now`.
    mutating func record(key: PublicKey, target: DialTarget, now: ContinuousClock.Instant) -> Update {
        if var entry = entries[key] {
            let previous = entry.target
            if previous != target, !hasRoom(at: target.host, now: now, excluding: key) { return .refused }
            entry.target = target
            entry.lastSeen = now
            entries[key] = entry
            return previous == target ? .refreshed : .moved(from: previous, to: target)
        }
        if entries.count >= maxPeers { removeExpired(now: now) }
        guard entries.count < maxPeers, hasRoom(at: target.host, now: now, excluding: key) else { return .refused }
        entries[key] = Entry(target: target, lastSeen: now)
        return .added(target)
    }

    /// Whether some unexpired key is announced at `target`.
    func isCurrent(_ target: DialTarget, now: ContinuousClock.Instant) -> Bool {
        entries.values.contains { $0.target == target && now - $0.lastSeen < expiry }
    }

    /// The unexpired keys announced at `target`.
    func keys(at target: DialTarget, now: ContinuousClock.Instant) -> [PublicKey] {
        entries.filter { $0.value.target == target && now - $0.value.lastSeen < expiry }.map(\.key)
    }

    /// Forgets every key not heard from for `expiry`.
    mutating func removeExpired(now: ContinuousClock.Instant) {
        entries = entries.filter { now - $0.value.lastSeen < expiry }
    }

    private mutating func hasRoom(at host: String, now: ContinuousClock.Instant, excluding key: PublicKey) -> Bool {
        let sameHost = { (entries: [PublicKey: Entry]) in
            entries.count { $0.key != key && $0.value.target.host == host }
        }
        if sameHost(entries) < maxPerAddress { return true }
        removeExpired(now: now)
        return sameHost(entries) < maxPerAddress
    }
}
