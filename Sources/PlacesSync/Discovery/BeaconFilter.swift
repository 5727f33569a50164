import PlacesCrypto

/// The receiver rules of `Protocol/discovery.md`, without sockets: rate limit per source
/// address, decode and verify, ignore our own beacons, drop repeats of a key+nonce.
///
/// Memory is bounded: at most `maxTrackedSources` rate-limit windows and
/// `maxRememberedBeacons` key+nonce pairs; a pair is forgotten once its beacon would be
/// rejected as stale anyway, so replays inside the freshness window are always caught
/// unless the table overflowed (then a replay only re-announces a peer that exists).
struct BeaconFilter {
    /// Why a datagram that is not an error was still not passed on.
    enum IgnoreReason: String, Sendable, Equatable {
        /// Signed by one of our own keys (multicast loopback, or another interface).
        case ownBeacon = "own beacon"
        /// The same key and nonce arrived before (sent on several interfaces, or replayed).
        case duplicate = "duplicate"
        /// The source sent more than `maxPerSecondPerSource` datagrams this second.
        case rateLimited = "rate limited"
    }

    /// What to do with one datagram.
    enum Verdict: Sendable, Equatable {
        case accepted(Beacon)
        case ignored(IgnoreReason)
        case rejected(DiscoveryError)
    }

    var maxPerSecondPerSource = 10
    var maxSkewMs: UInt64 = 300_000
    var maxTrackedSources = 1024
    var maxRememberedBeacons = 4096

    private struct Window {
        var startMs: UInt64
        var count: Int
    }

    private struct BeaconID: Hashable {
        var key: PublicKey
        var nonce: UInt64
    }

    private var windows: [String: Window] = [:]
    /// key+nonce → the beacon's timestamp.
    private var seen: [BeaconID: UInt64] = [:]

    /// Applies the rules to `bytes` from `source` at `now` (Unix ms). Rate limiting comes
    /// first, so that a flood costs no signature checks.
    mutating func admit(_ bytes: [UInt8], from source: String, ownKeys: Set<PublicKey>, now: UInt64) -> Verdict {
        guard allowDatagram(from: source, now: now) else { return .ignored(.rateLimited) }
        let beacon: Beacon
        do {
            beacon = try Beacon.decode(bytes, now: now, maxSkewMs: maxSkewMs)
        } catch {
            return .rejected(error)
        }
        if ownKeys.contains(beacon.key) { return .ignored(.ownBeacon) }
        let id = BeaconID(key: beacon.key, nonce: beacon.nonce)
        if seen[id] != nil { return .ignored(.duplicate) }
        remember(id, timestampMs: beacon.timestampMs, now: now)
        return .accepted(beacon)
    }

    private mutating func allowDatagram(from source: String, now: UInt64) -> Bool {
        if var window = windows[source], now >= window.startMs, now - window.startMs < 1000 {
            guard window.count < maxPerSecondPerSource else { return false }
            window.count += 1
            windows[source] = window
            return true
        }
        if windows.count >= maxTrackedSources {
            windows = windows.filter { now >= $0.value.startMs && now - $0.value.startMs < 1000 }
            // Still full: a flood from many addresses; forget them all rather than grow.
            if windows.count >= maxTrackedSources { windows.removeAll(keepingCapacity: true) }
        }
        windows[source] = Window(startMs: now, count: 1)
        return true
    }

    private mutating func remember(_ id: BeaconID, timestampMs: UInt64, now: UInt64) {
        if seen.count >= maxRememberedBeacons {
            // Beacons older than the skew are rejected as stale, so their ids need no memory.
            seen = seen.filter { now <= $0.value || now - $0.value <= maxSkewMs }
            if seen.count >= maxRememberedBeacons {
                let oldestFirst = seen.sorted { $0.value < $1.value }
                for (old, _) in oldestFirst.prefix(seen.count - maxRememberedBeacons / 2) { seen[old] = nil }
            }
        }
        seen[id] = timestampMs
    }
}
