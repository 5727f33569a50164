import Foundation
import PlacesCrypto
import PlacesModel

@testable import PlacesSync

/// Contact cards (issue 15) as a peer written from `Protocol/` sends them: a `Hello` that
/// takes part in them (`features` = "card/1"), a `DocOffer` of kind "card" with the card's key
/// granted to its audience, and ops building a card (`PlacesModel/Schema/Schema+Discover.swift`:
/// a root `card` entity with name, username and bio, and `sharedPlace` entities).
extension AdversarialPeer {
    /// The features a hand-made peer takes part in: every one this build does but the opening
    /// summary (`Protocol/sync.md` §7), which it never sends; a daemon offers it every shared
    /// document as the session opens.
    static let features = Replicator.features.filter { $0 != OpeningSummary.feature }

    /// A `Hello` as a daemon that exchanges contact cards sends it.
    static func cardHello(name: String = "Mallory", features: [String] = ["card/1"]) -> Places_Sync_V1_Hello {
        var hello = hello(name: name)
        hello.features = features
        return hello
    }

    /// Connects with a `Hello` that takes part in contact cards.
    func connectForCards(to address: String, name: String = "Mallory") throws -> PeerSession {
        try connect(to: address, hello: Self.cardHello(name: name))
    }
}

extension Wire {
    /// A `DocOffer` of `kind` ("card", "itinerary", or anything else).
    static func offer(
        doc: DocumentID, owner: [UInt8], kind: String, vector: [([UInt8], UInt64)] = [],
        grants: [Places_Sync_V1_KeyGrant] = []
    ) -> WireMessage {
        var message = offer(doc: doc, owner: owner, vector: vector, grants: grants)
        if case .offer(var offer)? = message.kind {
            offer.kind = kind
            message.offer = offer
        }
        return message
    }

    /// The changes creating a card's root entity (its id is the document's).
    static func cardRoot(_ doc: DocumentID, name: String, username: String? = nil, bio: String? = nil) -> [String] {
        let id = doc.hex
        var changes = [
            create(id, kind: "card"), set(id, kind: "card", field: "name", value: string(name)),
        ]
        if let username { changes.append(set(id, kind: "card", field: "username", value: string(username))) }
        if let bio { changes.append(set(id, kind: "card", field: "bio", value: string(bio))) }
        return changes
    }

    /// The changes creating one shared favorite; each value is JSON text, so any lie fits.
    static func sharedPlace(
        _ id: String = HexCoding.encode(SecureRandom.bytes(16)), name: String, latitude: String = "38.7223",
        longitude: String = "-9.1393", gazetteerID: String? = nil, position: String = "n"
    ) -> [String] {
        var changes = [
            create(id, kind: "sharedPlace"),
            set(id, kind: "sharedPlace", field: "name", value: string(name)),
            set(id, kind: "sharedPlace", field: "latitude", value: latitude),
            set(id, kind: "sharedPlace", field: "longitude", value: longitude),
            set(id, kind: "sharedPlace", field: "position", value: string(position)),
        ]
        if let gazetteerID {
            changes.append(set(id, kind: "sharedPlace", field: "gazetteerId", value: gazetteerID))
        }
        return changes
    }
}

/// A contact card one peer writes: its document id (by default the author's card id,
/// `Protocol/sync.md` §7.2), key and the ops so far. Ops are signed by `author` unless
/// `signer` says otherwise.
struct CardDraft: Sendable {
    let author: AdversarialPeer
    private(set) var mirror: DocumentMirror

    init(author: AdversarialPeer, doc: DocumentID? = nil) throws {
        self.author = author
        let doc = try doc ?? CardDraft.cardID(of: author.key)
        mirror = DocumentMirror(doc: doc, owner: author.key)
        mirror.keys[0] = try SecretBox.randomKey()
    }

    /// A person's card id (`Protocol/sync.md` §7.2): the first 16 bytes of
    /// BLAKE2b-256("places/card/1" ‖ 0x00 ‖ key).
    static func cardID(of key: [UInt8]) throws -> DocumentID {
        try DocumentID(bytes: Array(Blake2b.hash256(Array("places/card/1".utf8) + [0] + key).prefix(16)))
            .orThrow("no document id")
    }

    var doc: DocumentID { mirror.doc }
    /// The card's document key (epoch 0).
    var key: [UInt8] { mirror.keys[0] ?? [] }
    var ops: [SignedOp] { mirror.ops }

    /// The next op of the card with `changes`, signed by `signer` (default: the author),
    /// added to the draft.
    @discardableResult
    mutating func append(_ changes: [String], signer: AdversarialPeer? = nil) throws -> SignedOp {
        let op = try (signer ?? author).nextOp(in: mirror, body: Wire.body(changes))
        mirror.add(op)
        return op
    }

    /// The card's offer to `audience`, naming `owner` (default: the author) and `kind`, with
    /// the key granted to each of `audience` by `grantor` (default: the author).
    func offer(
        to audience: [PublicKey], owner: [UInt8]? = nil, kind: String = "card", grantor: AdversarialPeer? = nil
    ) throws -> WireMessage {
        let grants = try audience.map { try (grantor ?? author).grant(key, doc: doc, to: $0) }
        return Wire.offer(doc: doc, owner: owner ?? author.key, kind: kind, vector: mirror.vector, grants: grants)
    }
}

extension PeerSession {
    /// Fetches the daemon's own contact card: waits for an offer of kind "card", opens the
    /// grants addressed to this peer, answers with an empty-vector offer and collects ops
    /// until it holds what was offered. Nil when no card was offered within `timeout`.
    func fetchCard(timeout: Double = 5) throws -> (card: DocumentMirror, offer: Places_Sync_V1_DocOffer)? {
        let deadline = Date().addingTimeInterval(timeout)
        guard
            let first = try wait(
                timeout: timeout, for: { if case .offer(let o)? = $0.kind { o.kind == "card" } else { false } }),
            case .offer(let offer)? = first.kind, let doc = DocumentID(bytes: [UInt8](offer.doc))
        else { return nil }
        var mirror = DocumentMirror(doc: doc, owner: [UInt8](offer.owner))
        take(grants: offer.grants, into: &mirror)
        try send(Wire.offer(doc: doc, owner: mirror.owner, kind: "card"))
        try catchUp(&mirror, to: offer.vector.map { ([UInt8]($0.author), $0.seq) }, deadline: deadline)
        return (mirror, offer)
    }

    /// Every offer and ops batch naming `doc` among `messages`.
    static func about(_ doc: DocumentID, in messages: [WireMessage]) -> [WireMessage] {
        messages.filter {
            switch $0.kind {
            case .offer(let o): o.doc == Data(doc.bytes)
            case .ops(let b): b.doc == Data(doc.bytes)
            default: false
            }
        }
    }
}

extension Optional {
    /// The value, or a harness error saying what was missing.
    func orThrow(_ what: String) throws -> Wrapped {
        guard let self else { throw HarnessError(what) }
        return self
    }
}
