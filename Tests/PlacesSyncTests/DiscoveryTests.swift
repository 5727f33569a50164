import Logging
import NIOCore
import NIOPosix
import PlacesCrypto
import PlacesModel
import Synchronization
import Testing

@testable import PlacesSync

/// A fixed "now" for the pure tests: 2026-01-01T00:00:00Z in Unix milliseconds.
private let now: UInt64 = 1_767_225_600_000

/// SplitMix64: deterministic garbage for the parser tests.
private struct SeededGenerator: RandomNumberGenerator {
    var state: UInt64
    mutating func next() -> UInt64 {
        state &+= 0x9E37_79B9_7F4A_7C15
        var z = state
        z = (z ^ (z >> 30)) &* 0xBF58_476D_1CE4_E5B9
        z = (z ^ (z >> 27)) &* 0x94D0_49BB_1331_11EB
        return z ^ (z >> 31)
    }
}

private func makeBeacon(
    _ key: SigningKeyPair, name: String = "Ana's laptop", at timestampMs: UInt64 = now, nonce: UInt64 = 42
)
    -> Beacon
{
    Beacon(key: key.publicKey, tcpPort: 7478, name: name, timestampMs: timestampMs, nonce: nonce)
}

/// A correctly signed datagram with arbitrary header fields, for layouts `encoded` never writes.
private func signedRaw(
    _ key: SigningKeyPair, version: UInt8 = 1, port: UInt16 = 7478, nameLength: UInt8? = nil, name: [UInt8]
) -> [UInt8] {
    var out = Array("PLBC".utf8) + [version] + key.publicKey.bytes
    out += [UInt8(port >> 8), UInt8(port & 0xFF)]
    out += (0..<8).reversed().map { UInt8(truncatingIfNeeded: now >> (8 * UInt64($0))) }
    out += [0, 0, 0, 0, 0, 0, 0, 7]
    out.append(nameLength ?? UInt8(name.count))
    out += name
    return out + key.sign(out).bytes
}

private func decodeError(_ bytes: [UInt8], at time: UInt64 = now) -> DiscoveryError? {
    do {
        _ = try Beacon.decode(bytes, now: time)
        return nil
    } catch {
        return error
    }
}

@Suite("Discovery beacons")
struct DiscoveryBeaconTests {
    let key = try! SigningKeyPair()

    @Test("a beacon survives encode and decode with every field intact")
    func roundTrip() throws {
        for name in ["", "Ana's laptop", "Zoë 🇵🇹 café", String(repeating: "x", count: 64)] {
            let beacon = Beacon(
                key: key.publicKey, tcpPort: 65535, name: name, timestampMs: now, nonce: 0xDEAD_BEEF_0123_4567)
            let bytes = beacon.encoded(signedBy: key)
            #expect(bytes.count == 120 + name.utf8.count)
            #expect(bytes.count <= Beacon.maxDatagramBytes)
            #expect(try Beacon.decode(bytes, now: now) == beacon)
        }
    }

    @Test("the bytes follow the layout in Protocol/discovery.md")
    func layout() {
        let beacon = Beacon(
            key: key.publicKey, tcpPort: 0x1D36, name: "Ab", timestampMs: 0x0102_0304_0506_0708,
            nonce: 0x1112_1314_1516_1718)
        let bytes = beacon.encoded(signedBy: key)
        #expect(Array(bytes[0..<4]) == Array("PLBC".utf8))
        #expect(bytes[4] == 0x01)
        #expect(Array(bytes[5..<37]) == key.publicKey.bytes)
        #expect(Array(bytes[37..<39]) == [0x1D, 0x36])
        #expect(Array(bytes[39..<47]) == [1, 2, 3, 4, 5, 6, 7, 8])
        #expect(Array(bytes[47..<55]) == [0x11, 0x12, 0x13, 0x14, 0x15, 0x16, 0x17, 0x18])
        #expect(bytes[55] == 2)
        #expect(Array(bytes[56..<58]) == Array("Ab".utf8))
        let signature = try! Signature(bytes: Array(bytes[58...]))
        #expect(key.publicKey.verify(signature, for: Array(bytes[..<58])))
    }

