import Foundation
import Logging
import NIOCore
import PlacesCrypto
import Testing

@testable import PlacesSync

/// Opens a raw connection, runs the handshake as `identity`, sends `Hello` and returns the
/// first message the server sends (nil: it closed the connection without sending any).
private func firstMessageAfterHandshake(port: Int, identity: SigningKeyPair, from localHost: String? = nil)
    async throws -> Places_Sync_V1_SyncMessage?
{
    let raw = try await connectRaw(port: port, from: localHost)
    return try await raw.executeThenClose { inbound, outbound in
        var frames = FrameReader(inbound)
        let (cipher, _) = try await rawHandshake(&frames, outbound, identity: identity)
        // A server that closes after the handshake may reset the connection under these calls.
        try? await rawSend(helloMessage(name: "raw"), cipher: cipher, to: outbound)
        var assembler = SyncMessageAssembler(maxMessageBytes: 4 << 20)
        return (try? await rawReceive(&frames, cipher: cipher, assembler: &assembler)) ?? nil
    }
}

/// Opens `count` raw connections to 127.0.0.1:`port`, runs `open` on each (with its index),
/// runs `body` while all are open, then closes them.
private func holdingConnections<R: Sendable>(
    _ count: Int, port: Int,
    _ open: (Int, NIOAsyncChannelInboundStream<ByteBuffer>, NIOAsyncChannelOutboundWriter<ByteBuffer>) async throws
        -> Void,
    then body: () async throws -> R
) async throws -> R {
    guard count > 0 else { return try await body() }
    let raw = try await connectRaw(port: port)
    return try await raw.executeThenClose { inbound, outbound in
        try await open(count, inbound, outbound)
        return try await holdingConnections(count - 1, port: port, open, then: body)
    }
}

/// Completes a session on a raw connection: handshake as `identity`, both `Hello`s.
private func openSession(
    identity: SigningKeyPair, _ inbound: NIOAsyncChannelInboundStream<ByteBuffer>,
    _ outbound: NIOAsyncChannelOutboundWriter<ByteBuffer>
) async throws {
    var frames = FrameReader(inbound)
    let (cipher, _) = try await rawHandshake(&frames, outbound, identity: identity)
    try await rawSend(helloMessage(name: "raw"), cipher: cipher, to: outbound)
    var assembler = SyncMessageAssembler(maxMessageBytes: 4 << 20)
    let hello = try await rawReceive(&frames, cipher: cipher, assembler: &assembler)
    #expect(hello?.hello.name == "server")
}

/// `openSession` as a fresh identity each time.
private func openSession(
    _ index: Int, _ inbound: NIOAsyncChannelInboundStream<ByteBuffer>,
    _ outbound: NIOAsyncChannelOutboundWriter<ByteBuffer>
) async throws {
    try await openSession(identity: try SigningKeyPair(), inbound, outbound)
}

@Suite("Transport limits against hostile peers")
struct TransportLimitsTests {
    @Test("A stranger's session is closed after the grace; a peer the delegate keeps stays")
    func strangerIsClosedAfterGrace() async throws {
        var limits = SyncLimits.fastTests
        limits.strangerGrace = .milliseconds(300)
        limits.strangerRecheckInterval = .milliseconds(300)
        let server = try RecordingDelegate(name: "server")
        await server.treatPeersAsStrangers()
        let stranger = try RecordingDelegate(name: "stranger")
        try await withService(server, limits: limits) { serverService, port in
            try await withService(stranger, limits: limits) { strangerService, _ in
                await strangerService.addPeer(host: "127.0.0.1", port: port)
                #expect(await eventually { await server.opened.count == 1 })
                #expect(await eventually { await server.closed.count >= 1 })
                let reason = try #require(await server.closed.first?.reason)
                #expect(reason.contains("shares no document"))
                #expect(await server.keepQuestions >= 1)
                #expect(await eventually { await serverService.connectedPeers().isEmpty })
            }
        }

        let friendly = try RecordingDelegate(name: "server")
        let friend = try RecordingDelegate(name: "friend")
        try await withService(friendly, limits: limits) { serverService, port in
            try await withService(friend, limits: limits) { friendService, _ in
                await friendService.addPeer(host: "127.0.0.1", port: port)
                #expect(await eventually { await friendly.keepQuestions >= 3 })
                #expect(await friendly.closed.isEmpty)
                #expect(await serverService.connectedPeers().map(\.key) == [friend.key])
            }
        }
    }

