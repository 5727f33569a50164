import Foundation
import PlacesAPI
import PlacesCrypto
import PlacesModel
import Testing

@testable import PlacesSync
@testable import PlacesTestSupport

/// Friends and outboxes (issue 16) as a peer written from `Protocol/sync.md` §7.3 and
/// `op-format.md` §5 speaks them: a `Hello` with `outbox/1`, outbox documents whose id is
/// fixed by the (author, reader) pair, posts, and reactions signed as §7.3 says.
extension AdversarialPeer {
    /// A `Hello` as a daemon that takes part in cards and outboxes sends it.
    static func socialHello(name: String) -> Places_Sync_V1_Hello {
        var hello = hello(name: name)
        hello.features = ["card/1", "outbox/1"]
        return hello
    }

    /// Connects with a `Hello` that takes part in outboxes.
    func connectSocial(to address: String, name: String = "Mallory") throws -> PeerSession {
        try connect(to: address, hello: Self.socialHello(name: name))
    }
}

/// One author's outbox to one reader (`sync.md` §7.3): its id (by default the pair's), key and
/// the ops so far.
struct OutboxDraft: Sendable {
    let author: AdversarialPeer
    private(set) var mirror: DocumentMirror

    init(author: AdversarialPeer, reader: [UInt8], doc: DocumentID? = nil) throws {
        self.author = author
        let doc = try doc ?? OutboxDraft.id(author: author.key, reader: reader)
        mirror = DocumentMirror(doc: doc, owner: author.key)
        mirror.keys[0] = try SecretBox.randomKey()
    }

    /// The first 16 bytes of BLAKE2b-256("places/outbox/1" ‖ 0x00 ‖ author ‖ reader).
    static func id(author: [UInt8], reader: [UInt8]) throws -> DocumentID {
        try DocumentID(bytes: Array(Blake2b.hash256(Array("places/outbox/1".utf8) + [0] + author + reader).prefix(16)))
            .orThrow("no outbox id")
    }

    var doc: DocumentID { mirror.doc }
    var key: [UInt8] { mirror.keys[0] ?? [] }
    var ops: [SignedOp] { mirror.ops }

    /// The next op with `changes`, kept in the draft.
    @discardableResult
    mutating func append(_ changes: [String], signer: AdversarialPeer? = nil) throws -> SignedOp {
        let op = try (signer ?? author).nextOp(in: mirror, body: Wire.body(changes))
        mirror.add(op)
        return op
    }

    /// The next op with `changes`, not kept (a refused op must not advance the chain).
    func draft(_ changes: [String], signer: AdversarialPeer? = nil) throws -> SignedOp {
        try (signer ?? author).nextOp(in: mirror, body: Wire.body(changes))
    }

    /// The root `outbox` entity with `ended` false.
    var rootChanges: [String] {
        [Wire.create(doc.hex, kind: "outbox"), Wire.set(doc.hex, kind: "outbox", field: "ended", value: "false")]
    }

    /// The outbox's offer to `reader`, naming `owner` (default: the author) and `kind`, with the
    /// key granted to `grantee` (default: the reader) by `grantor` (default: the author).
    func offer(
        to reader: PublicKey, owner: [UInt8]? = nil, kind: String = "outbox", grantor: AdversarialPeer? = nil,
        grantee: PublicKey? = nil
    ) throws -> WireMessage {
        let grant = try (grantor ?? author).grant(key, doc: doc, to: grantee ?? reader)
        return Wire.offer(doc: doc, owner: owner ?? author.key, kind: kind, vector: mirror.vector, grants: [grant])
    }
}

/// A like or comment as `sync.md` §7.3 signs it.
struct SignedReaction {
    var id: String
    var post: String
    var by: String
    var type: String
    var text: String?
    var at: String
    var signature: String
    /// The post's author in hex; nil for a reaction in the form before `postAuthor`.
    var postAuthor: String?
    /// A device certificate (base64url) when a device of `by` signed (`sync.md` §7.3).
    var cert: String?

    /// RFC 3339 with milliseconds, as daemons write it.
    static func now() -> String {
        let f = DateFormatter()
        f.locale = Locale(identifier: "en_US_POSIX")
        f.timeZone = TimeZone(identifier: "UTC")
        f.dateFormat = "yyyy-MM-dd'T'HH:mm:ss.SSS'Z'"
        return f.string(from: Date())
    }

    /// A post's own 32-hex id: a route id (`Post.id`) is that id then the author's key.
    static func entityID(_ post: String) -> String { String(post.prefix(32)) }

