import Foundation
import Logging
import NIOCore
import PlacesCrypto
import SwiftProtobuf

/// What the session code reads after the handshake.
enum SyncInbound {
    /// One complete, decoded message with a `kind`.
    case message(SyncMessage)
    /// Nothing was written for `SyncLimits.pingInterval`.
    case writeIdle
    /// Time to ask the delegate whether the session is worth keeping (`SyncLimits.strangerGrace`).
    case strangerCheck
}

extension SyncError {
    /// Any error of a connection as a `SyncError`, for the close reason.
    static func of(_ error: any Error) -> SyncError {
        switch error {
        case let error as SyncError: error
        case is CancellationError: SyncError(.closed, "The sync service stopped")
        case let error as CryptoError: SyncError(.handshakeFailed, "The Noise handshake failed", cause: error)
        default: SyncError(.connectionFailed, "The connection to the peer failed", cause: error)
        }
    }
}

extension SyncService {
    typealias Events = NIOAsyncChannelInboundStream<SyncChannelEvent>.AsyncIterator

    /// Runs one connection from the first handshake byte to its close: handshake, `Hello`,
    /// then the session. Never throws; returns how the session went, or nil when none was
    /// established. `addressBucket` is set for an accepted connection.
    nonisolated func runConnection(
        _ connection: SyncChannel, identity: SigningKeyPair, dialTarget: DialTarget?, addressBucket: String?
    ) async -> SessionOutcome? {
        let channel = connection.channel
        let remoteAddress = channel.remoteAddress?.ipAddress ?? "unknown"
        let inbound = dialTarget == nil
        var logger = logger
        logger[metadataKey: "peer.address"] = "\(remoteAddress)"
        let deadline = channel.eventLoop.scheduleTask(in: TimeAmount(limits.handshakeTimeout)) {
            channel.pipeline.fireUserInboundEventTriggered(SyncHandshakeDeadline())
        }
        defer { deadline.cancel() }
        var claimedPeer: PublicKey?
        let lasted: SessionOutcome?
        do {
            lasted = try await connection.executeThenClose { stream, _ in
                var events = stream.makeAsyncIterator()
                var assembler = SyncMessageAssembler(maxMessageBytes: limits.maxMessageBytes)
                let peer: PublicKey
                let cipher: SessionCipher
                let handshakeHash: [UInt8]
                let hello: Places_Sync_V1_Hello
                do {
                    (peer, cipher, handshakeHash) = try await handshake(
                        &events, channel: channel, identity: identity, initiator: !inbound)
                    logger[metadataKey: "peer.id"] = "\(peer.logID)"
                    guard peer != identity.publicKey else {
                        throw SyncError(.refused, "The address leads back to this daemon's own identity")
                    }
                    if let dialTarget, !(await isExpected(peer, at: dialTarget)) {
                        throw SyncError(
                            .refused, "The peer's identity is not the one its discovery beacon announced")
                    }
                    // Checked before this side's Hello, so a surplus session learns nothing.
                    guard await claimSessionSlot(for: peer) else {
                        throw SyncError(
                            .refused, "The peer already has \(limits.maxSessionsPerPeer) sessions with this daemon")
                    }
                    claimedPeer = peer
                    hello = try await exchangeHellos(
                        &events, channel: channel, cipher: cipher, assembler: &assembler, peer: peer)
                } catch {
                    let reason = SyncError.of(error)
                    logger.info(
                        "peer connection closed before a session started",
                        metadata: ["sync.reason": "\(reason.code.rawValue)", "sync.detail": "\(reason.message)"])
                    return nil
                }
                deadline.cancel()
                let info = PeerInfo(
                    key: peer, name: hello.name, address: remoteAddress, listenPort: Int(hello.listenPort),
                    connectedSince: Date(), inbound: inbound)
                guard
                    let session = await register(
                        info: info, dialTarget: dialTarget, addressBucket: addressBucket, channel: channel)
                else {
                    logger.info("refused a session: sync is stopping")
                    return nil
                }
                let started = ContinuousClock.now
                logger.info("peer session opened", metadata: ["sync.inbound": "\(inbound)"])
                // Strangers (no shared document, no join in progress) are closed once the grace
                // is over; the delegate knows which peers those are.
                let strangerChecks = channel.eventLoop.scheduleRepeatedTask(
                    initialDelay: TimeAmount(limits.strangerGrace), delay: TimeAmount(limits.strangerRecheckInterval)
                ) { _ in
                    channel.pipeline.fireUserInboundEventTriggered(SyncStrangerCheck())
                }
                defer { strangerChecks.cancel() }
                let opening = await delegate.sessionOpened(
                    with: peer, hello: hello, address: remoteAddress, handshakeHash: handshakeHash)
                session.enqueue(serializeForSending(opening))
                let reason = await runSession(
                    session, events: &events, cipher: cipher, assembler: &assembler, logger: logger)
                await unregister(session)
                logger.info(
                    "peer session closed",
                    metadata: ["sync.reason": "\(reason.code.rawValue)", "sync.detail": "\(reason.message)"])
                await delegate.sessionClosed(with: peer, reason: reason.message)
                return SessionOutcome(lasted: ContinuousClock.now - started, peerOffered: session.peerOffered)
            }
        } catch {
            logger.debug("peer connection failed", metadata: ["error": "\(SyncError.of(error))"])
            lasted = nil
        }
        if let claimedPeer { await releaseSessionSlot(for: claimedPeer) }
        return lasted
    }