    @Test("A dialler that keeps being closed as a stranger backs off instead of re-dialling every second")
    func strangerClosesBackOff() async throws {
        var serverLimits = SyncLimits.fastTests
        serverLimits.strangerGrace = .milliseconds(100)
        let server = try RecordingDelegate(name: "server")
        await server.treatPeersAsStrangers()
        var clientLimits = SyncLimits.fastTests
        clientLimits.reconnectInitialDelay = .milliseconds(100)
        clientLimits.reconnectMaxDelay = .seconds(2)
        let client = try RecordingDelegate(name: "client")
        try await withService(server, limits: serverLimits) { _, port in
            try await withService(client, limits: clientLimits) { clientService, _ in
                await clientService.addPeer(host: "127.0.0.1", port: port)
                try await Task.sleep(for: .seconds(3))
                // Re-dialling 0.05-0.1 s after each 0.1 s session would open 12 or more
                // sessions in 3 s; backing off (0.1, 0.2, 0.4, 0.8, 1.6 s, halved at worst by
                // the jitter) opens about 6.
                let sessions = await server.opened.count
                #expect(sessions <= 8)
                // It does keep re-dialling (given time on a loaded machine).
                #expect(await eventually(within: .seconds(15)) { await server.opened.count >= 2 })
            }
        }
    }

