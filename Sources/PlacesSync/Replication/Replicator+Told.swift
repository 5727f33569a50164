import Foundation
import PlacesCrypto
import PlacesModel

/// Ops relayed by telling their ids (`Protocol/sync.md` §7, "Live propagation and
/// relaying"). Two daemons that receive the same op at once would each relay it to the
/// other, so in a full mesh about a quarter of the ops crossed a connection twice. Of each
/// pair, the daemon with the larger key tells the other the ids (`OpsHave`), and the other
/// asks only for what it lacks (`OpsWant`): no op crosses a connection twice, and a link
/// to the author that died without a word is still covered, one round trip later.
extension Replicator {
    /// The `Hello` feature of `OpsHave` and `OpsWant`.
    static let haveFeature = "have/1"
    /// Most op ids in one `OpsHave` or `OpsWant`.
    public static let maxToldIDs = 4_096
    /// Most op ids remembered per peer as held by it (from its `OpsHave`), the oldest
    /// forgotten first.
    static let maxHeldIDsPerPeer = 8_192

    /// Whether ops relayed to `recipient` are told by id rather than sent: it takes
    /// `have/1`, and its key sorts before this daemon's (`me`). The other side of the
    /// connection sends them instead, so the two never cross.
    func tellsRather(_ recipient: PublicKey, me: PublicKey) -> Bool {
        takesFeature(Self.haveFeature, recipient) && recipient.bytes.lexicographicallyPrecedes(me.bytes)
    }

    /// `OpsHave` messages naming `ids` of `doc`, at most `maxToldIDs` each.
    func told(_ ids: [[UInt8]], doc: DocumentID) -> [SyncMessage] {
        stride(from: 0, to: ids.count, by: Self.maxToldIDs).map { start in
            var have = Places_Sync_V1_OpsHave()
            have.doc = Data(doc.bytes)
            have.ids = ids[start..<min(ids.count, start + Self.maxToldIDs)].map { Data($0) }
            var message = SyncMessage()
            message.opsHave = have
            return message
        }
    }

    /// A peer holds the ops it named: ops relayed later are not sent to it, and those this
    /// daemon lacks are asked for.
    func handleOpsHave(_ have: Places_Sync_V1_OpsHave, from peer: PublicKey) async -> [SyncMessage] {
        guard let host, let (doc, ids) = toldIDs(doc: have.doc, ids: have.ids, kind: "OpsHave", from: peer),
            await host.document(doc) != nil
        else { return [] }
        // As for a batch of ops: a participant, a peer whose offer was accepted, or one being admitted.
        var allowed = (await host.participants(in: doc)).contains(peer) || offeredVectors[peer]?[doc] != nil
        if !allowed { allowed = await host.isAdmitting(peer, to: doc) }
        guard allowed else { return [] }
        var holds = peerHolds[peer] ?? RecentIDs(capacity: Self.maxHeldIDsPerPeer)
        for id in ids { holds.insert(id) }
        peerHolds[peer] = holds
        // A read error asks for everything named: ops held are skipped by id when they come.
        let held = await host.heldOps(ids, in: doc) ?? []
        let missing = ids.filter { !held.contains($0) }
        guard !missing.isEmpty else { return [] }
        logger.debug(
            "asking a peer for ops it told of",
            metadata: ["peer.id": "\(peer.humanID.prefix(7))", "doc.id": "\(doc)", "ops": "\(missing.count)"])
        var want = Places_Sync_V1_OpsWant()
        want.doc = Data(doc.bytes)
        want.ids = missing.map { Data($0) }
        var message = SyncMessage()
        message.opsWant = want
        return [message]
    }

    /// A peer asks for ops this daemon told it of: those held are sent, as a push is, to a
    /// participant that offered the document in this session.
    func handleOpsWant(_ want: Places_Sync_V1_OpsWant, from peer: PublicKey) async -> [SyncMessage] {
        guard let host, let (doc, ids) = toldIDs(doc: want.doc, ids: want.ids, kind: "OpsWant", from: peer),
            peerVectors[peer]?[doc] != nil
        else { return [] }
        var allowed = (await host.participants(in: doc)).contains(peer)
        if !allowed { allowed = await host.isAdmitting(peer, to: doc) }
        guard allowed, let found = await host.ops(withIDs: ids, in: doc, maxBytes: Replicator.maxRoundBytes),
            !found.ops.isEmpty
        else { return [] }
        var sent = VersionVector()
        for stamp in found.stamps { sent.include(stamp.author, stamp.seq) }
        if var window = sendWindows[peer]?[doc] {
            window.frontier.merge(sent)
            sendWindows[peer]?[doc] = window
        }
        noteSent(sent, to: peer, doc: doc)
        return batches(of: found.ops, doc: doc)
    }

    /// The document and ids of an `OpsHave` or `OpsWant` within bounds (a 16-byte document
    /// id; 1 to `maxToldIDs` ids of 32 bytes); nil, logged, for any other.
    private func toldIDs(doc: Data, ids: [Data], kind: String, from peer: PublicKey) -> (DocumentID, [[UInt8]])? {
        guard let id = DocumentID(bytes: [UInt8](doc)), !ids.isEmpty, ids.count <= Self.maxToldIDs,
            ids.allSatisfy({ $0.count == 32 })
        else {
            logger.warning(
                "ignored a message out of bounds",
                metadata: ["peer.id": "\(peer.logID)", "sync.kind": "\(kind)", "ids": "\(ids.count)"])
            return nil
        }
        return (id, ids.map { [UInt8]($0) })
    }
}

/// The op ids a peer said it holds, at most `capacity`, the oldest forgotten first.
struct RecentIDs: Sendable {
    private var order: [[UInt8]] = []
    private var next = 0
    private var members = Set<[UInt8]>()
    let capacity: Int

    init(capacity: Int) { self.capacity = capacity }

    func contains(_ id: [UInt8]) -> Bool { members.contains(id) }

    mutating func insert(_ id: [UInt8]) {
        guard members.insert(id).inserted else { return }
        if order.count < capacity {
            order.append(id)
        } else {
            members.remove(order[next])
            order[next] = id
            next = (next + 1) % capacity
        }
    }
}