    // MARK: Handshake (Protocol/handshake.md)

    /// Runs Noise XX with identity proofs in messages 2 and 3; returns the peer's verified
    /// Ed25519 key, the session's transport and the final handshake hash (the session's
    /// channel binding: pairing proofs are bound to it, `Protocol/devices.md` §5.2).
    private nonisolated func handshake(
        _ events: inout Events, channel: any Channel, identity: SigningKeyPair, initiator: Bool
    ) async throws -> (PublicKey, SessionCipher, [UInt8]) {
        let staticKey = try identity.withSecretKey { try NoiseStaticKey(ed25519SecretKey: $0) }
        let handshake = initiator ? NoiseHandshake.initiator(staticKey: staticKey) : .responder(staticKey: staticKey)
        let peerKey: [UInt8]
        if initiator {
            try await writeFrame(handshake.writeMessage(), to: channel)
            let hashBefore2 = handshake.handshakeHash
            let proof2 = try handshake.readMessage(try await nextHandshakeFrame(&events))
            peerKey = try NoiseIdentityBinding.verify(
                payload: proof2, handshakeHashBeforeMessage: hashBefore2, messageNumber: 2,
                remoteStaticKey: handshake.remoteStaticKey)
            let hashBefore3 = handshake.handshakeHash
            let proof3 = try identity.withSecretKey {
                try NoiseIdentityBinding.payload(
                    ed25519SecretKey: $0, handshakeHashBeforeMessage: hashBefore3, messageNumber: 3)
            }
            try await writeFrame(handshake.writeMessage(payload: proof3), to: channel)
        } else {
            _ = try handshake.readMessage(try await nextHandshakeFrame(&events))
            let hashBefore2 = handshake.handshakeHash
            let proof2 = try identity.withSecretKey {
                try NoiseIdentityBinding.payload(
                    ed25519SecretKey: $0, handshakeHashBeforeMessage: hashBefore2, messageNumber: 2)
            }
            try await writeFrame(handshake.writeMessage(payload: proof2), to: channel)
            let hashBefore3 = handshake.handshakeHash
            let proof3 = try handshake.readMessage(try await nextHandshakeFrame(&events))
            peerKey = try NoiseIdentityBinding.verify(
                payload: proof3, handshakeHashBeforeMessage: hashBefore3, messageNumber: 3,
                remoteStaticKey: handshake.remoteStaticKey)
        }
        let transport = try handshake.finish()
        let hash = transport.handshakeHash
        return (try PublicKey(bytes: peerKey), SessionCipher(transport), hash)
    }

