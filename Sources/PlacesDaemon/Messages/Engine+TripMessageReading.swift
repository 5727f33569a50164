import Foundation
import PlacesAPI
import PlacesCrypto
import PlacesModel
import PlacesStore

/// Reading a trip's conversation: its row in the conversation list, a page of messages, and
/// this person's read position. Marks in a group are kept simple (`docs/messages.md`): each
/// person's read position is a setting of their own (it follows them to their devices, no
/// other member learns it), so a trip message shows no `deliveredAt` or `readAt`.
extension Engine {
    /// `GET /v1/conversations`' rows for trips this person is a member of that hold a
    /// message they can see, with the time of that newest message.
    func tripConversationRows() throws -> [(ms: Int64, value: JSONValue)] {
        guard let me else { throw ServiceError.loggedOut }
        var rows = [(ms: Int64, value: JSONValue)]()
        let docs = try storeCall { () throws(StoreError) in try store.documents(kind: .itinerary) }
        for doc in docs {
            let trip = TripConversation(doc: doc)
            // Most trips hold no message: one step of the message index rules them out first.
            guard let last = try lastTripMessages(trip, before: nil, limit: 1).first,
                doc.owner == me.bytes || Store.activeRoles.contains(role(in: doc)),
                (try? store.entity(in: doc.id, id: doc.id.hex))?.deleted == false
            else { continue }
            rows.append((last.createdMs ?? 0, try tripConversationJSON(trip, last: last)))
        }
        return rows
    }

    /// A trip conversation's row: `with` is every other current member, `trip` the
    /// itinerary's id and name.
    func tripConversationJSON(_ trip: TripConversation, last: Store.EntityRecord) throws -> JSONValue {
        let others = participants(of: trip.doc).subtracting(me.map { [$0] } ?? []).sorted { $0.hex < $1.hex }
        return .object([
            "id": .string(trip.id), "with": .array(others.map(personJSON)),
            "trip": .object(["id": .string(trip.doc.id.hex), "name": .string(tripName(trip))]),
            "unread": .int(Int64(try tripUnreadCount(trip))), "muted": .bool(isMuted(trip.id)),
            "lastMessage": tripMessageJSON(last),
        ])
    }

    /// `GET /v1/conversations/trip:ITIN/messages?limit=&before=&peek=`: as a direct
    /// conversation's; listing moves this person's read position to the newest shown.
    func tripConversationMessages(_ id: String, query: [String: String]) throws -> JSONValue {
        let trip = try tripConversation(id)
        var limit = Self.defaultMessagePage
        if let text = query["limit"] {
            guard let n = Int(text), (1...Self.maxMessagePage).contains(n) else {
                throw ServiceError.invalid("limit", "'limit' must be a whole number from 1 to \(Self.maxMessagePage)")
            }
            limit = n
        }
        var cursor: (ms: Int64, id: String)?
        if let text = query["before"] {
            guard let ref = MessageRef(routeID: text), ref.doc == trip.doc.id,
                let record = try? store.entity(in: ref.doc, id: ref.id), record.kind == .message
            else {
                throw ServiceError.invalid("before", "'before' must be the id of a message of this conversation")
            }
            cursor = (record.createdMs ?? 0, ref.id)
        }
        let peek: Bool
        switch query["peek"] {
        case nil, "false": peek = false
        case "true": peek = true
        case let other?: throw ServiceError.invalid("peek", "'peek' is true or false, not '\(other.prefix(20))'")
        }
        let records = try lastTripMessages(trip, before: cursor, limit: limit + 1)
        let page = Array(records.prefix(limit))
        if !peek, let newest = page.first?.createdMs { try moveReadPosition(trip, to: newest) }
        var out: [String: JSONValue] = [
            "conversation": .string(trip.id), "messages": .array(page.reversed().map(tripMessageJSON)),
        ]
        if records.count > limit, let oldest = page.last {
            out["next"] = .string(MessageRef(doc: oldest.doc, id: oldest.id).routeID)
        }
        return .object(out)
    }

    /// `POST /v1/conversations/trip:ITIN/read`: the read position moves to the newest message.
    func markTripConversationRead(_ id: String) throws -> JSONValue {
        let trip = try tripConversation(id)
        let unread = try tripUnreadCount(trip)
        if let newest = try lastTripMessages(trip, before: nil, limit: 1).first?.createdMs {
            try moveReadPosition(trip, to: newest)
        }
        return .object(["id": .string(trip.id), "unread": .int(0), "marked": .int(Int64(unread))])
    }

    // MARK: Pieces

    /// The trip's newest `limit` messages before `cursor`, newest first, without those hidden
    /// here and those of people this person blocked.
    func lastTripMessages(_ trip: TripConversation, before cursor: (ms: Int64, id: String)?, limit: Int) throws
        -> [Store.EntityRecord]
    {
        try storeCall { () throws(StoreError) in
            try store.tripMessages(in: trip.doc.id, before: cursor, limit: limit, hiddenPrefixes: trip.hiddenPrefixes)
        }
    }

    /// Others' live messages after this person's read position, at most 1,000.
    func tripUnreadCount(_ trip: TripConversation) throws -> Int {
        guard let me else { throw ServiceError.loggedOut }
        return try storeCall { () throws(StoreError) in
            try store.tripUnreadCount(
                in: trip.doc.id, me: me.hex, afterMs: try readPosition(trip), hiddenPrefixes: trip.hiddenPrefixes,
                limit: Self.maxUnreadCounted)
        }
    }

    /// The time of the newest message this person has seen in the trip's conversation (0: none).
    func readPosition(_ trip: TripConversation) throws(StoreError) -> Int64 {
        try store.preference(trip.readKey).flatMap { Int64($0) } ?? 0
    }

    /// Moves the read position forward to `ms` (never back).
    func moveReadPosition(_ trip: TripConversation, to ms: Int64) throws {
        try storeCall { () throws(StoreError) in
            guard ms > (try readPosition(trip)) else { return }
            try store.setPreference(trip.readKey, String(ms))
        }
    }

    /// A trip message as the control API shows it (`Message`): `from` is its author;
    /// `deliveredAt` and `readAt` are null (a trip has no per-member marks).
    func tripMessageJSON(_ record: Store.EntityRecord) -> JSONValue {
        let f = Views.fields(record)
        let author = f[MessageFields.author] ?? ""
        return .object([
            "id": .string(MessageRef(doc: record.doc, id: record.id).routeID),
            "from": .string(Engine.publicKey(hex: author)?.humanID ?? ""), "mine": .bool(author == me?.hex),
            "text": record.deleted ? .null : .string(f[MessageFields.text] ?? ""),
            "photos": Self.messagePhotosJSON(record),
            "sentAt": .string(f[MessageFields.sentAt] ?? RFC3339.string(ms: record.createdMs ?? 0)),
            "deliveredAt": .null, "readAt": .null, "deleted": .bool(record.deleted),
        ])
    }
}
