import Foundation
import PlacesAPI
import PlacesCrypto
import PlacesModel
import PlacesStore

/// Direct messages between friends (issue 32, `docs/messages.md`): a message is a `message`
/// entity in its author's outbox to the friend, delivered the way the outbox is (directly or
/// through a relay, end-to-end encrypted under its key); the reader's marks are `receipt`
/// entities in the reader's outbox to the author. The person's other devices hold both
/// outboxes (`Protocol/devices.md` §4), so they show the same conversation.
extension Engine {
    static let maxMessageCharacters = 4_000
    static let defaultMessagePage = 50
    static let maxMessagePage = 200
    /// Receipts written per op when many messages are marked at once.
    static let receiptsPerOp = 100

    // MARK: Naming

    /// The conversation a request names (`to`, or the route's `{id}`): a friend's person id.
    func conversation(_ text: String, field: String = "id") throws -> Conversation {
        guard let me else { throw ServiceError.loggedOut }
        guard let key = try? HumanID.decode(text) else {
            throw ServiceError.invalid(field, "'\(text.prefix(80))' is not a person id (a friend's public id)")
        }
        guard key != me, friendState(key) == .friend else {
            throw ServiceError.invalid(
                field, "\(displayName(of: key)) (\(key.humanID.prefix(7))) is not your friend: messages go to friends")
        }
        return Conversation(me: me, friend: key)
    }

    /// The message a route names (`MessageId` in `Protocol/control-api.yaml`), in a
    /// conversation with a current friend.
    func messageRecord(_ routeID: String) throws -> (MessageRef, Store.EntityRecord, Conversation) {
        guard let me else { throw ServiceError.loggedOut }
        guard let ref = MessageRef(routeID: routeID) else {
            throw ServiceError.invalid(
                "id", "a message id is 64 (80 in a trip) lowercase hex characters, as a message's 'id' gives it")
        }
        for friend in currentFriends() {
            let conversation = Conversation(me: me, friend: friend)
            guard conversation.documents.contains(ref.doc) else { continue }
            guard let record = try? store.entity(in: ref.doc, id: ref.id), record.kind == .message,
                !isHidden(ref)
            else { break }
            return (ref, record, conversation)
        }
        throw ServiceError.notFound("no message '\(routeID.prefix(80))' that you can see")
    }

    // MARK: Sending

    /// `POST /v1/messages` → `{"id", "conversation", "sentAt"}`.
    func sendMessage(_ body: [String: JSONValue]) throws -> JSONValue {
        guard let identity, let me else { throw ServiceError.loggedOut }
        let allowed: Set<String> = ["to", "text", "photo", "photos"]
        if let unknown = body.keys.sorted().first(where: { !allowed.contains($0) }) {
            throw ServiceError.invalid(unknown, "unknown field '\(unknown)': the fields are to, text, photo, photos")
        }
        guard let to = body["to"]?.stringValue else {
            throw ServiceError.invalid("to", "'to' (a friend's person id, or 'trip:' and an itinerary id) is required")
        }
        if to.hasPrefix(Conversation.tripPrefix) { return try sendTripMessage(to, body) }
        let conversation = try self.conversation(to, field: "to")
        guard !isBlocked(conversation.friend) else {
            throw ServiceError.conflict(
                "blocked", "you blocked \(displayName(of: conversation.friend)): unblock them to write to them")
        }
        let text = try messageText(body)
        let photos = try messagePhotos(body)
        guard !text.isEmpty || !photos.isEmpty else {
            throw ServiceError.invalid("text", "a message needs text, a photo, or both")
        }

        // After every message the conversation shows here, so a reply sorts after what it
        // answers on both sides even when the clocks differ a little.
        let now = RFC3339.nowMs()
        var sentMs = now
        if let newest = try newestMessageMs(conversation), newest < now + Self.messageClockSkewMs, newest >= now {
            sentMs = newest + 1
        }
        let id = HexCoding.encode(SecureRandom.bytes(16))
        let sentAt = RFC3339.string(ms: sentMs)
        var write = EntityWrite<MessageFields>.create(id)
        if !text.isEmpty { write.set(MessageFields.text, to: text) }
        if !photos.isEmpty { write.set(MessageFields.photos.name, to: Self.photosJSON(photos)) }
        write.set(MessageFields.sentAt, to: sentAt)
        let outbox = try ensureOutbox(to: conversation.friend, identity: identity)
        try commitMessageEdits([Store.Edit(doc: outbox.id, changes: write.changes, timeMs: sentMs)])
        logger.info("sent a message", metadata: ["peer.id": "\(conversation.friend.humanID.prefix(7))"])
        events.publish(
            Event(
                type: "message", time: sentAt, doc: outbox.id.hex, docKind: "outbox", author: me.humanID,
                summary: "you wrote to \(displayName(of: conversation.friend))"))
        return .object([
            "id": .string(MessageRef(doc: outbox.id, id: id).routeID), "conversation": .string(conversation.id),
            "sentAt": .string(sentAt),
        ])
    }

    /// A request's `text`, trimmed: a string of at most 4,000 characters, "" when absent.
    func messageText(_ body: [String: JSONValue]) throws -> String {
        var text = ""
        if let value = body["text"], !value.isNull {
            guard let s = value.stringValue else { throw ServiceError.invalid("text", "'text' must be a string") }
            text = s.trimmingCharacters(in: .whitespacesAndNewlines)
        }
        guard text.utf8.count <= 64 * Self.maxMessageCharacters, text.count <= Self.maxMessageCharacters else {
            throw ServiceError.invalid("text", "a message's text is at most \(Self.maxMessageCharacters) characters")
        }
        return text
    }

