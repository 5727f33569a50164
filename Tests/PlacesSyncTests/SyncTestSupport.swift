import Foundation
import Logging
import NIOCore
import NIOPosix
import PlacesCrypto
import SwiftProtobuf
import Synchronization
import Testing

@testable import PlacesSync

/// A delegate that records every call, with a settable identity and a reply rule.
actor RecordingDelegate: SyncDelegate {
    private(set) var identity: SigningKeyPair?
    nonisolated let key: PublicKey
    nonisolated let name: String
    private(set) var opened: [(peer: PublicKey, hello: Places_Sync_V1_Hello, address: String)] = []
    private(set) var received: [(message: Places_Sync_V1_SyncMessage, peer: PublicKey)] = []
    private(set) var closed: [(peer: PublicKey, reason: String)] = []
    private let reply: @Sendable (Places_Sync_V1_SyncMessage) -> [Places_Sync_V1_SyncMessage]
    /// Sent when a session opens (a daemon's offers of the documents it shares with the peer).
    private let atOpen: [Places_Sync_V1_SyncMessage]

    init(
        name: String, loggedIn: Bool = true, atOpen: [Places_Sync_V1_SyncMessage] = [],
        reply: @escaping @Sendable (Places_Sync_V1_SyncMessage) -> [Places_Sync_V1_SyncMessage] = { _ in [] }
    ) throws {
        let identity = try SigningKeyPair()
        self.key = identity.publicKey
        self.identity = loggedIn ? identity : nil
        self.name = name
        self.reply = reply
        self.atOpen = atOpen
        self.keyPair = identity
    }

    private let keyPair: SigningKeyPair
    /// What `keepSession(with:)` answers.
    private(set) var keepsSessions = true
    /// How often `keepSession(with:)` was asked.
    private(set) var keepQuestions = 0
    /// When set, only these peers are told the name in `Hello`; others get "".
    private(set) var knownPeers: Set<PublicKey>?

    func logIn() { identity = keyPair }

    func treatPeersAsStrangers() { keepsSessions = false }

    func tellNameOnly(to peers: Set<PublicKey>) { knownPeers = peers }

    func keepSession(with peer: PublicKey) async -> Bool {
        keepQuestions += 1
        return keepsSessions
    }

    func helloName(for peer: PublicKey) async -> String {
        if let knownPeers, !knownPeers.contains(peer) { return "" }
        return name
    }

    func syncIdentity() async -> SigningKeyPair? { identity }

    func syncDisplayName() async -> String { name }

    func sessionOpened(with peer: PublicKey, hello: Places_Sync_V1_Hello, address: String, handshakeHash: [UInt8])
        async -> [Places_Sync_V1_SyncMessage]
    {
        opened.append((peer, hello, address))
        return atOpen
    }

    func received(_ message: Places_Sync_V1_SyncMessage, from peer: PublicKey) async -> [Places_Sync_V1_SyncMessage] {
        received.append((message, peer))
        return reply(message)
    }

    func sessionClosed(with peer: PublicKey, reason: String) async {
        closed.append((peer, reason))
    }
}

/// Small timeouts so failures show up in well under a second.
extension SyncLimits {
    static let fastTests = SyncLimits(
        handshakeTimeout: .seconds(5), pingInterval: .seconds(5), idleTimeout: .seconds(20),
        connectTimeout: .seconds(2), reconnectInitialDelay: .milliseconds(50), reconnectMaxDelay: .milliseconds(400))
}

let quietLogger: Logger = {
    var logger = Logger(label: "places.sync.tests") { label in
        ProcessInfo.processInfo.environment["SYNC_TEST_LOGS"] == nil
            ? SwiftLogNoOpLogHandler() as any LogHandler : StreamLogHandler.standardError(label: label)
    }
    logger.logLevel = .trace
    return logger
}()

/// Runs a `SyncService` on 127.0.0.1 for the duration of `body`, then cancels it.
func withService<R: Sendable>(
    _ delegate: any SyncDelegate, port: Int = 0, limits: SyncLimits = .fastTests, logger: Logger = quietLogger,
    _ body: (SyncService, Int) async throws -> R
) async throws -> R {
    let service = SyncService(host: "127.0.0.1", port: port, delegate: delegate, logger: logger, limits: limits)
    let (bound, continuation) = AsyncStream.makeStream(of: Int.self)
    return try await withThrowingTaskGroup(of: Void.self) { group in
        group.addTask {
            defer { continuation.finish() }
            try await service.run(onBound: { continuation.yield($0) })
        }
        defer { group.cancelAll() }
        var ports = bound.makeAsyncIterator()
        guard let port = await ports.next() else {
            try await group.next()
            throw SyncError(.serviceFailed, "the service stopped before listening")
        }
        return try await body(service, port)
    }
}

/// Polls `condition` until it holds or `timeout` passes.
func eventually(within timeout: Duration = .seconds(5), _ condition: () async -> Bool) async -> Bool {
    let clock = ContinuousClock()
    let deadline = clock.now + timeout
    while clock.now < deadline {
        if await condition() { return true }
        try? await Task.sleep(for: .milliseconds(20))
    }
    return await condition()
}

// MARK: A hand-driven peer

typealias RawChannel = NIOAsyncChannel<ByteBuffer, ByteBuffer>

