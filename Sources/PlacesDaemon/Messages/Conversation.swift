import PlacesCrypto
import PlacesModel

/// A conversation as the control API names it (`docs/messages.md`). A direct conversation is
/// the pair of outboxes two friends already have (`Protocol/sync.md` §7.3): each writes
/// their messages into their outbox to the other, and their receipts of the other's messages
/// there too. Its id is the friend's person id.
///
/// A trip's conversation (`trip:` and the itinerary id) keeps its messages in the itinerary
/// document itself: `TripConversation`.
struct Conversation: Sendable, Hashable {
    /// The prefix of a trip conversation's id.
    static let tripPrefix = "trip:"

    /// The friend of a direct conversation.
    var friend: PublicKey
    /// This person's outbox to the friend: their messages, and their receipts of the friend's.
    var mine: DocumentID
    /// The friend's outbox to this person.
    var theirs: DocumentID

    init(me: PublicKey, friend: PublicKey) {
        self.friend = friend
        mine = Outboxes.documentID(author: me.bytes, reader: friend.bytes)
        theirs = Outboxes.documentID(author: friend.bytes, reader: me.bytes)
    }

    /// The id the control API shows and takes: the friend's person id.
    var id: String { friend.humanID }

    /// The documents its messages are in.
    var documents: [DocumentID] { [mine, theirs] }

    /// Where the receipts of the messages of `doc` are: the other person's outbox.
    func receiptDocument(for doc: DocumentID) -> DocumentID { doc == mine ? theirs : mine }
}

/// A message as the control API names it: its entity id (32 lowercase hex, random, unique only
/// within its author's outbox; 48 for a trip message, made of its author and nonce) followed
/// by the id of the document it is in (32), so it is never taken for another author's message
/// with the same entity id.
struct MessageRef: Hashable, Sendable {
    var doc: DocumentID
    var id: EntityID

    /// Characters of a direct message's route id.
    static let routeIDLength = 64
    /// Characters of a trip message's route id.
    static let tripRouteIDLength = EntitySchema.tripMessageIDLength + 32

    var routeID: String { id + doc.hex }

    init(doc: DocumentID, id: EntityID) {
        self.doc = doc
        self.id = id
    }

    /// Reads a route id: exactly 64 or 80 lowercase hex characters; nil otherwise.
    init?(routeID text: String) {
        let count = text.utf8.count
        guard count == Self.routeIDLength || count == Self.tripRouteIDLength, FieldRule.isLowerHex(text, count: count),
            let bytes = HexCoding.decode(String(text.suffix(32))), let doc = DocumentID(bytes: bytes)
        else { return nil }
        self.init(doc: doc, id: String(text.prefix(count - 32)))
    }

    /// The id of the receipt of this message in the reader's outbox: the first 16 bytes of
    /// BLAKE2b-256(`"places/receipt/1"` ‖ 0x00 ‖ the message's entity id), in hex. One per
    /// message, and never a message id of the reader's own (those are random).
    var receiptID: EntityID {
        let digest = Blake2b.hash256(Array("places/receipt/1".utf8) + [0] + Array(id.utf8))
        return HexCoding.encode(Array(digest.prefix(16)))
    }
}