    /// A like's fixed id, in hex: the first 16 bytes of BLAKE2b-256("places/like/2" ‖ 0x00 ‖
    /// post author's key ‖ post ‖ 0x00 ‖ reactor's key), or — `postAuthor` nil, the form before
    /// reactions named their post's author — of ("places/like/1" ‖ 0x00 ‖ post ‖ 0x00 ‖ reactor's key).
    static func likeID(post: String, by reactor: [UInt8], postAuthor: [UInt8]?) -> String {
        let post = entityID(post)
        let input =
            if let postAuthor {
                Array("places/like/2".utf8) + [0] + postAuthor + Array(post.utf8) + [0] + reactor
            } else {
                Array("places/like/1".utf8) + [0] + Array(post.utf8) + [0] + reactor
            }
        return HexCoding.encode(Array(Blake2b.hash256(input).prefix(16)))
    }

    /// The signed message: "places/reaction/1" ‖ 0x00 ‖ post author's key ‖ post ‖ 0x00 ‖ id ‖
    /// 0x00 ‖ type ‖ 0x00 ‖ text ‖ 0x00 ‖ at.
    static func message(postAuthor: [UInt8], post: String, id: String, type: String, text: String, at: String)
        -> [UInt8]
    {
        var out = Array("places/reaction/1".utf8) + [0] + postAuthor
        for part in [post, id, type, text] { out += Array(part.utf8) + [0] }
        return out + Array(at.utf8)
    }

    /// A reaction signed by `signer` on `post` (its id or route id) by `postAuthor`. `id`
    /// defaults to the fixed like id for a like and a random one for a comment; `named` false
    /// writes the form before `postAuthor` (no such field, the older like id).
    static func make(
        _ type: String, on post: String, by signer: AdversarialPeer, postAuthor: [UInt8], text: String? = nil,
        id: String? = nil, at: String = now(), named: Bool = true
    ) -> SignedReaction {
        let post = entityID(post)
        let id =
            id
            ?? (type == "like"
                ? likeID(post: post, by: signer.key, postAuthor: named ? postAuthor : nil)
                : HexCoding.encode(SecureRandom.bytes(16)))
        let sig = signer.identity.sign(
            message(postAuthor: postAuthor, post: post, id: id, type: type, text: text ?? "", at: at))
        return SignedReaction(
            id: id, post: post, by: HexCoding.encode(signer.key), type: type, text: text, at: at,
            signature: HexCoding.encode(sig.bytes), postAuthor: named ? HexCoding.encode(postAuthor) : nil)
    }

    /// The changes creating it.
    var changes: [String] {
        var out = [
            Wire.create(id, kind: "reaction"),
            Wire.set(id, kind: "reaction", field: "post", value: Wire.string(post)),
            Wire.set(id, kind: "reaction", field: "by", value: Wire.string(by)),
            Wire.set(id, kind: "reaction", field: "type", value: Wire.string(type)),
            Wire.set(id, kind: "reaction", field: "at", value: Wire.string(at)),
            Wire.set(id, kind: "reaction", field: "signature", value: Wire.string(signature)),
        ]
        if let text { out.append(Wire.set(id, kind: "reaction", field: "text", value: Wire.string(text))) }
        if let postAuthor {
            out.append(Wire.set(id, kind: "reaction", field: "postAuthor", value: Wire.string(postAuthor)))
        }
        if let cert { out.append(Wire.set(id, kind: "reaction", field: "cert", value: Wire.string(cert))) }
        return out
    }
}

extension Wire {
    /// The changes creating a post; values are JSON text.
    static func post(
        _ id: String = HexCoding.encode(SecureRandom.bytes(16)), text: String?, audience: String = "friends",
        photos: String? = nil, postedAt: String = SignedReaction.now()
    ) -> [String] {
        var out = [Wire.create(id, kind: "post")]
        if let text { out.append(Wire.set(id, kind: "post", field: "text", value: Wire.string(text))) }
        out.append(Wire.set(id, kind: "post", field: "audience", value: Wire.string(audience)))
        if let photos { out.append(Wire.set(id, kind: "post", field: "photos", value: photos)) }
        out.append(Wire.set(id, kind: "post", field: "postedAt", value: Wire.string(postedAt)))
        return out
    }

    /// A tombstone of an entity.
    static func tombstone(_ id: String, kind: String) -> String { set(id, kind: kind, field: "deleted", value: "true") }
}

/// An adversary that is the victim's friend: its session and its outbox to the victim.
final class SocialFriend: @unchecked Sendable {
    let peer: AdversarialPeer
    let name: String
    var session: PeerSession
    var outbox: OutboxDraft

    init(peer: AdversarialPeer, name: String, session: PeerSession, outbox: OutboxDraft) {
        self.peer = peer
        self.name = name
        self.session = session
        self.outbox = outbox
    }

    var humanID: String { peer.humanID }

    /// Appends `changes` to its outbox and pushes the op.
    @discardableResult
    func push(_ changes: [String]) throws -> SignedOp {
        let op = try outbox.append(changes)
        try session.send(ops: [op], doc: outbox.doc)
        return op
    }

    /// Pushes an op that is not kept in the chain (a refused op).
    func pushRefused(_ changes: [String]) throws {
        try session.send(ops: [try outbox.draft(changes)], doc: outbox.doc)
    }