    @Test("the test vector in Protocol/discovery.md: RFC 8032 key 1, port 7478, \"Ana\", 2026-01-01")
    func vector() throws {
        // RFC 8032 section 7.1 test 1: seed ‖ public key. The expected bytes were also
        // produced by the Python reference in discovery.md (pyca/cryptography).
        let secretKey = try #require(
            HexCoding.decode(
                "9d61b19deffd5a60ba844af492ec2cc44449c5697b326919703bac031cae7f60"
                    + "d75a980182b10ab7d54bfed3c964073a0ee172f3daa62325af021a68f707511a"))
        let rfcKey = try SigningKeyPair(secretKey: secretKey)
        let beacon = Beacon(
            key: rfcKey.publicKey, tcpPort: 7478, name: "Ana", timestampMs: 1_767_225_600_000,
            nonce: 0x0102_0304_0506_0708)
        let expected =
            "504c424301d75a980182b10ab7d54bfed3c964073a0ee172f3daa62325af021a68f707511a1d360000019b76daa8000102030405"
            + "060708" + "03416e61" + "68370509464d09cc7351efd6a3498818ac3a29b5e646bff4934c01a235c617498ccf7d55a0de"
            + "7858495754b0104a889fee2972aea2eab3f7552dcee11327c300"
        #expect(HexCoding.encode(beacon.encoded(signedBy: rfcKey)) == expected)
        #expect(try Beacon.decode(HexCoding.decode(expected)!, now: 1_767_225_600_000) == beacon)
    }

    @Test("a long name is cut to 64 bytes at a character boundary, never mid-character")
    func longName() throws {
        let beacon = makeBeacon(key, name: String(repeating: "é", count: 40) + "🇵🇹")
        let decoded = try Beacon.decode(beacon.encoded(signedBy: key), now: now)
        #expect(decoded.name == String(repeating: "é", count: 32))
        let flags = makeBeacon(key, name: String(repeating: "a", count: 60) + "🇵🇹")  // flag is 8 bytes
        #expect(try Beacon.decode(flags.encoded(signedBy: key), now: now).name == String(repeating: "a", count: 60))
    }

    @Test("flipping any bit pattern in any single byte makes the beacon invalid")
    func everyByteFlipRejected() {
        let bytes = makeBeacon(key).encoded(signedBy: key)
        for index in bytes.indices {
            for mask: UInt8 in [0x01, 0x80, 0xFF] {
                var flipped = bytes
                flipped[index] ^= mask
                #expect(decodeError(flipped) != nil, "byte \(index) ^ \(mask) was accepted")
            }
        }
    }

    @Test("every truncation, any extra byte and oversized datagrams are rejected")
    func truncatedAndOversized() {
        let bytes = makeBeacon(key).encoded(signedBy: key)
        for length in 0..<bytes.count {
            #expect(decodeError(Array(bytes[..<length])) != nil, "prefix of \(length) bytes was accepted")
        }
        #expect(decodeError(bytes + [0])?.code == .malformed)
        #expect(decodeError(bytes + [UInt8](repeating: 0, count: 200))?.code == .malformed)
        #expect(decodeError([UInt8](repeating: 0x41, count: 65_507))?.code == .malformed)
    }

    @Test("random garbage, with and without the magic, is rejected without crashing")
    func garbage() {
        var rng = SeededGenerator(state: 7478)
        for round in 0..<2000 {
            var bytes = (0..<Int.random(in: 0...220, using: &rng)).map { _ in UInt8.random(in: 0...255, using: &rng) }
            if round % 2 == 0, bytes.count >= 56 {
                bytes.replaceSubrange(0..<5, with: Array("PLBC".utf8) + [1])
                bytes[55] = UInt8.random(in: 0...70, using: &rng)
            }
            #expect(decodeError(bytes) != nil)
        }
        #expect(decodeError(Array("hello".utf8))?.code == .notABeacon)
        #expect(decodeError([])?.code == .notABeacon)
    }

    @Test("a signed beacon with a bad layout is still rejected: version, name length, UTF-8, port 0")
    func signedButMalformed() {
        #expect(decodeError(signedRaw(key, name: Array("ok".utf8))) == nil)
        #expect(decodeError(signedRaw(key, version: 2, name: []))?.code == .unsupportedVersion)
        #expect(decodeError(signedRaw(key, name: [UInt8](repeating: 0x61, count: 65)))?.code == .malformed)
        #expect(decodeError(signedRaw(key, nameLength: 3, name: Array("ok".utf8)))?.code == .malformed)
        #expect(decodeError(signedRaw(key, name: [0x61, 0xC3]))?.code == .malformed)
        #expect(decodeError(signedRaw(key, name: [0xED, 0xA0, 0x80]))?.code == .malformed)  // a surrogate
        #expect(decodeError(signedRaw(key, port: 0, name: []))?.code == .malformed)
    }

    @Test("a beacon carrying one key but signed by another is rejected")
    func signedBySomeoneElse() throws {
        let mallory = try SigningKeyPair()
        #expect(decodeError(makeBeacon(key).encoded(signedBy: mallory))?.code == .badSignature)
    }

    @Test("timestamps more than 5 minutes old or ahead are rejected; within 5 minutes accepted")
    func freshness() {
        let skew: UInt64 = 300_000
        #expect(decodeError(makeBeacon(key, at: now - skew).encoded(signedBy: key)) == nil)
        #expect(decodeError(makeBeacon(key, at: now + skew).encoded(signedBy: key)) == nil)
        #expect(decodeError(makeBeacon(key, at: now - skew - 1).encoded(signedBy: key))?.code == .stale)
        #expect(decodeError(makeBeacon(key, at: now + skew + 1).encoded(signedBy: key))?.code == .fromTheFuture)
        #expect(decodeError(makeBeacon(key, at: 0).encoded(signedBy: key))?.code == .stale)
        #expect(decodeError(makeBeacon(key, at: .max).encoded(signedBy: key))?.code == .fromTheFuture)
        #expect(decodeError(makeBeacon(key, at: now).encoded(signedBy: key), at: 0)?.code == .fromTheFuture)
    }
}