    private nonisolated func nextHandshakeFrame(_ events: inout Events) async throws -> [UInt8] {
        while let event = try await events.next() {
            switch event {
            case .frame(let frame): return frame
            case .writeIdle, .strangerCheck: continue
            case .readIdle, .handshakeDeadline: throw handshakeTimeout
            }
        }
        throw SyncError(.closed, "The peer closed the connection during the handshake")
    }

    private nonisolated var handshakeTimeout: SyncError {
        SyncError(.handshakeTimeout, "The peer did not complete the handshake within \(limits.handshakeTimeout)")
    }

    private nonisolated func writeFrame(_ message: [UInt8], to channel: any Channel) async throws {
        try await channel.writeAndFlush(ByteBuffer(bytes: NoiseFraming.frame(message))).get()
    }

    /// Sends this side's `Hello` (with the name the delegate gives `peer`) and reads the
    /// peer's, which must come first.
    private nonisolated func exchangeHellos(
        _ events: inout Events, channel: any Channel, cipher: SessionCipher, assembler: inout SyncMessageAssembler,
        peer: PublicKey
    ) async throws -> Places_Sync_V1_Hello {
        var hello = SyncMessage()
        hello.hello.protocolVersion = syncProtocolVersion
        hello.hello.name = Self.truncated(await delegate.helloName(for: peer), toUTF8Bytes: maxHelloNameBytes)
        hello.hello.listenPort = UInt32(await boundPort ?? 0)
        hello.hello.features = Replicator.features
        let device = await delegate.deviceCredentials()
        hello.hello.deviceCert = Data(device.certificate)
        hello.hello.deviceRevocations = device.revocations.prefix(maxHelloRevocations).map { Data($0) }
        let bytes: [UInt8] = try hello.serializedBytes()
        try await channel.writeAndFlush(Self.frames(for: bytes, cipher: cipher, allocator: channel.allocator)).get()
        while true {
            guard
                let inbound = try await nextInbound(
                    &events, cipher: cipher, assembler: &assembler, handshakeDone: false)
            else { throw SyncError(.closed, "The peer closed the connection before its Hello") }
            guard case .message(let message) = inbound else { continue }
            guard case .hello(let theirs) = message.kind else {
                throw SyncError(.protocolViolation, "The peer's first message was not a Hello")
            }
            guard theirs.protocolVersion == syncProtocolVersion else {
                throw SyncError(
                    .protocolViolation, "The peer speaks sync protocol version \(theirs.protocolVersion), not 1")
            }
            guard theirs.name.utf8.count <= maxHelloNameBytes, theirs.listenPort <= 65_535 else {
                throw SyncError(.protocolViolation, "The peer's Hello has a name over 100 bytes or a bad port")
            }
            guard theirs.features.count <= 16, theirs.features.allSatisfy({ $0.utf8.count <= 32 }) else {
                throw SyncError(.protocolViolation, "The peer's Hello has over 16 features or one over 32 bytes")
            }
            // Device records are checked by the delegate; here only their sizes (devices.md §6).
            guard theirs.deviceCert.isEmpty || theirs.deviceCert.count == 138,
                theirs.deviceRevocations.count <= maxHelloRevocations,
                theirs.deviceRevocations.allSatisfy({ $0.count == 137 })
            else {
                throw SyncError(
                    .protocolViolation, "The peer's Hello has a device certificate or revocations of the wrong size")
            }
            return theirs
        }
    }

    /// `text` cut to at most `limit` UTF-8 bytes at a character boundary.
    static func truncated(_ text: String, toUTF8Bytes limit: Int) -> String {
        guard text.utf8.count > limit else { return text }
        var result = ""
        for character in text {
            guard result.utf8.count + character.utf8.count <= limit else { break }
            result.append(character)
        }
        return result
    }

    // MARK: Messages

    /// The framed, encrypted fragments of one serialized message, in one buffer.
    static func frames(for message: [UInt8], cipher: SessionCipher, allocator: ByteBufferAllocator) throws
        -> ByteBuffer
    {
        let fragments = SyncFragments.split(message)
        var buffer = allocator.buffer(capacity: message.count + fragments.count * 19)
        for fragment in fragments {
            let ciphertext = try cipher.encrypt(fragment)
            buffer.writeInteger(UInt16(ciphertext.count))
            buffer.writeBytes(ciphertext)
        }
        return buffer
    }