    /// A new session (the old one closed).
    func reconnect(to victim: SyncNode) throws {
        session.close()
        session = try peer.connectSocial(to: victim.address, name: name)
    }
}

extension PeerSession {
    /// Fetches an outbox the daemon offers this peer: waits for its offer (kind "outbox"),
    /// opens the grant, answers with an empty-vector offer of kind "outbox" and collects ops
    /// until it holds what was offered.
    func fetchOutbox(_ doc: DocumentID, timeout: Double = 5) throws -> DocumentMirror {
        let deadline = Date().addingTimeInterval(timeout)
        guard
            let first = try wait(
                timeout: timeout,
                for: { if case .offer(let o)? = $0.kind { o.doc == Data(doc.bytes) } else { false } }),
            case .offer(let offer)? = first.kind
        else { throw HarnessError("the daemon did not offer the outbox \(doc.hex)") }
        var mirror = DocumentMirror(doc: doc, owner: [UInt8](offer.owner))
        take(grants: offer.grants, into: &mirror)
        try send(Wire.offer(doc: doc, owner: mirror.owner, kind: "outbox"))
        try catchUp(&mirror, to: offer.vector.map { ([UInt8]($0.author), $0.seq) }, deadline: deadline)
        return mirror
    }
}

/// A victim daemon and what a user sees of the social feature.
struct SocialVictim {
    let node: SyncNode
    let key: PublicKey

    init(_ name: String = "Vera") throws {
        node = try SyncNode(name)
        key = try HumanID.decode(node.id)
    }

    var d: DaemonProcess { node.d }

    /// Makes `peer` a friend the way a user does: the victim asks (`POST /v1/friends`), the
    /// peer answers by offering its outbox to the victim.
    func befriend(_ peer: AdversarialPeer, name: String) async throws -> SocialFriend {
        let r = try d.send("POST", "/v1/friends", json: #"{"id":"\#(peer.humanID)"}"#)
        guard r.status == 201 || r.status == 200 else { throw HarnessError("friends add: \(r.status) \(r.text)") }
        let session = try peer.connectSocial(to: node.address, name: name)
        var outbox = try OutboxDraft(author: peer, reader: key.bytes)
        try outbox.append(outbox.rootChanges)
        let friend = SocialFriend(peer: peer, name: name, session: session, outbox: outbox)
        let opsBefore = node.opCount
        try deliver(friend.outbox, from: session)
        // The friendship starts with the offer; its root op is stored just after: waited for
        // too, so that a test counting ops from here counts only its own.
        try await eventually("\(name) is the victim's friend", timeout: .seconds(10)) {
            try friendState(peer.humanID) == "friend" && node.opCount >= opsBefore + outbox.ops.count
        }
        return friend
    }

    /// Sends an outbox's offer, waits briefly for the answer, then its ops.
    func deliver(
        _ outbox: OutboxDraft, from session: PeerSession, offer: WireMessage? = nil, seconds: Double = 0,
        answer: Double = 1
    ) throws {
        try session.send(try offer ?? outbox.offer(to: key))
        _ = try session.wait(
            timeout: answer,
            for: { if case .offer(let o)? = $0.kind { o.doc == Data(outbox.doc.bytes) && o.reply } else { false } })
        if !outbox.ops.isEmpty { try session.send(ops: outbox.ops, doc: outbox.doc) }
        if seconds > 0 { _ = try session.drain(for: seconds) }
    }

    func friendState(_ humanID: String) throws -> String? {
        try d.call(FriendList.self, "GET", "/v1/friends").friends.first { $0.id == humanID }?.state
    }

    func post(_ text: String, audience: String = "friends") throws -> Post {
        try d.call(
            Post.self, "POST", "/v1/posts", json: #"{"text":\#(Wire.string(text)),"audience":"\#(audience)"}"#)
    }

    func postView(_ id: String) throws -> Post { try d.call(Post.self, "GET", "/v1/posts/\(id)") }

    func feed() throws -> [Post] { try d.call(Feed.self, "GET", "/v1/feed?limit=100").posts }

    func comments(_ id: String) throws -> [PostComment] {
        try d.call(CommentList.self, "GET", "/v1/posts/\(id)/comments").comments
    }

    func notifications() throws -> [PlacesAPI.Notification] {
        try d.call(NotificationList.self, "GET", "/v1/notifications").notifications
    }

    func friendInvitations() -> [[String: Any]] {
        (node.invitations() ?? []).filter { $0["kind"] as? String == "friend" }
    }

    func group(_ name: String, members: [String]) throws -> FriendGroup {
        let list = members.map { "\"\($0)\"" }.joined(separator: ",")
        return try d.call(FriendGroup.self, "POST", "/v1/groups", json: #"{"name":"\#(name)","members":[\#(list)]}"#)
    }

    /// Whether the log says so (the daemon logs at debug level in tests).
    func logged(_ text: String) -> Bool { d.log.contains(text) }
}