@Suite("Discovery receiver rules")
struct DiscoveryFilterTests {
    let ana = try! SigningKeyPair()
    let bo = try! SigningKeyPair()

    @Test("our own beacons are ignored; other keys are accepted")
    func ownKeyIgnored() {
        var filter = BeaconFilter()
        let own = makeBeacon(ana).encoded(signedBy: ana)
        #expect(filter.admit(own, from: "10.0.0.1", ownKeys: [ana.publicKey], now: now) == .ignored(.ownBeacon))
        let other = makeBeacon(bo)
        #expect(
            filter.admit(other.encoded(signedBy: bo), from: "10.0.0.2", ownKeys: [ana.publicKey], now: now)
                == .accepted(other))
    }

    @Test("the same key and nonce counts once, even from another address; a new nonce counts again")
    func duplicates() {
        var filter = BeaconFilter()
        let first = makeBeacon(bo, nonce: 1)
        let bytes = first.encoded(signedBy: bo)
        #expect(filter.admit(bytes, from: "10.0.0.2", ownKeys: [], now: now) == .accepted(first))
        #expect(filter.admit(bytes, from: "10.0.0.2", ownKeys: [], now: now + 5) == .ignored(.duplicate))
        #expect(filter.admit(bytes, from: "10.0.0.9", ownKeys: [], now: now + 5_000) == .ignored(.duplicate))
        let next = makeBeacon(bo, at: now + 30_000, nonce: 2)
        #expect(
            filter.admit(next.encoded(signedBy: bo), from: "10.0.0.2", ownKeys: [], now: now + 30_000)
                == .accepted(next))
    }

    @Test("a source gets at most 10 datagrams a second through; other sources are unaffected")
    func rateLimit() {
        var filter = BeaconFilter()
        for nonce in 0..<10 as Range<UInt64> {
            let verdict = filter.admit(
                makeBeacon(bo, nonce: nonce).encoded(signedBy: bo), from: "10.0.0.2", ownKeys: [], now: now + nonce)
            #expect(verdict == .accepted(makeBeacon(bo, nonce: nonce)))
        }
        let flood = makeBeacon(bo, nonce: 10).encoded(signedBy: bo)
        #expect(filter.admit(flood, from: "10.0.0.2", ownKeys: [], now: now + 500) == .ignored(.rateLimited))
        #expect(
            filter.admit(Array("junk".utf8), from: "10.0.0.2", ownKeys: [], now: now + 600) == .ignored(.rateLimited))
        let elsewhere = makeBeacon(ana, nonce: 10)
        #expect(
            filter.admit(elsewhere.encoded(signedBy: ana), from: "10.0.0.3", ownKeys: [], now: now + 600)
                == .accepted(elsewhere))
        #expect(
            filter.admit(flood, from: "10.0.0.2", ownKeys: [], now: now + 1_000) == .accepted(makeBeacon(bo, nonce: 10))
        )
    }

    @Test("memory stays bounded under a flood of sources and nonces, and fresh beacons still get through")
    func boundedMemory() {
        var filter = BeaconFilter()
        filter.maxTrackedSources = 16
        filter.maxRememberedBeacons = 32
        filter.maxPerSecondTotal = 1_000  // this test is about memory, not the global rate
        for i in 0..<200 as Range<UInt64> {
            let beacon = makeBeacon(bo, nonce: 1_000 + i)
            #expect(
                filter.admit(beacon.encoded(signedBy: bo), from: "10.1.\(i / 250).\(i % 250)", ownKeys: [], now: now)
                    == .accepted(beacon))
        }
        let late = makeBeacon(ana, nonce: 1)
        #expect(filter.admit(late.encoded(signedBy: ana), from: "10.0.0.3", ownKeys: [], now: now) == .accepted(late))
    }

    @Test("only datagrams sent to the group count: unicast and broadcast ones are dropped unread")
    func multicastOnly() {
        var filter = BeaconFilter()
        let beacon = makeBeacon(bo)
        let bytes = beacon.encoded(signedBy: bo)
        let group = LANDiscovery.defaultGroup
        #expect(
            filter.admit(bytes, from: "10.0.0.2", to: "10.0.0.5", group: group, ownKeys: [], now: now)
                == .ignored(.notMulticast))
        #expect(
            filter.admit(bytes, from: "10.0.0.2", to: "255.255.255.255", group: group, ownKeys: [], now: now)
                == .ignored(.notMulticast))
        #expect(
            filter.admit(bytes, from: "10.0.0.2", to: "239.255.0.1", group: group, ownKeys: [], now: now)
                == .ignored(.notMulticast))
        #expect(
            filter.admit(bytes, from: "10.0.0.2", to: group, group: group, ownKeys: [], now: now) == .accepted(beacon))
    }

    @Test("at most 100 datagrams a second are examined from all sources together")
    func globalRateLimit() {
        var filter = BeaconFilter()
        for index in 0..<100 as Range<UInt64> {
            let beacon = makeBeacon(bo, nonce: index)
            #expect(
                filter.admit(beacon.encoded(signedBy: bo), from: "10.2.0.\(index / 5)", ownKeys: [], now: now + index)
                    == .accepted(beacon))
        }
        let late = makeBeacon(ana, nonce: 1)
        #expect(
            filter.admit(late.encoded(signedBy: ana), from: "10.3.0.1", ownKeys: [], now: now + 500)
                == .ignored(.globallyRateLimited))
        #expect(
            filter.admit(late.encoded(signedBy: ana), from: "10.3.0.1", ownKeys: [], now: now + 1_000)
                == .accepted(late))
    }

    @Test("garbage and forged datagrams are rejected with a reason, never accepted")
    func rejectsWithReason() {
        var filter = BeaconFilter()
        guard case .rejected(let error) = filter.admit(Array("PLBC".utf8), from: "10.0.0.2", ownKeys: [], now: now)
        else {
            Issue.record("a truncated beacon was not rejected")
            return
        }
        #expect(error.code == .notABeacon || error.code == .malformed)
        let forged = makeBeacon(bo).encoded(signedBy: ana)
        #expect(filter.admit(forged, from: "10.0.0.2", ownKeys: [], now: now).isRejected(.badSignature))
    }
}

