import Foundation
import PlacesAccess
import PlacesCrypto
import PlacesModel
import PlacesStore
import SwiftProtobuf

@testable import PlacesSync

#if canImport(Glibc)
    import Glibc
#endif

/// A sync message as it travels between daemons (`Protocol/sync.proto`).
typealias WireMessage = Places_Sync_V1_SyncMessage

/// A peer written from `Protocol/` for the hostile-peer tests (issue #11): its own Ed25519
/// identity, the Noise XX handshake with identity proofs, the frame and fragment layer, and
/// raw `SyncMessage`s that it sends in any order with any content. It also builds and signs
/// ops with chosen headers and bodies, and key grants.
///
/// Everything blocks with a deadline (plain sockets and `poll`), so a test never hangs on a
/// daemon that stopped answering.
final class AdversarialPeer: @unchecked Sendable {
    /// The peer's identity.
    let identity: SigningKeyPair

    /// A fresh identity.
    init() throws {
        identity = try SigningKeyPair()
    }

    /// A peer speaking with a given key (a device key, or a person key the test holds).
    init(identity: SigningKeyPair) {
        self.identity = identity
    }

    /// The 32-byte public key.
    var key: [UInt8] { identity.publicKey.bytes }
    /// The human id (`places share … --with`).
    var humanID: String { identity.publicKey.humanID }

    /// Connects to `address` (`HOST:PORT`, IPv4), runs the handshake as initiator and, unless
    /// `hello` is nil, exchanges `Hello`s. `sourceAddress` binds the local end (another
    /// loopback address such as `127.0.0.2` looks like another host).
    func connect(
        to address: String, hello: Places_Sync_V1_Hello? = AdversarialPeer.hello(), sourceAddress: String? = nil,
        timeout: Double = 5
    ) throws -> PeerSession {
        let deadline = Date().addingTimeInterval(timeout)
        let socket = try PeerSocket(address: address, source: sourceAddress, deadline: deadline)
        do {
            let session = try PeerSession.handshake(socket: socket, identity: identity, deadline: deadline)
            if let hello {
                var message = WireMessage()
                message.hello = hello
                try session.send(message)
                guard let first = try session.next(timeout: deadline.timeIntervalSinceNow),
                    case .hello(let theirs)? =
                        first.kind
                else {
                    throw HarnessError("the daemon did not answer with a Hello")
                }
                session.remoteHello = theirs
            }
            return session
        } catch {
            socket.close()
            throw error
        }
    }

    /// A `Hello` as a daemon sends it.
    static func hello(name: String = "Mallory", listenPort: UInt32 = 0) -> Places_Sync_V1_Hello {
        var hello = Places_Sync_V1_Hello()
        hello.protocolVersion = 1
        hello.name = name
        hello.listenPort = listenPort
        return hello
    }

    // MARK: Ops

    /// Signs an op with exactly the header given (any seq, lamport, deps, epoch, doc),
    /// encrypting `body` with `key` and the header as associated data (`op-format.md` §3).
    /// `signer` defaults to this peer; `ciphertext` replaces the encryption when given.
    func op(
        doc: DocumentID, seq: UInt64, lamport: UInt64, deps: [[UInt8]], epoch: UInt32 = 0, key: [UInt8],
        body: [UInt8], signer: SigningKeyPair? = nil, ciphertext: [UInt8]? = nil
    ) throws -> SignedOp {
        let signer = signer ?? identity
        let header = OpHeader(
            doc: doc, author: signer.publicKey.bytes, seq: seq, deps: deps, lamport: lamport, epoch: epoch)
        let sealed = try ciphertext ?? SecretBox.seal(body, key: key, associatedData: OpCrypto.associatedData(header))
        let signed = SignedOp.encodeSignedBytes(header: header, ciphertext: sealed)
        return SignedOp(header: header, ciphertext: sealed, signature: signer.sign(signed).bytes, signedBytes: signed)
    }

    /// The next op of this peer in `mirror` (seq, lamport and deps as an honest author would
    /// choose them), with `body`; `adjust` may change any header field before signing.
    func nextOp(
        in mirror: DocumentMirror, body: [UInt8], adjust: (inout OpHeader) -> Void = { _ in }
    ) throws -> SignedOp {
        var header = OpHeader(
            doc: mirror.doc, author: key, seq: mirror.seq(of: key) + 1, deps: mirror.heads,
            lamport: mirror.maxLamport == .max ? .max : mirror.maxLamport + 1, epoch: mirror.newestEpoch)
        adjust(&header)
        return try op(
            doc: header.doc, seq: header.seq, lamport: header.lamport, deps: header.deps, epoch: header.epoch,
            key: mirror.keys[header.epoch] ?? mirror.keys[mirror.newestEpoch] ?? [], body: body)
    }

