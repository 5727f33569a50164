import Foundation
import PlacesCrypto
import PlacesModel
import PlacesStore
import SwiftProtobuf

@testable import PlacesDaemon
@testable import PlacesSync

/// `sync-session`: one peer's whole session with a real daemon engine.
///
/// Each input gets a fresh data dir (on tmpfs) holding the owner's unsealed key file and a
/// store with the itinerary and its base ops (`FuzzWorld`); an `Engine` is built over it
/// and logged in, exactly as `placesd` does at start. The input is then played as the
/// plaintext fragments a peer sends after the Noise handshake: they go through
/// `SyncMessageAssembler` and `SyncMessage` decoding, then the transport's own rules
/// (`SyncService+Session.swift`, which are private to it and so repeated here: the first
/// message must be a `Hello` of protocol 1 with a name of at most 100 bytes and a port
/// under 65,536; Ping and Pong are the transport's; Bye or a second Hello ends the
/// session), and everything else goes to the engine's `SyncDelegate` methods
/// (`sessionOpened`, `received`, `sessionClosed`), whose replies must serialize.
///
/// Input: byte 0 picks the peer (even: `member`, an editor; odd: `stranger`); then
/// records (2-byte big-endian length, bytes), each one fragment (flag byte, payload).
enum FuzzSyncSession {
    static let maxMessageBytes = 1 << 20
    static let maxMessages = 64

    static func run(_ input: [UInt8]) async {
        var reader = FuzzReader(input)
        let peer = (reader.byte() ?? 0) % 2 == 0 ? FuzzWorld.member.publicKey : FuzzWorld.stranger.publicKey
        let dir = FuzzWorld.scratchDirectory()
        defer { FuzzWorld.remove(dir) }
        let paths = DataPaths(dataDir: dir.path)
        let store: Store
        do {
            store = try FuzzWorld.freshStore(at: paths.database)
            let keyFile = try JSONEncoder().encode(KeyFile.unsealed(FuzzWorld.owner))
            try FuzzWorld.writeRetrying([UInt8](keyFile), to: paths.keyFile)
        } catch {
            fatalError("could not set up the engine's data dir: \(error)")
        }
        defer { try? store.close() }
        let engine = Engine(store: store, paths: paths, version: "fuzz", logger: FuzzWorld.quietLogger)
        // The engine's replicator answers the session (its outbound stream is not drained:
        // what it would push or relay is not sent anywhere, and runs stay deterministic).
        let replicator = await engine.startReplication()
        // Reading the key file may meet an EINTR from libFuzzer's timer: try again then.
        for _ in 0..<3 where await replicator.syncIdentity() == nil { await engine.autoLogin() }
        guard await replicator.syncIdentity()?.publicKey == FuzzWorld.owner.publicKey else {
            fatalError("the engine did not log in with the fixture's key file")
        }

        var assembler = SyncMessageAssembler(maxMessageBytes: maxMessageBytes)
        var opened = false
        var messages = 0
        session: while let fragment = reader.record(), messages < maxMessages {
            let bytes: [UInt8]
            do {
                guard let whole = try assembler.append(fragment) else { continue }
                bytes = whole
            } catch {
                break  // The transport closes the session.
            }
            messages += 1
            guard let message = try? Places_Sync_V1_SyncMessage(serializedBytes: bytes), let kind = message.kind else {
                break
            }
            guard opened else {
                guard case .hello(let hello) = kind, hello.protocolVersion == 1, hello.name.utf8.count <= 100,
                    hello.listenPort <= 65_535
                else { break }
                let opening = await replicator.sessionOpened(with: peer, hello: hello, address: "127.0.0.1")
                FuzzLog.note("session opened: \(opening.map { $0.kind?.name ?? "nil" })")
                check(opening)
                opened = true
                continue
            }
            switch kind {
            case .ping, .pong: continue
            case .bye, .hello: break session
            default:
                let replies = await replicator.received(message, from: peer)
                FuzzLog.note("received \(kind.name): \(replies.map { $0.kind?.name ?? "nil" })")
                check(replies)
            }
        }
        if opened { await replicator.sessionClosed(with: peer, reason: "fuzz input ended") }
        FuzzLog.note("ops held at the end: \((try? store.opCount()) ?? -1)")
    }

    /// The engine's replies are sent as they are: they must serialize.
    static func check(_ replies: [Places_Sync_V1_SyncMessage]) {
        for reply in replies {
            precondition(reply.kind != nil, "the engine replied with a message of no kind")
            guard (try? reply.serializedBytes() as [UInt8]) != nil else {
                preconditionFailure("the engine replied with a message that does not serialize")
            }
        }
    }
}

extension Places_Sync_V1_SyncMessage.OneOf_Kind {
    /// The message kind's name, for `FuzzLog`.
    var name: String {
        switch self {
        case .hello: "hello"
        case .offer(let offer): "offer(\(offer.vector.map(\.seq)), grants: \(offer.grants.count))"
        case .ops(let ops): "ops(\(ops.ops.count))"
        case .ping: "ping"
        case .pong: "pong"
        case .bye: "bye"
        case .join: "join"
        case .joinRefused(let refused): "joinRefused(\(refused.code))"
        case .blobWant(let want): "blobWant(\(want.offset))"
        case .blobChunk(let chunk): "blobChunk(\(chunk.offset), \(chunk.data.count) bytes)"
        case .blobMissing: "blobMissing"
        case .tripLike(let like): "tripLike(\(like.liked))"
        case .pairRequest: "pairRequest"
        case .pairWaiting: "pairWaiting"
        case .pairRefused(let refused): "pairRefused(\(refused.code))"
        case .pairAccepted: "pairAccepted"
        case .relayRedeem(let redeem): "relayRedeem(\(redeem.link.count) bytes)"
        case .relayRedeemed(let redeemed): "relayRedeemed(\(redeemed.role))"
        case .relayRefused(let refused): "relayRefused(\(refused.code))"
        case .relayUsage(let usage): "relayUsage(\(usage.documents), \(usage.bytes))"
        case .relayBlobs(let blobs): "relayBlobs(\(blobs.names.count))"
        case .summary(let summary): "summary(\(summary.buckets.count) buckets)"
        case .opsHave(let have): "opsHave(\(have.ids.count))"
        case .opsWant(let want): "opsWant(\(want.ids.count))"
        }
    }
}