extension BeaconFilter.Verdict {
    fileprivate func isRejected(_ code: DiscoveryError.Code) -> Bool {
        if case .rejected(let error) = self { return error.code == code }
        return false
    }
}

/// Peers reported to one `onPeer` callback.
private final class PeerLog: Sendable {
    private let peers = Mutex<[DiscoveredPeer]>([])
    func append(_ peer: DiscoveredPeer) { peers.withLock { $0.append(peer) } }
    var all: [DiscoveredPeer] { peers.withLock { $0 } }
}

/// A UDP port nobody on this host is using right now.
private func freeUDPPort() async throws -> Int {
    let channel = try await DatagramBootstrap(group: MultiThreadedEventLoopGroup.singleton)
        .bind(host: "0.0.0.0", port: 0).get()
    let port = channel.localAddress?.port ?? 47478
    try await channel.close()
    return port
}

/// The loopback test needs an IPv4 interface that is up and multicast-capable: on Linux
/// `lo` is not (no MULTICAST flag), so a container with nothing but `lo` cannot run it. It
/// could be made to with `ip link set lo multicast on`, but a test must not reconfigure the
/// host; the namespace test in PlacesIntegrationTests builds its own LAN instead.
private let hostHasMulticastInterface = !LANDiscovery.multicastInterfaces().isEmpty