    @Test("A 9th handshaking connection from one address is refused while another address still gets in")
    func pendingConnectionsPerAddressAreCapped() async throws {
        let server = try RecordingDelegate(name: "server")
        var limits = SyncLimits.fastTests
        limits.handshakeTimeout = .seconds(30)
        try await withService(server, limits: limits) { service, port in
            // Eight silent connections: each holds a handshaking slot of 127.0.0.1.
            try await holdingConnections(8, port: port, { _, _, _ in }) {
                #expect(await eventually { await service.budgetState.pending == 8 })
                let ninth = try await connectRaw(port: port)
                #expect(await isClosedByPeer(ninth.channel, within: .seconds(5)))
                #expect(await service.budgetState.pending == 8)
                // Another host (here 127.0.0.2) is not held up by the first one's connections.
                let hello = try await firstMessageAfterHandshake(
                    port: port, identity: try SigningKeyPair(), from: "127.0.0.2")
                #expect(hello?.hello.name == "server")
            }
            // Every slot and every per-address entry is freed once the connections are gone.
            #expect(
                await eventually {
                    let state = await service.budgetState
                    return state.inbound == 0 && state.pending == 0 && state.addresses == 0
                })
        }
    }

    @Test("Connections from one address are capped also once their sessions are up")
    func connectionsPerAddressAreCapped() async throws {
        let server = try RecordingDelegate(name: "server")
        var limits = SyncLimits.fastTests
        limits.maxConnectionsPerAddress = 3
        try await withService(server, limits: limits) { service, port in
            try await holdingConnections(3, port: port, openSession) {
                #expect(await eventually { await service.connectedPeers().count == 3 })
                let fourth = try await connectRaw(port: port)
                #expect(await isClosedByPeer(fourth.channel, within: .seconds(5)))
                let hello = try await firstMessageAfterHandshake(
                    port: port, identity: try SigningKeyPair(), from: "127.0.0.2")
                #expect(hello?.hello.name == "server")
            }
        }
    }

    @Test("A third session of one identity is closed after the handshake without a Hello")
    func thirdSessionGetsNoHello() async throws {
        let server = try RecordingDelegate(name: "server")
        try await withService(server) { service, port in
            let client = try SigningKeyPair()
            try await holdingConnections(
                2, port: port,
                { _, inbound, outbound in
                    try await openSession(identity: client, inbound, outbound)
                }
            ) {
                #expect(
                    await eventually {
                        let sessions = await service.connectedPeers().count
                        let opened = await server.opened.count
                        return sessions == 2 && opened == 2
                    })
                let third = try await firstMessageAfterHandshake(port: port, identity: client)
                #expect(third == nil)
                #expect(await server.opened.count == 2)
            }
            #expect(await eventually { await service.connectedPeers().isEmpty })
            // The identity's places are free again.
            let again = try await firstMessageAfterHandshake(port: port, identity: client)
            #expect(again?.hello.name == "server")
        }
    }

    @Test("Hello carries the name the delegate chooses for the peer: empty for a stranger")
    func helloNameIsChosenPerPeer() async throws {
        let server = try RecordingDelegate(name: "Ana's phone")
        let friend = try SigningKeyPair()
        await server.tellNameOnly(to: [friend.publicKey])
        try await withService(server) { _, port in
            let toStranger = try await firstMessageAfterHandshake(port: port, identity: try SigningKeyPair())
            #expect(toStranger?.hello.protocolVersion == 1)
            #expect(toStranger?.hello.name == "")
            let toFriend = try await firstMessageAfterHandshake(port: port, identity: friend)
            #expect(toFriend?.hello.name == "Ana's phone")
        }
    }

    @Test("A key announced from new addresses keeps one dial loop, which ends when the key expires")
    func discoveredPeersKeepOneDialTargetPerKey() async throws {
        let me = try RecordingDelegate(name: "me")
        var limits = SyncLimits.fastTests
        // Long enough that a loaded machine still sees the one loop before the key expires.
        limits.discoveredPeerExpiry = .seconds(3)
        try await withService(me, limits: limits) { service, _ in
            let key = try SigningKeyPair().publicKey
            // Closed ports on loopback: every dial fails at once, and the loops keep trying.
            let ports = [1, 2, 3, 4, 5].map { _ in Int.random(in: 40_000...49_000) }
            for port in ports {
                await service.addDiscoveredPeer(DiscoveredPeer(key: key, host: "127.0.0.1", tcpPort: port, name: "x"))
            }
            #expect(await service.dialState.discovered == 1)
            #expect(await eventually { await service.dialState.loops == 1 })
            #expect(await eventually(within: .seconds(15)) { await service.dialState.loops == 0 })
            #expect(await service.dialState.discovered == 0)
        }
    }

    @Test("An address learned from a beacon leads to a session only with the key the beacon announced")
    func discoveredAddressMustProveItsKey() async throws {
        let server = try RecordingDelegate(name: "server")
        let client = try RecordingDelegate(name: "client")
        let logs = LogRecords()
        try await withService(server) { _, port in
            try await withService(client, logger: logs.logger) { clientService, _ in
                let impostor = try SigningKeyPair().publicKey
                await clientService.addDiscoveredPeer(
                    DiscoveredPeer(key: impostor, host: "127.0.0.1", tcpPort: port, name: "x"))
                #expect(await eventually { logs.contains("peer connection closed before a session started") })
                #expect(await clientService.connectedPeers().isEmpty)
                #expect(await client.opened.isEmpty)
                // The real key, announced at the same address, is dialled and accepted.
                await clientService.addDiscoveredPeer(
                    DiscoveredPeer(key: server.key, host: "127.0.0.1", tcpPort: port, name: "x"))
                #expect(await eventually { await client.opened.map(\.peer) == [server.key] })
            }
        }
    }

    @Test("Beacons from a flood of keys fill at most the discovered-peer budget")
    func discoveredPeersAreBounded() async throws {
        let me = try RecordingDelegate(name: "me")
        var limits = SyncLimits.fastTests
        limits.maxDiscoveredPeers = 6
        limits.maxDiscoveredPeersPerAddress = 2
        try await withService(me, limits: limits) { service, _ in
            for index in 0..<40 {
                let peer = DiscoveredPeer(
                    key: try SigningKeyPair().publicKey, host: "127.0.0.\(index % 10 + 1)", tcpPort: 40_000 + index,
                    name: "")
                await service.addDiscoveredPeer(peer)
            }
            #expect(await service.dialState.discovered == 6)
            #expect(await service.dialState.loops <= 6)
        }
    }
}

@Suite("Connection budget")
struct ConnectionBudgetTests {
    @Test("per-address, handshaking and total caps; dials have their own budget")
    func caps() {
        var limits = SyncLimits.default
        limits.maxConnections = 10
        limits.maxPendingConnections = 6
        limits.maxConnectionsPerAddress = 4
        limits.maxPendingConnectionsPerAddress = 2
        limits.maxOutboundConnections = 3
        limits.maxConcurrentDials = 2
        var budget = ConnectionBudget(limits: limits)
        func admit(_ address: String) -> ConnectionBudget.Refusal? { budget.admitInbound(from: address) }
        func dial() -> Bool { budget.admitDial() }
        #expect(admit("a") == nil)
        #expect(admit("a") == nil)
        #expect(admit("a") == .tooManyPendingFromAddress)
        budget.inboundEstablished(from: "a")
        budget.inboundEstablished(from: "a")
        #expect(admit("a") == nil)
        #expect(admit("a") == nil)
        #expect(admit("a") == .tooManyFromAddress)
        #expect(admit("b") == nil)
        #expect(admit("c") == nil)
        #expect(admit("d") == nil)
        #expect(admit("e") == nil)
        #expect(admit("f") == .tooManyPending)
        // The inbound budget is full of pending connections; dials are not affected.
        #expect(dial())
        #expect(dial())
        #expect(!dial())
        budget.dialFinished()
        #expect(dial())
        #expect(!dial())
        for address in ["b", "c", "d", "e"] { budget.releaseInbound(from: address, established: false) }
        budget.releaseInbound(from: "a", established: false)
        budget.releaseInbound(from: "a", established: false)
        budget.releaseInbound(from: "a", established: true)
        budget.releaseInbound(from: "a", established: true)
        #expect(budget.inbound == 0 && budget.pending == 0 && budget.trackedAddresses == 0)
    }