    /// The next message or idle event; nil when the peer closed the connection. Throws
    /// `SyncError` for every broken rule (the caller closes the connection).
    private nonisolated func nextInbound(
        _ events: inout Events, cipher: SessionCipher, assembler: inout SyncMessageAssembler, handshakeDone: Bool
    ) async throws -> SyncInbound? {
        while let event = try await events.next() {
            switch event {
            case .frame(let ciphertext):
                let fragment: [UInt8]
                do {
                    fragment = try cipher.decrypt(ciphertext)
                } catch {
                    throw SyncError(.decryptionFailed, "A message from the peer failed to decrypt", cause: error)
                }
                guard let bytes = try assembler.append(fragment) else { continue }
                let message: SyncMessage
                do {
                    message = try SyncMessage(serializedBytes: bytes)
                } catch {
                    throw SyncError(.protocolViolation, "The peer sent bytes that are not a SyncMessage", cause: error)
                }
                guard message.kind != nil else {
                    throw SyncError(.protocolViolation, "The peer sent a message of no known kind")
                }
                return .message(message)
            case .writeIdle:
                return .writeIdle
            case .strangerCheck:
                if handshakeDone { return .strangerCheck }
            case .readIdle:
                throw SyncError(.idleTimeout, "Nothing arrived from the peer for \(limits.idleTimeout)")
            case .handshakeDeadline:
                // The deadline may fire just as it is cancelled; only a pending Hello is late.
                if !handshakeDone { throw handshakeTimeout }
            }
        }
        return nil
    }

    // MARK: Session

    /// Runs an established session until either side ends it; returns why it ended.
    private nonisolated func runSession(
        _ session: SyncSession, events: inout Events, cipher: SessionCipher, assembler: inout SyncMessageAssembler,
        logger: Logger
    ) async -> SyncError {
        await withTaskGroup(of: Void.self) { group in
            group.addTask { await self.writeLoop(session, cipher: cipher) }
            let reason = await readLoop(session, events: &events, cipher: cipher, assembler: &assembler)
            session.close(reason)
            await group.waitForAll()
            return session.reason ?? reason
        }
    }