@Suite("Discovery socket")
struct DiscoverySocketTests {
    @Test("the socket reports where a datagram was sent, so a unicast beacon is dropped")
    func unicastDestinationIsReported() async throws {
        let (datagrams, sink) = AsyncStream.makeStream(of: ReceivedDatagram.self)
        let receiver = try await LANDiscovery.datagramBootstrap(
            on: MultiThreadedEventLoopGroup.singleton, datagramSink: sink
        )
        .bind(host: "127.0.0.1", port: 0).get()
        let sender = try await DatagramBootstrap(group: MultiThreadedEventLoopGroup.singleton)
            .bind(host: "127.0.0.1", port: 0).get()
        let key = try SigningKeyPair()
        let bytes = makeBeacon(key, at: LANDiscovery.wallClockMs()).encoded(signedBy: key)
        let target = try #require(receiver.localAddress)
        try await sender.writeAndFlush(AddressedEnvelope(remoteAddress: target, data: ByteBuffer(bytes: bytes))).get()
        var iterator = datagrams.makeAsyncIterator()
        let received = try #require(await iterator.next())
        try await sender.close()
        try await receiver.close()
        #expect(received.bytes == bytes)
        #expect(received.sourceHost == "127.0.0.1")
        #expect(received.destinationHost == "127.0.0.1")
        var filter = BeaconFilter()
        #expect(
            filter.admit(
                received.bytes, from: received.sourceHost, to: received.destinationHost, ownKeys: [],
                now: LANDiscovery.wallClockMs()) == .ignored(.notMulticast))
    }
}

