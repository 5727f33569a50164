import PlacesCrypto

/// The receiver rules of `Protocol/discovery.md`, without sockets: multicast only, rate
/// limit per source address and in total, decode and verify, ignore our own beacons, drop
/// repeats of a key+nonce.
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
        /// More than `maxPerSecondTotal` datagrams arrived this second, from all sources.
        case globallyRateLimited = "rate limited in total"
        /// The datagram was addressed to something other than the discovery group (unicast
        /// or broadcast).
        case notMulticast = "not sent to the group"
    }

    /// What to do with one datagram.
    enum Verdict: Sendable, Equatable {
        case accepted(Beacon)
        case ignored(IgnoreReason)
        case rejected(DiscoveryError)
    }

    var maxPerSecondPerSource = 10
    var maxPerSecondTotal = 100
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
    private var total = Window(startMs: 0, count: 0)
    /// key+nonce → the beacon's timestamp.
    private var seen: [BeaconID: UInt64] = [:]

    /// Applies the rules to `bytes` from `source` at `now` (Unix ms). `destination` is the
    /// address the datagram was sent to and `group` the discovery group; when the platform
    /// does not report the destination (nil) that rule is skipped. The destination check
    /// and rate limiting come first, so that a flood costs no signature checks.
    mutating func admit(
        _ bytes: [UInt8], from source: String, to destination: String? = nil, group: String = LANDiscovery.defaultGroup,
        ownKeys: Set<PublicKey>, now: UInt64
    ) -> Verdict {
        if let destination, destination != group { return .ignored(.notMulticast) }
        guard allowDatagram(from: source, now: now) else { return .ignored(.rateLimited) }
        guard allowInTotal(now: now) else { return .ignored(.globallyRateLimited) }
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

    private mutating func allowInTotal(now: UInt64) -> Bool {
        if now >= total.startMs, now - total.startMs < 1000 {
            guard total.count < maxPerSecondTotal else { return false }
            total.count += 1
            return true
        }
        total = Window(startMs: now, count: 1)
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
