import PlacesCrypto

@testable import PlacesSync

/// `beacons`: datagrams through the receiver's `BeaconFilter` (rate limit per source
/// address, `Beacon.decode`'s layout, signature and freshness checks, own-beacon and
/// duplicate suppression), with small bounds so that inputs reach the evictions.
///
/// Input: records of a flag byte, a 2-byte big-endian clock step in ms, a length byte and
/// that many datagram bytes. Flag bit 0: re-sign the datagram with the identity whose key
/// it carries (when the harness holds it), so that mutated fields get past the signature;
/// bits 1–2: which of four source addresses it came from. The clock starts at
/// `FuzzWorld.nowMs` and moves forward by each step.
///
/// Checked: an accepted beacon is fresh, not the receiver's own, and, when its key is one
/// the harness holds, encodes back to exactly the datagram; the filter's memory stays
/// within its bounds.
enum FuzzBeacons {
    static let sources = ["192.0.2.1", "192.0.2.2", "[2001:db8::1]", "198.51.100.7"]

    static func run(_ input: [UInt8]) {
        var filter = BeaconFilter()
        filter.maxTrackedSources = 3
        filter.maxRememberedBeacons = 8
        filter.maxPerSecondPerSource = 4
        // `nowMs` is a positive constant, and at most 256 steps of at most 65,535 ms are added:
        // these conversions and sums cannot trap.
        var now = UInt64(FuzzWorld.nowMs)
        var reader = FuzzReader(input)
        let own: Set<PublicKey> = [FuzzWorld.owner.publicKey]
        var records = 0
        while let flags = reader.byte(), let step = reader.u16(), let length = reader.byte(), records < 256 {
            records += 1
            var datagram = reader.take(Int(length))
            now += UInt64(step)
            if flags & 1 == 1, datagram.count > 5 + 32 + 64, let identity = identity(in: datagram) {
                datagram = Array(datagram.dropLast(64))
                datagram += identity.sign(datagram).bytes
            }
            let source = sources[Int(flags >> 1) & 3]
            switch filter.admit(datagram, from: source, ownKeys: own, now: now) {
            case .accepted(let beacon):
                precondition(!own.contains(beacon.key), "the receiver's own beacon was accepted")
                let skew = beacon.timestampMs > now ? beacon.timestampMs - now : now - beacon.timestampMs
                precondition(skew <= filter.maxSkewMs, "a beacon outside the allowed clock skew was accepted")
                precondition(beacon.tcpPort != 0 && beacon.name.utf8.count <= Beacon.maxNameBytes)
                if let identity = FuzzWorld.identity(for: beacon.key.bytes) {
                    precondition(
                        beacon.encoded(signedBy: identity) == datagram, "an accepted beacon re-encodes differently")
                }
            case .ignored, .rejected:
                break
            }
        }
    }

    /// The identity whose key sits at the beacon's key offset, if the harness holds it.
    static func identity(in datagram: [UInt8]) -> SigningKeyPair? {
        FuzzWorld.identity(for: Array(datagram[5..<37]))
    }
}
