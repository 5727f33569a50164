import Foundation
import PlacesAPI
import PlacesCrypto
import PlacesModel
import Testing

@testable import PlacesAccess
@testable import PlacesSync
@testable import PlacesTestSupport

/// A relay serving 100 users and 1,000 documents, loaded by scripted users: each is a key of
/// its own that redeems a relay link over Noise, then brings its documents as a person's
/// daemon does (an offer carrying its signed access list, then its ops).
extension RelayBench {
    /// One scripted user of the relay: its key, its session, and the documents it owns.
    final class ScriptedUser {
        let peer: AdversarialPeer
        let session: PeerSession
        var documents: [DocumentMirror] = []

        init(relay: RelayNode, index: Int) throws {
            peer = try AdversarialPeer()
            let link = try RelayLink(parsing: try relay.invite())
            // At most 16 connections per address (sync.md §5): ten users per loopback address.
            session = try peer.connect(
                to: relay.address, hello: AdversarialPeer.hello(name: ""), sourceAddress: "127.0.1.\(index / 10 + 1)")
            var redeem = WireMessage()
            redeem.relayRedeem.link = Data(link.token)
            try session.send(redeem)
            guard
                try session.wait(timeout: 10, for: { if case .relayRedeemed = $0.kind { true } else { false } }) != nil
            else { throw HarnessError("the relay did not take user \(index)'s link") }
        }

        /// A new document owned by this user whose access list also names `member`, with
        /// `ops` ops of about `bodyBytes` bytes each, offered and pushed to the relay.
        func bring(member: PublicKey, ops: Int, bodyBytes: Int) throws {
            let doc = try #require(DocumentID(bytes: SecureRandom.bytes(16)))
            var mirror = DocumentMirror(doc: doc, owner: peer.key)
            mirror.keys[0] = SecureRandom.bytes(32)
            var signed = [SignedOp]()
            for i in 0..<ops {
                let change =
                    i == 0
                    ? Wire.create(doc.hex, kind: "itinerary")
                    : Wire.set(
                        doc.hex, kind: "itinerary", field: "notes",
                        value: Wire.string(String(repeating: "n", count: bodyBytes) + "\(i)"))
                let op = try peer.nextOp(in: mirror, body: Wire.body([change]))
                mirror.add(op)
                signed.append(op)
            }
            let access = try RelayAccess.issue(
                doc: doc, epoch: 0, issuedMs: Int64(Date().timeIntervalSince1970 * 1000),
                keys: [peer.identity.publicKey, member], by: peer.identity)
            var offer = Wire.offer(doc: doc, owner: peer.key)
            offer.offer.relayAccess = Data(access.encoded)
            try session.send(offer)
            try session.send(ops: signed, doc: doc)
            documents.append(mirror)
        }

        /// Reads (and answers pings) for `seconds`: what the relay sent is dropped.
        func drain(for seconds: Double = 0) { _ = try? session.drain(for: seconds) }
    }