    /// A key grant of `documentKey` to `member`, signed by this peer.
    func grant(_ documentKey: [UInt8], doc: DocumentID, epoch: UInt32 = 0, to member: PublicKey) throws
        -> Places_Sync_V1_KeyGrant
    {
        let grant = try KeyGrant.issue(key: documentKey, doc: doc, epoch: epoch, to: member, by: identity)
        return Wire.grant(grant)
    }
}

/// Builders of wire messages and op bodies with any content.
enum Wire {
    /// A `DocOffer`.
    static func offer(
        doc: DocumentID, owner: [UInt8], vector: [([UInt8], UInt64)] = [], grants: [Places_Sync_V1_KeyGrant] = [],
        reply: Bool = false
    ) -> WireMessage {
        var offer = Places_Sync_V1_DocOffer()
        offer.doc = Data(doc.bytes)
        offer.owner = Data(owner)
        offer.vector = vector.map { author, seq in
            var entry = Places_Sync_V1_VersionEntry()
            entry.author = Data(author)
            entry.seq = seq
            return entry
        }
        offer.grants = grants
        offer.reply = reply
        var message = WireMessage()
        message.offer = offer
        return message
    }

    /// An `OpsBatch` naming `doc` (which need not be the ops' document).
    static func ops(_ ops: [[UInt8]], doc: DocumentID) -> WireMessage {
        var batch = Places_Sync_V1_OpsBatch()
        batch.doc = Data(doc.bytes)
        batch.ops = ops.map { Data($0) }
        var message = WireMessage()
        message.ops = batch
        return message
    }

    /// A key grant in its wire form (the replicator's own conversion).
    static func grant(_ grant: KeyGrant) -> Places_Sync_V1_KeyGrant { Replicator.wire(grant) }

    /// An op body (`op-format.md` §4) from changes written as JSON text, so that any value,
    /// valid or not, can be sent.
    static func body(timeMs: String = "\(Int64(Date().timeIntervalSince1970 * 1000))", _ changes: [String])
        -> [UInt8]
    {
        Array(#"{"timeMs":\#(timeMs),"changes":[\#(changes.joined(separator: ","))]}"#.utf8)
    }

    /// A `create` change.
    static func create(_ entity: String, kind: String) -> String {
        #"{"op":"create","entity":"\#(entity)","kind":"\#(kind)"}"#
    }

    /// A `set` change; `value` is JSON text.
    static func set(_ entity: String, kind: String, field: String, value: String) -> String {
        #"{"op":"set","entity":"\#(entity)","kind":"\#(kind)","field":"\#(field)","value":\#(value)}"#
    }

    /// A JSON string literal.
    static func string(_ text: String) -> String {
        String(decoding: (try? JSONEncoder().encode(text)) ?? Data("\"\"".utf8), as: UTF8.self)
    }
}

/// What a peer knows of one document: its ops, heads, clocks and keys, built from the ops
/// it received (or sent).
struct DocumentMirror: Sendable {
    let doc: DocumentID
    var owner: [UInt8]
    /// Document keys by epoch.
    var keys: [UInt32: [UInt8]] = [:]
    /// Every op held, in arrival order.
    private(set) var ops: [SignedOp] = []
    private var ids: Set<[UInt8]> = []
    private var referenced: Set<[UInt8]> = []
    private var seqs: [[UInt8]: UInt64] = [:]
    /// The largest lamport held.
    private(set) var maxLamport: UInt64 = 0

    init(doc: DocumentID, owner: [UInt8]) {
        self.doc = doc
        self.owner = owner
    }

    /// The newest epoch whose key is held.
    var newestEpoch: UInt32 { keys.keys.max() ?? 0 }

    /// The highest seq held of `author`.
    func seq(of author: [UInt8]) -> UInt64 { seqs[author] ?? 0 }

    /// Ops that no held op names as a dependency, sorted by id.
    var heads: [[UInt8]] {
        ops.map { Blake2b.hash256($0.signedBytes) }.filter { !referenced.contains($0) }.sorted {
            $0.lexicographicallyPrecedes($1)
        }
    }

