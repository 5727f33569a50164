import Foundation
import PlacesAPI
import PlacesCrypto
import PlacesModel
import PlacesStore

/// A trip's conversation (issue 32, `docs/messages.md`): sending into the itinerary
/// document, deleting, muting. Reading it is `Engine+TripMessageReading`; what arrives from
/// members is `Engine+TripMessageFollow`.
extension Engine {
    /// Messages one member may send in a minute (by the messages' signed time).
    static let maxTripMessagesPerMinute = 50
    /// Messages one trip holds, every member's together.
    static let maxTripMessages = 100_000

    // MARK: Naming

    /// The trip conversation `text` names (`trip:` and an itinerary id or its unique start),
    /// of a live itinerary this person is a member of (owner, editor or viewer).
    func tripConversation(_ text: String, field: String = "id") throws -> TripConversation {
        let reference = String(text.dropFirst(Conversation.tripPrefix.count))
        let doc: Store.DocumentRecord
        do {
            doc = try itineraryDoc(reference)
        } catch let error as ServiceError {
            throw ServiceError.invalid(
                field, "'\(text.prefix(80))' is not a trip you are a member of (\(error.message))")
        }
        guard doc.kind == .itinerary, ["owner", "editor", "viewer"].contains(role(in: doc)) else {
            throw ServiceError.invalid(field, "'\(text.prefix(80))' is not a trip you are a member of")
        }
        return TripConversation(doc: doc)
    }

    // MARK: Sending

    /// `POST /v1/messages` with `to` = `trip:ITIN`: a `message` entity in the itinerary,
    /// its id made of this person's key and a random nonce (`Store.tripMessageID`), so only
    /// they can write it (`Protocol/sync.md` §8.1). Viewers may send too.
    func sendTripMessage(_ to: String, _ body: [String: JSONValue]) throws -> JSONValue {
        guard let me else { throw ServiceError.loggedOut }
        let trip = try tripConversation(to, field: "to")
        let text = try messageText(body)
        // Photos as a direct message's; the members' daemons fetch them from this one
        // (`Protocol/sync.md` §7.4, "Giving").
        let photos = try messagePhotos(body)
        guard !text.isEmpty || !photos.isEmpty else {
            throw ServiceError.invalid("text", "a message needs text, a photo, or both")
        }
        let now = RFC3339.nowMs()
        let mine = try storeCall { () throws(StoreError) in
            try store.tripMessageCount(
                in: trip.doc.id, author: me.hex, from: now - 59_999, to: now + Self.messageClockSkewMs,
                limit: Self.maxTripMessagesPerMinute)
        }
        guard mine < Self.maxTripMessagesPerMinute else {
            throw ServiceError.conflict(
                "too-many-messages",
                "you sent \(Self.maxTripMessagesPerMinute) messages to this trip in the last minute: wait a little")
        }
        let held = try storeCall { () throws(StoreError) in try store.messageCount(in: trip.doc.id) }
        guard held < Self.maxTripMessages else {
            throw ServiceError.conflict(
                "conversation-full", "this trip's conversation holds \(Self.maxTripMessages) messages, the most it may")
        }
        // After every message the conversation shows here, as for a direct message.
        var sentMs = now
        let newest = try storeCall { () throws(StoreError) in
            try store.messages(in: trip.doc.id, before: nil, limit: 1)
        }.first?.createdMs
        if let newest, newest < now + Self.messageClockSkewMs, newest >= now { sentMs = newest + 1 }
        let nonce = SecureRandom.bytes(16)
        guard let id = Store.tripMessageID(author: me.bytes, nonce: nonce) else {
            throw ServiceError.store("Could not send", "no message id")
        }
        let sentAt = RFC3339.string(ms: sentMs)
        var write = EntityWrite<MessageFields>.create(id)
        if !text.isEmpty { write.set(MessageFields.text, to: text) }
        if !photos.isEmpty { write.set(MessageFields.photos.name, to: Self.photosJSON(photos)) }
        write.set(MessageFields.sentAt, to: sentAt)
        write.set(MessageFields.author, to: me.hex)
        write.set(MessageFields.nonce, to: HexCoding.encode(nonce))
        try commitMessageEdits([Store.Edit(doc: trip.doc.id, changes: write.changes, timeMs: sentMs)])
        logger.info("sent a message to a trip", metadata: ["doc.id": "\(trip.doc.id)"])
        events.publish(
            Event(
                type: "message", time: sentAt, doc: trip.doc.id.hex, docKind: "itinerary", author: me.humanID,
                summary: "you wrote to “\(tripName(trip))”"))
        return .object([
            "id": .string(MessageRef(doc: trip.doc.id, id: id).routeID), "conversation": .string(trip.id),
            "sentAt": .string(sentAt),
        ])
    }

    // MARK: Deleting

    /// `DELETE /v1/messages/{id}` of a trip message: hidden on this person's devices, or by
    /// its author for everyone (text cleared, tombstoned: "message deleted" for every member).
    func deleteTripMessage(_ ref: MessageRef, forEveryone: Bool) throws {
        guard let me else { throw ServiceError.loggedOut }
        let trip = try tripConversation(Conversation.tripPrefix + ref.doc.hex)
        guard let record = try? store.entity(in: ref.doc, id: ref.id), record.kind == .message, !isHidden(ref),
            !isBlockedAuthor(record)
        else {
            throw ServiceError.notFound("no message '\(ref.routeID.prefix(80))' that you can see")
        }
        guard forEveryone else {
            try storeCall { () throws(StoreError) in try store.setPreference(Self.hiddenKey(ref), "1") }
            return
        }
        let fields = Views.fields(record)
        guard fields[MessageFields.author] == me.hex, let nonce = fields[MessageFields.nonce] else {
            throw ServiceError(.forbidden, "only its author can delete a message for everyone: use for=me to hide it")
        }
        guard !record.deleted else { return }
        // Every op on a trip message restates its author and nonce (sync.md §8.1).
        var write = EntityWrite<MessageFields>.update(ref.id)
        write.set(MessageFields.author.name, to: .string(me.hex), old: .string(me.hex))
        write.set(MessageFields.nonce.name, to: .string(nonce), old: .string(nonce))
        var changes = write.changes
        for name in [MessageFields.text.name, MessageFields.photos.name] where (fields[name] ?? .null) != .null {
            changes.append(.set(entity: ref.id, kind: .message, field: name, value: .null, old: fields[name]))
        }
        changes.append(.tombstone(entity: ref.id, kind: .message))
        try commitMessageEdits([Store.Edit(doc: trip.doc.id, changes: changes, timeMs: RFC3339.nowMs())])
        collectPhotos()
    }

    // MARK: Pieces

    /// The itinerary's name, for summaries.
    func tripName(_ trip: TripConversation) -> String {
        entityName(in: trip.doc.id, trip.doc.id.hex) ?? "a trip"
    }

    /// The author a trip message names (nil when it names none: not a trip message).
    func tripMessageAuthor(_ record: Store.EntityRecord) -> PublicKey? {
        Views.fields(record)[MessageFields.author].flatMap(Engine.publicKey(hex:))
    }

    /// Whether the message's author is someone this person blocked.
    func isBlockedAuthor(_ record: Store.EntityRecord) -> Bool {
        tripMessageAuthor(record).map(isBlocked) ?? false
    }
}