    /// A request's `photo` (one photo id) or `photos` (a list), each added here with `POST
    /// /v1/photos` (so stripped as a post's): their descriptors, none when both are absent.
    func messagePhotos(_ body: [String: JSONValue]) throws -> [Store.PhotoRecord] {
        let one = body["photo"].flatMap { $0.isNull ? nil : $0 }
        let many = body["photos"].flatMap { $0.isNull ? nil : $0 }
        guard one == nil || many == nil else {
            throw ServiceError.invalid("photo", "give 'photo' (one photo id) or 'photos' (a list), not both")
        }
        if let one, one.stringValue == nil {
            throw ServiceError.invalid("photo", "'photo' must be a photo id (POST /v1/photos)")
        }
        do {
            return try postPhotos(one.map { .array([$0]) } ?? many)
        } catch var error as ServiceError where one != nil && error.field == "photos" {
            // The field the request used.
            error.field = "photo"
            error.message = error.message.replacingOccurrences(of: "'photos'", with: "'photo'")
            throw error
        }
    }

    /// How far ahead of this daemon's clock a message's time may be and still be believed.
    static let messageClockSkewMs: Int64 = 5 * 60_000

    /// The time of the conversation's newest message, nil when it has none.
    func newestMessageMs(_ conversation: Conversation) throws -> Int64? {
        var newest: Int64?
        for doc in conversation.documents {
            let last = try storeCall { () throws(StoreError) in try store.messages(in: doc, before: nil, limit: 1) }
            if let ms = last.first?.createdMs { newest = max(newest ?? ms, ms) }
        }
        return newest
    }

    /// Appends `edits` in one transaction, signed as this device, and pushes each op to the
    /// document's participants at once.
    func commitMessageEdits(_ edits: [Store.Edit]) throws {
        guard let identity, !edits.isEmpty else { return }
        let ops: [SignedOp]
        do {
            ops = try store.append(edits, identity: identity, keyring: account.keyring, device: account.certificate)
        } catch {
            logger.error("append failed", metadata: ["error": "\(error)"])
            throw ServiceError.store("Could not save", error.message, cause: error)
        }
        didStore(.ops(ops, membership: []))
        relayPhotosNamed(by: edits)
        for op in ops { pushLocal([op], doc: op.header.doc) }
    }

    // MARK: Deleting

    /// `DELETE /v1/messages/{id}`: hidden here and on this person's other devices; with
    /// `for=everyone`, by its author only, cleared and tombstoned for every reader.
    func deleteMessage(_ routeID: String, query: [String: String]) throws {
        guard let me else { throw ServiceError.loggedOut }
        let forEveryone: Bool
        switch query["for"] {
        case nil, "me": forEveryone = false
        case "everyone": forEveryone = true
        case let other?:
            throw ServiceError.invalid("for", "'for' is 'me' or 'everyone', not '\(other.prefix(40))'")
        }
        if let ref = MessageRef(routeID: routeID), (try? store.document(ref.doc))?.kind == .itinerary {
            return try deleteTripMessage(ref, forEveryone: forEveryone)
        }
        let (ref, record, conversation) = try messageRecord(routeID)
        guard forEveryone else {
            try storeCall { () throws(StoreError) in try store.setPreference(Self.hiddenKey(ref), "1") }
            return
        }
        guard ref.doc == conversation.mine, (try? store.document(ref.doc))?.owner == me.bytes else {
            throw ServiceError(.forbidden, "only its author can delete a message for everyone: use for=me to hide it")
        }
        guard !record.deleted else { return }
        let fields = Views.fields(record)
        var changes = [Change]()
        for name in [MessageFields.text.name, MessageFields.photos.name] where (fields[name] ?? .null) != .null {
            changes.append(.set(entity: ref.id, kind: .message, field: name, value: .null, old: fields[name]))
        }
        changes.append(.tombstone(entity: ref.id, kind: .message))
        try commitMessageEdits([Store.Edit(doc: ref.doc, changes: changes, timeMs: RFC3339.nowMs())])
        collectPhotos()
    }

    /// The setting that hides a message on this person's devices (`for=me`).
    static func hiddenKey(_ ref: MessageRef) -> String { "message.hidden.\(ref.doc.hex).\(ref.id)" }

    /// The device-local setting that hides a message dropped by a flood bound.
    static func droppedKey(_ ref: MessageRef) -> String { "local.message.dropped.\(ref.doc.hex).\(ref.id)" }

    func isHidden(_ ref: MessageRef) -> Bool {
        (try? store.preference(Self.hiddenKey(ref))) != nil || (try? store.preference(Self.droppedKey(ref))) != nil
    }

    /// The ids of the messages of `doc` hidden here (deleted for me, or dropped by a bound).
    func hiddenMessages(in doc: DocumentID) throws -> Set<EntityID> {
        var out = Set<EntityID>()
        for prefix in ["message.hidden.\(doc.hex).", "local.message.dropped.\(doc.hex)."] {
            let keys = try storeCall { () throws(StoreError) in try store.preferences(withPrefix: prefix) }.keys
            for key in keys { out.insert(String(key.dropFirst(prefix.count))) }
        }
        return out
    }
}