    /// The version vector (author → highest seq).
    var vector: [([UInt8], UInt64)] { seqs.map { ($0.key, $0.value) } }

    /// The id of an op.
    static func id(_ op: SignedOp) -> [UInt8] { Blake2b.hash256(op.signedBytes) }

    /// Adds an op (a duplicate is ignored).
    mutating func add(_ op: SignedOp) {
        let id = Blake2b.hash256(op.signedBytes)
        guard !ids.contains(id) else { return }
        ids.insert(id)
        ops.append(op)
        for dep in op.header.deps { referenced.insert(dep) }
        seqs[op.header.author] = max(seqs[op.header.author] ?? 0, op.header.seq)
        maxLamport = max(maxLamport, op.header.lamport)
    }

    /// The plaintext body of a held op, if a key opens it.
    func body(of op: SignedOp) -> String? {
        guard let key = keys[op.header.epoch],
            let plain = try? SecretBox.open(op.ciphertext, key: key, associatedData: OpCrypto.associatedData(op.header))
        else { return nil }
        return String(decoding: plain, as: UTF8.self)
    }
}

/// One established connection to a daemon.
final class PeerSession: @unchecked Sendable {
    /// The daemon's proven identity.
    let remoteKey: PublicKey
    /// The daemon's `Hello`, once received.
    var remoteHello: Places_Sync_V1_Hello?
    /// Every decrypted transport byte received (fragment flags included), for leak checks.
    private(set) var receivedPlaintext: [UInt8] = []
    /// Every message received, in order.
    private(set) var received: [WireMessage] = []
    /// Whether the daemon closed the connection (EOF, reset, or a frame that fails).
    private(set) var closed = false
    /// The final Noise handshake hash (pairing proofs bind to it, `devices.md` §5.2).
    var handshakeHash: [UInt8] { transport.handshakeHash }

    private let socket: PeerSocket
    private let identity: SigningKeyPair
    private let transport: NoiseTransport
    private var frames = NoiseFrameDecoder()
    private var pending: [UInt8] = []
    private var queue: [WireMessage] = []

    private init(socket: PeerSocket, identity: SigningKeyPair, transport: NoiseTransport, remoteKey: PublicKey) {
        self.socket = socket
        self.identity = identity
        self.transport = transport
        self.remoteKey = remoteKey
    }

    /// Noise XX as initiator, with identity proofs (`handshake.md` §5–§6).
    static func handshake(socket: PeerSocket, identity: SigningKeyPair, deadline: Date) throws -> PeerSession {
        let staticKey = try identity.withSecretKey { try NoiseStaticKey(ed25519SecretKey: $0) }
        let handshake = NoiseHandshake.initiator(staticKey: staticKey)
        var frames = NoiseFrameDecoder()
        try socket.write(try NoiseFraming.frame(try handshake.writeMessage()), deadline: deadline)
        let hashBefore2 = handshake.handshakeHash
        let message2 = try readFrame(socket, &frames, deadline: deadline)
        let proof2 = try handshake.readMessage(message2)
        let peer = try NoiseIdentityBinding.verify(
            payload: proof2, handshakeHashBeforeMessage: hashBefore2, messageNumber: 2,
            remoteStaticKey: handshake.remoteStaticKey)
        let hashBefore3 = handshake.handshakeHash
        let proof3 = try identity.withSecretKey {
            try NoiseIdentityBinding.payload(
                ed25519SecretKey: $0, handshakeHashBeforeMessage: hashBefore3, messageNumber: 3)
        }
        try socket.write(try NoiseFraming.frame(try handshake.writeMessage(payload: proof3)), deadline: deadline)
        let transport = try handshake.finish()
        let session = PeerSession(
            socket: socket, identity: identity, transport: transport, remoteKey: try PublicKey(bytes: peer))
        session.frames = frames
        return session
    }

    private static func readFrame(_ socket: PeerSocket, _ frames: inout NoiseFrameDecoder, deadline: Date) throws
        -> [UInt8]
    {
        while true {
            if let frame = try frames.nextFrame() { return frame }
            guard let chunk = try socket.read(deadline: deadline) else {
                throw HarnessError("the daemon did not answer the handshake in time")
            }
            guard !chunk.isEmpty else { throw HarnessError("the daemon closed the connection during the handshake") }
            frames.append(chunk)
        }
    }