    @Test("a relay serving 100 users and 1,000 documents: idle RSS, live forwarding")
    func loadedRelay() async throws {
        let users = 100, documentsPerUser = 10, opsPerDocument = 30
        let relay = try RelayNode(extraArguments: Self.quiet)
        try await Task.sleep(for: .seconds(3))
        let emptyKB = relay.d.residentKilobytes ?? 0
        let loadStarted = ContinuousClock.now
        var scripted = [ScriptedUser]()
        for index in 0..<users { scripted.append(try ScriptedUser(relay: relay, index: index)) }
        // Each document is its owner's and the next user's (a trip of two).
        for (index, user) in scripted.enumerated() {
            let member = scripted[(index + 1) % users].peer.identity.publicKey
            for _ in 0..<documentsPerUser { try user.bring(member: member, ops: opsPerDocument, bodyBytes: 200) }
            user.drain()
        }
        let total = users * documentsPerUser * opsPerDocument
        _ = try Self.timeUntil("the relay holds every op", timeout: .seconds(300)) {
            for user in scripted { user.drain() }
            return try Self.opCount(relay) >= total
        }
        let summary = try relay.summary
        #expect(summary.users == users && summary.documents == users * documentsPerUser, "\(summary)")
        print(
            String(
                format: "relay loaded: %d users, %d documents, %d ops (%d bytes) in %.1f s", summary.users,
                summary.documents, total, summary.bytes, Self.milliseconds(ContinuousClock.now - loadStarted) / 1_000))

        // Idle, every user still connected (answering the relay's pings).
        var idleKB = [Int]()
        for _ in 0..<4 {
            for _ in 0..<5 {
                for user in scripted { user.drain() }
                try await Task.sleep(for: .seconds(1))
            }
            idleKB.append(relay.d.residentKilobytes ?? 0)
        }
        print(
            "relay idle RSS (VmRSS), 100 users connected, 1,000 documents, every 5 s over 20 s (MB): "
                + idleKB.map { String(format: "%.1f", Double($0) / 1024) }.joined(separator: " ")
                + String(format: " (empty relay at start: %.1f MB; target ≤ 40 MB)", Double(emptyKB) / 1024))

        // Live forwarding: a user pushes one op of a document; the document's other member,
        // connected and offered it in this session, receives it from the relay.
        var samples = [Double]()
        for pair in 0..<5 {
            let owner = scripted[pair * 20], member = scripted[pair * 20 + 1]
            var mirror = owner.documents[0]
            try member.session.send(Wire.offer(doc: mirror.doc, owner: owner.peer.key, vector: mirror.vector))
            member.drain(for: 0.3)
            owner.drain()
            for i in 0..<200 {
                let op = try owner.peer.nextOp(
                    in: mirror,
                    body: Wire.body([
                        Wire.set(mirror.doc.hex, kind: "itinerary", field: "notes", value: Wire.string("live \(i)"))
                    ]))
                mirror.add(op)
                let started = ContinuousClock.now
                try owner.session.send(ops: [op], doc: mirror.doc)
                let forwarded = try member.session.wait(timeout: 5) { message in
                    guard case .ops(let batch)? = message.kind else { return false }
                    return batch.ops.contains(Data(op.encoded))
                }
                guard forwarded != nil else { throw HarnessError("push \(i) of pair \(pair) was not forwarded") }
                samples.append(Self.milliseconds(ContinuousClock.now - started))
                if i % 20 == 0 {
                    owner.drain()
                    for user in scripted { user.drain() }
                }
            }
        }
        print(
            "relay live op forwarded, one member's push until the other member received it: \(HostileBench.Percentiles(samples))"
        )
        print(String(format: "relay RSS after the live pushes: %.1f MB", Double(relay.d.residentKilobytes ?? 0) / 1024))
        // Where the idle memory goes: the users' sessions, then the process itself.
        for user in scripted { user.session.close() }
        try await Task.sleep(for: .seconds(10))
        let closedKB = relay.d.residentKilobytes ?? 0
        relay.d.stop()
        try relay.start()
        try await Task.sleep(for: .seconds(5))
        print(
            String(
                format:
                    "relay RSS 10 s after every user left: %.1f MB; restarted with the 1,000 documents, no user: %.1f MB",
                Double(closedKB) / 1024, Double(relay.d.residentKilobytes ?? 0) / 1024))
        // The users come back, each offering its documents as a daemon does on connecting.
        var back = [PeerSession]()
        for (index, user) in scripted.enumerated() {
            let session = try user.peer.connect(
                to: relay.address, hello: AdversarialPeer.hello(name: ""), sourceAddress: "127.0.1.\(index / 10 + 1)")
            for mirror in user.documents {
                try session.send(Wire.offer(doc: mirror.doc, owner: user.peer.key, vector: mirror.vector))
            }
            back.append(session)
        }
        for _ in 0..<4 {
            for session in back { _ = try? session.drain(for: 0) }
            try await Task.sleep(for: .seconds(5))
        }
        print(
            String(
                format: "relay RSS, restarted, 100 users back and offering their 1,000 documents, 20 s later: %.1f MB",
                Double(relay.d.residentKilobytes ?? 0) / 1024))
    }
}