/// Opens a plain TCP connection to 127.0.0.1, for peers that break the protocol on purpose;
/// `from` picks the local address (any of 127.0.0.0/8 on Linux), to play another host.
func connectRaw(port: Int, from localHost: String? = nil) async throws -> RawChannel {
    var bootstrap = ClientBootstrap(group: MultiThreadedEventLoopGroup.singleton)
    if let localHost { bootstrap = bootstrap.bind(to: try SocketAddress(ipAddress: localHost, port: 0)) }
    return
        try await bootstrap
        .connect(host: "127.0.0.1", port: port) { channel in
            channel.eventLoop.makeCompletedFuture { try RawChannel(wrappingChannelSynchronously: channel) }
        }
}

/// Whether the other side closes `channel` within `timeout` (it is closed either way after).
func isClosedByPeer(_ channel: any Channel, within timeout: Duration) async -> Bool {
    await withTaskGroup(of: Bool.self) { group in
        group.addTask {
            (try? await channel.closeFuture.get()) != nil
        }
        group.addTask {
            try? await Task.sleep(for: timeout)
            return false
        }
        let first = await group.next() ?? false
        // Closing ends the closeFuture child too, so the group can finish.
        channel.close(promise: nil)
        group.cancelAll()
        return first
    }
}

/// Reads Noise frames from a raw connection.
struct FrameReader {
    var inbound: NIOAsyncChannelInboundStream<ByteBuffer>.AsyncIterator
    var decoder = NoiseFrameDecoder()

    init(_ inbound: NIOAsyncChannelInboundStream<ByteBuffer>) {
        self.inbound = inbound.makeAsyncIterator()
    }

    /// The next frame, or nil once the peer closed the connection.
    mutating func next() async throws -> [UInt8]? {
        while true {
            if let frame = try decoder.nextFrame() { return frame }
            guard let buffer = try await inbound.next() else { return nil }
            decoder.append(buffer.readableBytesView)
        }
    }
}

func write(_ bytes: [UInt8], to outbound: NIOAsyncChannelOutboundWriter<ByteBuffer>) async throws {
    try await outbound.write(ByteBuffer(bytes: bytes))
}

// MARK: Captured logs

/// Log messages kept in memory, to await what the service reports.
final class LogRecords: Sendable {
    private let messages = Mutex<[String]>([])

    func append(_ message: String) { messages.withLock { $0.append(message) } }

    func contains(_ message: String) -> Bool { messages.withLock { $0.contains(message) } }

    /// A logger that records into this object.
    var logger: Logger {
        Logger(label: "places.sync.tests") { _ in CapturingLogHandler(records: self) }
    }
}

struct CapturingLogHandler: LogHandler {
    let records: LogRecords
    var metadata: Logger.Metadata = [:]
    var logLevel: Logger.Level = .trace

    subscript(metadataKey key: String) -> Logger.Metadata.Value? {
        get { metadata[key] }
        set { metadata[key] = newValue }
    }

    func log(event: LogEvent) {
        records.append(event.message.description)
    }
}

// MARK: A hand-driven initiator

/// Runs the initiator side of the handshake by hand, putting `claimed`'s identity proof in
/// message 3 (normally `identity` itself) and optionally flipping a bit of message 3.
/// Returns the client's transport (usable only if the server accepted message 3) and the
/// server's identity.
func rawHandshake(
    _ frames: inout FrameReader, _ outbound: NIOAsyncChannelOutboundWriter<ByteBuffer>, identity: SigningKeyPair,
    claimed: SigningKeyPair? = nil, tamper: Bool = false
) async throws -> (SessionCipher, serverKey: [UInt8]) {
    let staticKey = try identity.withSecretKey { try NoiseStaticKey(ed25519SecretKey: $0) }
    let handshake = NoiseHandshake.initiator(staticKey: staticKey)
    try await write(NoiseFraming.frame(handshake.writeMessage()), to: outbound)
    let message2 = try #require(try await frames.next())
    let hash2 = handshake.handshakeHash
    let proof2 = try handshake.readMessage(message2)
    let serverKey = try NoiseIdentityBinding.verify(
        payload: proof2, handshakeHashBeforeMessage: hash2, messageNumber: 2, remoteStaticKey: handshake.remoteStaticKey
    )
    let hash3 = handshake.handshakeHash
    let proof3 = try (claimed ?? identity).withSecretKey {
        try NoiseIdentityBinding.payload(ed25519SecretKey: $0, handshakeHashBeforeMessage: hash3, messageNumber: 3)
    }
    var message3 = try handshake.writeMessage(payload: proof3)
    if tamper { message3[message3.count - 1] ^= 0x01 }
    try await write(NoiseFraming.frame(message3), to: outbound)
    return (SessionCipher(try handshake.finish()), serverKey)
}

func rawSend(
    _ message: Places_Sync_V1_SyncMessage, cipher: SessionCipher, to outbound: NIOAsyncChannelOutboundWriter<ByteBuffer>
) async throws {
    let bytes: [UInt8] = try message.serializedBytes()
    try await outbound.write(SyncService.frames(for: bytes, cipher: cipher, allocator: ByteBufferAllocator()))
}

/// The next whole message from the server, or nil once it closed the connection.
func rawReceive(
    _ frames: inout FrameReader, cipher: SessionCipher, assembler: inout SyncMessageAssembler
) async throws -> Places_Sync_V1_SyncMessage? {
    while let frame = try await frames.next() {
        if let bytes = try assembler.append(try cipher.decrypt(frame)) {
            return try Places_Sync_V1_SyncMessage(serializedBytes: bytes)
        }
    }
    return nil
}

func helloMessage(name: String, listenPort: UInt32 = 0) -> Places_Sync_V1_SyncMessage {
    var message = Places_Sync_V1_SyncMessage()
    message.hello.protocolVersion = 1
    message.hello.name = name
    message.hello.listenPort = listenPort
    return message
}