    // MARK: Sending

    /// Sends one message, fragmented as `sync.md` §3 says.
    func send(_ message: WireMessage) throws {
        try sendSerialized(Array(try message.serializedData()))
    }

    /// Sends several messages in one write (a flood), giving up at `deadline`.
    func send(_ messages: [WireMessage], deadline: Date = Date().addingTimeInterval(30)) throws {
        var out = [UInt8]()
        for message in messages {
            for fragment in SyncFragments.split(Array(try message.serializedData())) {
                out += try NoiseFraming.frame(try transport.encrypt(fragment))
            }
        }
        try socket.write(out, deadline: deadline)
    }

    /// Sends any bytes as one message (fragmented), valid protobuf or not.
    func sendSerialized(_ bytes: [UInt8]) throws {
        for fragment in SyncFragments.split(bytes) { try sendFragment(fragment) }
    }

    /// Sends one raw fragment (flag byte included) in one transport message.
    func sendFragment(_ fragment: [UInt8]) throws {
        try socket.write(
            try NoiseFraming.frame(try transport.encrypt(fragment)), deadline: Date().addingTimeInterval(10))
    }

    /// Sends ops in one `OpsBatch` naming `doc` (default: the first op's document).
    func send(ops: [SignedOp], doc: DocumentID? = nil) throws {
        guard let doc = doc ?? ops.first?.header.doc else { return }
        try send(Wire.ops(ops.map(\.encoded), doc: doc))
    }

    // MARK: Receiving

    /// The next message, waiting at most `timeout` seconds; nil on timeout or once the
    /// daemon closed the connection. Pings are answered (and returned like any message).
    func next(timeout: Double) throws -> WireMessage? {
        let deadline = Date().addingTimeInterval(max(0, timeout))
        while queue.isEmpty {
            if closed { return nil }
            if let frame = try? frames.nextFrame() {
                try take(frame)
                continue
            }
            let chunk: [UInt8]?
            do { chunk = try socket.read(deadline: deadline) } catch {
                closed = true
                return nil
            }
            guard let chunk else { return nil }
            if chunk.isEmpty {
                closed = true
                return nil
            }
            frames.append(chunk)
        }
        return queue.removeFirst()
    }

    private func take(_ frame: [UInt8]) throws {
        let fragment: [UInt8]
        do { fragment = try transport.decrypt(frame) } catch {
            closed = true
            throw HarnessError("a frame from the daemon did not decrypt")
        }
        receivedPlaintext += fragment
        guard let flag = fragment.first else { throw HarnessError("the daemon sent an empty fragment") }
        pending += fragment.dropFirst()
        guard flag == 0 else { return }
        let message = try WireMessage(serializedBytes: pending)
        pending = []
        received.append(message)
        if case .ping(let ping)? = message.kind {
            var pong = Places_Sync_V1_Pong()
            pong.nonce = ping.nonce
            var reply = WireMessage()
            reply.pong = pong
            try? send(reply)
        }
        queue.append(message)
    }

    /// Waits up to `timeout` seconds for a message matching `match`; other messages are
    /// passed to `other` (or dropped).
    func wait(
        timeout: Double, for match: (WireMessage) -> Bool, other: (WireMessage) -> Void = { _ in }
    ) throws -> WireMessage? {
        let deadline = Date().addingTimeInterval(timeout)
        while let message = try next(timeout: deadline.timeIntervalSinceNow) {
            if match(message) { return message }
            other(message)
        }
        return nil
    }

    /// Sends a Ping and returns every message that arrives before its Pong. The daemon reads
    /// a session's messages in order and answers a Ping only after it has handled, and
    /// queued the answers to, every message sent before it (`SyncService.readLoop`): the
    /// Pong says the daemon is done with them, however busy the machine, where a fixed pause
    /// only guesses. A session the daemon closed meanwhile has nothing more to handle: what
    /// arrived before the close is returned. Throws when neither comes within `timeout`.
    func settle(timeout: Double = 30) throws -> [WireMessage] {
        let nonce = UInt64.random(in: .min ... .max)
        var ping = WireMessage()
        ping.ping.nonce = nonce
        var out = [WireMessage]()
        do { try send(ping) } catch { if closed { return out } else { throw error } }
        let pong = try wait(
            timeout: timeout, for: { if case .pong(let p)? = $0.kind { p.nonce == nonce } else { false } },
            other: { out.append($0) })
        guard pong != nil || closed else { throw HarnessError("no Pong within \(timeout) s") }
        return out
    }