    /// Handles inbound messages in order: keepalive here, everything else through the
    /// delegate. Returns the reason the session should end.
    ///
    /// While a batch of ops is handled, the next message is read ahead, and when it is a
    /// batch of ops too, its signatures are verified on the idle-time thread
    /// (`VerifiedOps`): a fresh sync's batches follow each other, and the store then skips
    /// those verifications. The verification ahead stops when its batch is handled.
    ///
    /// A bulk batch (`mergeFromBytes` or more) is handed on together with the batches of the
    /// same document that follow it within `SyncLimits.bulkMergeWait` each, up to `maxMessageBytes` in all
    /// (`mergingOps`): the store writes them in one transaction. A commit writes every page
    /// it dirtied, and the random-keyed indexes (op ids, entity ids) dirty about one page per
    /// op until every page of them is dirty; per op, that grows with the store. Small
    /// batches (live edits) are handed on at once.
    private nonisolated func readLoop(
        _ session: SyncSession, events: inout Events, cipher: SessionCipher, assembler: inout SyncMessageAssembler
    ) async -> SyncError {
        // Read by one task at a time: this loop, or the task reading the next message ahead
        // (awaited before this loop reads again). A read ahead left when the session ends
        // finishes as the connection closes.
        let reader = InboundReader(service: self, events: events, cipher: cipher, assembler: assembler)
        var ahead: Task<(SyncInbound?, VerifiedOps.Ahead?), any Error>?
        // Pair requests seen on this session: one is the bound (devices.md §7).
        var pairRequests = 0
        do {
            while true {
                let inbound: SyncInbound?
                var verifying: VerifiedOps.Ahead?
                if let pending = ahead {
                    (inbound, verifying) = try await pending.value
                    ahead = nil
                } else {
                    inbound = try await reader.next()
                }
                guard let inbound else { break }
                // Its batch reaches the store now, which verifies what is left itself.
                verifying?.cancel()
                switch inbound {
                case .strangerCheck:
                    guard await delegate.keepSession(with: session.info.key) else {
                        return SyncError(
                            .stranger, "The peer shares no document with this daemon and has no join in progress")
                    }
                case .writeIdle:
                    var ping = SyncMessage()
                    ping.ping.nonce = UInt64.random(in: .min ... .max)
                    session.enqueue(serializeForSending([ping]))
                case .message(let message):
                    switch message.kind {
                    case .ping(let ping):
                        var pong = SyncMessage()
                        pong.pong.nonce = ping.nonce
                        session.enqueue(serializeForSending([pong]))
                    case .pong(let pong):
                        session.enqueue(serializeForSending(await delegate.pong(pong.nonce, from: session.info.key)))
                    case .bye:
                        return SyncError(.closed, "The peer said goodbye")
                    case .hello:
                        return SyncError(.protocolViolation, "The peer sent a second Hello")
                    default:
                        if case .pairRequest = message.kind {
                            pairRequests += 1
                            guard pairRequests == 1 else {
                                return SyncError(.protocolViolation, "The peer sent a second PairRequest")
                            }
                        }
                        // A summary that covers documents says as much as their offers.
                        switch message.kind {
                        case .offer: session.noteOffer()
                        case .summary(let summary) where !summary.buckets.isEmpty: session.noteOffer()
                        default: break
                        }
                        var message = message
                        if case .ops = message.kind {
                            session.noteReceived(ops: Self.opFingerprints([message]))
                            ahead = Task { try await reader.nextVerifyingOps() }
                            ahead = await mergingOps(into: &message, ahead: ahead, reader: reader, session: session)
                        }
                        let replies = await delegate.received(message, from: session.info.key)
                        session.enqueue(serializeForSending(replies), ops: Self.opFingerprints(replies))
                    }
                }
                if let reason = session.reason { return reason }
            }
            return SyncError(.closed, "The peer closed the connection")
        } catch {
            return SyncError.of(error)
        }
    }

    /// A session's inbound side after the handshake: frames decrypted and assembled into
    /// messages, by one task at a time (`readLoop`).
    final class InboundReader: @unchecked Sendable {
        private let service: SyncService
        private var events: Events
        private let cipher: SessionCipher
        private var assembler: SyncMessageAssembler

        init(service: SyncService, events: Events, cipher: SessionCipher, assembler: SyncMessageAssembler) {
            self.service = service
            self.events = events
            self.cipher = cipher
            self.assembler = assembler
        }

        func next() async throws -> SyncInbound? {
            try await service.nextInbound(&events, cipher: cipher, assembler: &assembler, handshakeDone: true)
        }

        /// The next message; a batch of ops starts being verified ahead.
        func nextVerifyingOps() async throws -> (SyncInbound?, VerifiedOps.Ahead?) {
            let inbound = try await next()
            guard case .message(let message) = inbound, case .ops(let batch) = message.kind else {
                return (inbound, nil)
            }
            let ahead = VerifiedOps.Ahead()
            VerifiedOps.shared.verifyInBackground(batch.ops.map { [UInt8]($0) }, ahead: ahead)
            return (inbound, ahead)
        }
    }

    /// Writes queued messages in order until the queue is finished, then closes the
    /// connection (after a `Bye`, if one was queued last).
    private nonisolated func writeLoop(_ session: SyncSession, cipher: SessionCipher) async {
        let channel = session.channel
        do {
            while let message = await session.outbox.next() {
                let buffer = try Self.frames(for: message, cipher: cipher, allocator: channel.allocator)
                try await channel.writeAndFlush(buffer).get()
            }
        } catch {
            session.close(SyncError(.connectionFailed, "Could not write to the peer", cause: SyncError.of(error)))
        }
        channel.close(promise: nil)
    }
}