@Suite("LAN discovery on this host", .serialized)
struct DiscoveryLoopbackTests {
    @Test(
        "two instances sharing a port find each other and never report themselves",
        .enabled(if: hostHasMulticastInterface, "needs an IPv4 multicast-capable interface"),
        .timeLimit(.minutes(1)))
    func twoInstancesFindEachOther() async throws {
        let port = try await freeUDPPort()
        let ana = try SigningKeyPair(), bo = try SigningKeyPair()
        let anaSaw = PeerLog(), boSaw = PeerLog()
        var logger = Logger(label: "test.discovery")
        logger.logLevel = .debug
        let a = LANDiscovery(
            port: port, interval: .milliseconds(200), logger: logger, identity: { (ana, tcpPort: 7001, name: "Ana") },
            onPeer: { anaSaw.append($0) })
        let b = LANDiscovery(
            port: port, interval: .milliseconds(200), logger: logger, identity: { (bo, tcpPort: 7002, name: "Bo") },
            onPeer: { boSaw.append($0) })
        try await withThrowingTaskGroup(of: Void.self) { group in
            group.addTask { try await a.run() }
            group.addTask { try await b.run() }
            let deadline = ContinuousClock.now + .seconds(10)
            while ContinuousClock.now < deadline, anaSaw.all.isEmpty || boSaw.all.isEmpty {
                try await Task.sleep(for: .milliseconds(50))
            }
            await a.announceNow()
            try await Task.sleep(for: .milliseconds(300))  // let our own looped-back beacons arrive too
            group.cancelAll()
        }
        #expect(await !a.joinedInterfaces.isEmpty)
        let seenByAna = anaSaw.all, seenByBo = boSaw.all
        #expect(
            !seenByAna.isEmpty
                && seenByAna.allSatisfy { $0.key == bo.publicKey && $0.tcpPort == 7002 && $0.name == "Bo" })
        #expect(
            !seenByBo.isEmpty
                && seenByBo.allSatisfy { $0.key == ana.publicKey && $0.tcpPort == 7001 && $0.name == "Ana" })
        let ipv4 = #/^\d{1,3}\.\d{1,3}\.\d{1,3}\.\d{1,3}$/#
        #expect((seenByAna + seenByBo).allSatisfy { $0.host.wholeMatch(of: ipv4) != nil })
    }

    @Test(
        "a logged-out instance sends nothing but still hears others",
        .enabled(if: hostHasMulticastInterface, "needs an IPv4 multicast-capable interface"),
        .timeLimit(.minutes(1)))
    func loggedOutSendsNothing() async throws {
        let port = try await freeUDPPort()
        let bo = try SigningKeyPair()
        let anaSaw = PeerLog(), boSaw = PeerLog()
        let logger = Logger(label: "test.discovery")
        let a = LANDiscovery(
            port: port, interval: .milliseconds(100), logger: logger, identity: { nil }, onPeer: { anaSaw.append($0) })
        let b = LANDiscovery(
            port: port, interval: .milliseconds(100), logger: logger, identity: { (bo, tcpPort: 7002, name: "Bo") },
            onPeer: { boSaw.append($0) })
        try await withThrowingTaskGroup(of: Void.self) { group in
            group.addTask { try await a.run() }
            group.addTask { try await b.run() }
            let deadline = ContinuousClock.now + .seconds(10)
            while ContinuousClock.now < deadline, anaSaw.all.isEmpty {
                try await Task.sleep(for: .milliseconds(50))
            }
            try await Task.sleep(for: .seconds(1))
            group.cancelAll()
        }
        #expect(anaSaw.all.contains { $0.key == bo.publicKey })
        #expect(boSaw.all.isEmpty)
    }

    @Test(
        "a login is announced within about a second, without waiting for the interval or announceNow",
        .enabled(if: hostHasMulticastInterface, "needs an IPv4 multicast-capable interface"),
        .timeLimit(.minutes(1)))
    func loginIsAnnounced() async throws {
        let port = try await freeUDPPort()
        let ana = try SigningKeyPair(), bo = try SigningKeyPair()
        let anaLoggedIn = Mutex(false)
        let boSaw = PeerLog()
        let logger = Logger(label: "test.discovery")
        let a = LANDiscovery(
            port: port, interval: .seconds(600), logger: logger,
            identity: { anaLoggedIn.withLock { $0 } ? (ana, tcpPort: 7001, name: "Ana") : nil }, onPeer: { _ in })
        let b = LANDiscovery(
            port: port, interval: .seconds(600), logger: logger, identity: { (bo, tcpPort: 7002, name: "Bo") },
            onPeer: { boSaw.append($0) })
        try await withThrowingTaskGroup(of: Void.self) { group in
            group.addTask { try await a.run() }
            group.addTask { try await b.run() }
            try await Task.sleep(for: .milliseconds(500))
            #expect(boSaw.all.isEmpty)
            anaLoggedIn.withLock { $0 = true }
            let loginTime = ContinuousClock.now
            while ContinuousClock.now < loginTime + .seconds(5), boSaw.all.isEmpty {
                try await Task.sleep(for: .milliseconds(50))
            }
            #expect(ContinuousClock.now - loginTime < .seconds(3))
            group.cancelAll()
        }
        #expect(boSaw.all.contains { $0.key == ana.publicKey })
    }

    @Test("run() rejects a group that is not IPv4 multicast and a port out of range")
    func badConfiguration() async {
        let logger = Logger(label: "test.discovery")
        for (group, port) in [("10.0.0.1", 7478), ("not-an-ip", 7478), (LANDiscovery.defaultGroup, 0)] {
            let d = LANDiscovery(group: group, port: port, logger: logger, identity: { nil }, onPeer: { _ in })
            await #expect(throws: DiscoveryError.self) { try await d.run() }
        }
    }

    @Test("cancelling run() returns promptly and frees the port")
    func cancellation() async throws {
        let port = try await freeUDPPort()
        let logger = Logger(label: "test.discovery")
        for _ in 0..<2 {
            let d = LANDiscovery(port: port, logger: logger, identity: { nil }, onPeer: { _ in })
            let task = Task { try await d.run() }
            try await Task.sleep(for: .milliseconds(200))
            task.cancel()
            _ = await task.result
        }
        // Without SO_REUSEPORT on this probe, binding succeeds only if the instances closed their sockets.
        let probe = try await DatagramBootstrap(group: MultiThreadedEventLoopGroup.singleton)
            .bind(host: "0.0.0.0", port: port).get()
        try await probe.close()
    }
}