    /// Every message that arrives within `seconds`.
    func drain(for seconds: Double) throws -> [WireMessage] {
        let deadline = Date().addingTimeInterval(seconds)
        var out = [WireMessage]()
        while let message = try next(timeout: deadline.timeIntervalSinceNow) { out.append(message) }
        return out
    }

    /// Whether the daemon closes the connection within `timeout` seconds (reading and
    /// answering whatever it sends meanwhile).
    func waitUntilClosed(timeout: Double) -> Bool {
        let deadline = Date().addingTimeInterval(timeout)
        while !closed, deadline.timeIntervalSinceNow > 0 {
            _ = try? next(timeout: deadline.timeIntervalSinceNow)
        }
        return closed
    }

    /// Shuts the connection down from another thread, waking a read or write blocked on it.
    func abort() { socket.shutdown() }

    /// Closes the connection.
    func close() {
        closed = true
        socket.close()
    }

    deinit { socket.close() }

    // MARK: Being a member

    /// Fetches a document this peer is a member of: waits for the daemon's offer of `doc`
    /// (sent when the session opens or when it is shared), opens the key grants addressed
    /// to this peer, answers with an empty-vector offer and collects ops until it holds
    /// what the daemon offered.
    func fetch(_ doc: DocumentID, timeout: Double = 10) throws -> DocumentMirror {
        let deadline = Date().addingTimeInterval(timeout)
        guard
            let first = try wait(
                timeout: timeout,
                for: { if case .offer(let o)? = $0.kind { return o.doc == Data(doc.bytes) } else { return false } }),
            case .offer(let offer)? = first.kind
        else { throw HarnessError("the daemon did not offer \(doc.hex)") }
        var mirror = DocumentMirror(doc: doc, owner: [UInt8](offer.owner))
        take(grants: offer.grants, into: &mirror)
        try send(Wire.offer(doc: doc, owner: mirror.owner, reply: true))
        try catchUp(&mirror, to: offer.vector.map { ([UInt8]($0.author), $0.seq) }, deadline: deadline)
        return mirror
    }

    /// Opens the grants sealed to this peer.
    func take(grants: [Places_Sync_V1_KeyGrant], into mirror: inout DocumentMirror) {
        for grant in grants where [UInt8](grant.member) == identity.publicKey.bytes {
            if let key = try? SealedBox.open([UInt8](grant.sealedKey), with: identity) {
                mirror.keys[grant.epoch] = key
            }
        }
    }

    /// Reads ops of `mirror`'s document until it holds `vector`.
    func catchUp(_ mirror: inout DocumentMirror, to vector: [([UInt8], UInt64)], deadline: Date) throws {
        while vector.contains(where: { mirror.seq(of: $0.0) < $0.1 }) {
            guard let message = try next(timeout: deadline.timeIntervalSinceNow) else {
                throw HarnessError("the daemon did not send the ops it offered")
            }
            absorb(message, into: &mirror)
        }
    }

    /// Takes ops and grants of `mirror`'s document from a message.
    func absorb(_ message: WireMessage, into mirror: inout DocumentMirror) {
        switch message.kind {
        case .ops(let batch) where batch.doc == Data(mirror.doc.bytes):
            for bytes in batch.ops {
                if let op = try? SignedOp(decoding: [UInt8](bytes)) { mirror.add(op) }
            }
        case .offer(let offer) where offer.doc == Data(mirror.doc.bytes):
            take(grants: offer.grants, into: &mirror)
        default: break
        }
    }

    /// Reads whatever arrives within `seconds` into `mirror` (live ops the daemon pushes).
    func absorb(for seconds: Double, into mirror: inout DocumentMirror) throws {
        for message in try drain(for: seconds) { absorb(message, into: &mirror) }
    }
}

/// A TCP socket with deadlines on every read and write (non-blocking plus `poll`).
final class PeerSocket: @unchecked Sendable {
    private var fd: Int32