    @Test("IPv6 addresses count per /64; IPv4-mapped ones as IPv4")
    func addressBuckets() throws {
        let one = try SocketAddress(ipAddress: "2001:db8:1:2:aaaa::1", port: 1)
        let two = try SocketAddress(ipAddress: "2001:db8:1:2:bbbb::2", port: 2)
        let other = try SocketAddress(ipAddress: "2001:db8:1:3::1", port: 1)
        #expect(ConnectionBudget.addressBucket(one) == ConnectionBudget.addressBucket(two))
        #expect(ConnectionBudget.addressBucket(one) != ConnectionBudget.addressBucket(other))
        #expect(ConnectionBudget.addressBucket(try SocketAddress(ipAddress: "::ffff:10.0.0.7", port: 1)) == "10.0.0.7")
        #expect(ConnectionBudget.addressBucket(try SocketAddress(ipAddress: "10.0.0.7", port: 1)) == "10.0.0.7")
    }
}

@Suite("Discovered peer table")
struct DiscoveredPeerTableTests {
    let start = ContinuousClock.now

    @Test("one target per key: the latest address wins")
    func latestAddressWins() throws {
        var table = DiscoveredPeerTable(maxPeers: 8, maxPerAddress: 4, expiry: .seconds(120))
        func record(_ key: PublicKey, _ target: DialTarget, at now: ContinuousClock.Instant)
            -> DiscoveredPeerTable.Update
        { table.record(key: key, target: target, now: now) }
        let key = try SigningKeyPair().publicKey
        let first = DialTarget(host: "10.0.0.2", port: 7000)
        let second = DialTarget(host: "10.0.0.3", port: 7000)
        #expect(record(key, first, at: start) == .added(first))
        #expect(record(key, first, at: start + .seconds(30)) == .refreshed)
        #expect(record(key, second, at: start + .seconds(60)) == .moved(from: first, to: second))
        #expect(table.count == 1)
        #expect(!table.isCurrent(first, now: start + .seconds(60)))
        #expect(table.isCurrent(second, now: start + .seconds(60)))
        #expect(!table.isCurrent(second, now: start + .seconds(180)))
    }

    @Test("bounded in total and per source address; expired keys make room, live ones are never pushed out")
    func bounded() throws {
        var table = DiscoveredPeerTable(maxPeers: 4, maxPerAddress: 2, expiry: .seconds(120))
        func record(_ key: PublicKey, _ target: DialTarget, at now: ContinuousClock.Instant)
            -> DiscoveredPeerTable.Update
        { table.record(key: key, target: target, now: now) }
        let keys = try (0..<8).map { _ in try SigningKeyPair().publicKey }
        #expect(record(keys[0], .init(host: "a", port: 1), at: start) != .refused)
        #expect(record(keys[1], .init(host: "a", port: 2), at: start) != .refused)
        #expect(record(keys[2], .init(host: "a", port: 3), at: start) == .refused)
        // A known key cannot move onto a full address either.
        #expect(record(keys[3], .init(host: "b", port: 1), at: start) != .refused)
        #expect(record(keys[3], .init(host: "a", port: 4), at: start) == .refused)
        #expect(record(keys[4], .init(host: "c", port: 1), at: start) != .refused)
        #expect(record(keys[5], .init(host: "d", port: 1), at: start) == .refused)
        #expect(table.count == 4)
        // keys[0] is refreshed; the others expire and make room.
        #expect(record(keys[0], .init(host: "a", port: 1), at: start + .seconds(100)) == .refreshed)
        let later = start + .seconds(150)
        #expect(record(keys[5], .init(host: "d", port: 1), at: later) != .refused)
        #expect(table.isCurrent(.init(host: "a", port: 1), now: later))
        #expect(table.count == 2)
    }
}