    init(address: String, source: String?, deadline: Date) throws {
        guard let colon = address.lastIndex(of: ":"), let port = UInt16(address[address.index(after: colon)...])
        else { throw HarnessError("not a HOST:PORT address: \(address)") }
        let host = String(address[..<colon])
        fd = Glibc.socket(AF_INET, Int32(SOCK_STREAM.rawValue), 0)
        guard fd >= 0 else { throw HarnessError("socket() failed: errno \(errno)") }
        var one: Int32 = 1
        setsockopt(fd, Int32(IPPROTO_TCP), TCP_NODELAY, &one, socklen_t(MemoryLayout<Int32>.size))
        _ = fcntl(fd, F_SETFL, fcntl(fd, F_GETFL) | O_NONBLOCK)
        if let source {
            var local = try Self.address(source, port: 0)
            let rc = withUnsafePointer(to: &local) {
                $0.withMemoryRebound(to: sockaddr.self, capacity: 1) {
                    bind(fd, $0, socklen_t(MemoryLayout<sockaddr_in>.size))
                }
            }
            guard rc == 0 else {
                close()
                throw HarnessError("bind(\(source)) failed: errno \(errno)")
            }
        }
        var remote = try Self.address(host, port: port)
        let rc = withUnsafePointer(to: &remote) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) {
                Glibc.connect(fd, $0, socklen_t(MemoryLayout<sockaddr_in>.size))
            }
        }
        if rc != 0 {
            guard errno == EINPROGRESS, try wait(Int16(POLLOUT), deadline: deadline) else {
                close()
                throw HarnessError("could not connect to \(address)")
            }
            var error: Int32 = 0
            var length = socklen_t(MemoryLayout<Int32>.size)
            getsockopt(fd, SOL_SOCKET, SO_ERROR, &error, &length)
            guard error == 0 else {
                close()
                throw HarnessError("could not connect to \(address): errno \(error)")
            }
        }
    }

    private static func address(_ host: String, port: UInt16) throws -> sockaddr_in {
        var addr = sockaddr_in()
        addr.sin_family = sa_family_t(AF_INET)
        addr.sin_port = port.bigEndian
        guard inet_pton(AF_INET, host, &addr.sin_addr) == 1 else { throw HarnessError("not an IPv4 address: \(host)") }
        return addr
    }

    /// Waits until the socket is ready for `events`; false on timeout.
    private func wait(_ events: Int16, deadline: Date) throws -> Bool {
        while true {
            let ms = Int32(max(0, min(deadline.timeIntervalSinceNow * 1000, 60_000)))
            var p = pollfd(fd: fd, events: events, revents: 0)
            let n = poll(&p, 1, ms)
            if n > 0 { return true }
            if n == 0 { return false }
            if errno != EINTR { throw HarnessError("poll failed: errno \(errno)") }
        }
    }

    func write(_ bytes: [UInt8], deadline: Date) throws {
        var offset = 0
        while offset < bytes.count {
            guard fd >= 0 else { throw HarnessError("the connection is closed") }
            let n = bytes.withUnsafeBytes {
                send(fd, $0.baseAddress! + offset, bytes.count - offset, Int32(MSG_NOSIGNAL))
            }
            if n > 0 {
                offset += n
            } else if n < 0, errno == EAGAIN || errno == EWOULDBLOCK || errno == EINTR {
                guard try wait(Int16(POLLOUT), deadline: deadline) else {
                    throw HarnessError("a write to the daemon timed out")
                }
            } else {
                throw HarnessError("the daemon closed the connection (write failed: errno \(errno))")
            }
        }
    }

    /// Up to 64 KiB; nil on timeout, empty at EOF. Throws when the connection was reset.
    func read(deadline: Date) throws -> [UInt8]? {
        var buffer = [UInt8](repeating: 0, count: 65_536)
        while true {
            guard fd >= 0 else { return [] }
            let n = buffer.withUnsafeMutableBytes { recv(fd, $0.baseAddress!, $0.count, 0) }
            if n > 0 { return Array(buffer[..<n]) }
            if n == 0 { return [] }
            if errno == EAGAIN || errno == EWOULDBLOCK || errno == EINTR {
                guard try wait(Int16(POLLIN), deadline: deadline) else { return nil }
                continue
            }
            throw HarnessError("the connection was reset: errno \(errno)")
        }
    }

    func shutdown() {
        if fd >= 0 { _ = Glibc.shutdown(fd, Int32(SHUT_RDWR)) }
    }

    func close() {
        if fd >= 0 { Glibc.close(fd) }
        fd = -1
    }
}
