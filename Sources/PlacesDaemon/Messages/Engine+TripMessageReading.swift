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
        let request = try messagePageRequest(query) { $0.doc == trip.doc.id }
        let records = try lastTripMessages(trip, before: request.cursor, limit: request.limit + 1)
        if !request.peek, let newest = records.first?.createdMs { try moveReadPosition(trip, to: newest) }
        var authors = [String: String]()
        return Self.messagePage(trip.id, records, limit: request.limit, record: { $0 }) {
            tripMessageJSON($0, authors: &authors)
        }
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
            try store.tripMessages(in: trip.doc.id, before: cursor, limit: limit)
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
        var authors = [String: String]()
        return tripMessageJSON(record, authors: &authors)
    }

    /// `tripMessageJSON`, with `authors` keeping each author's person id (by key, hex) across
    /// a page: a person id is a base32 encoding with a checksum, worked out once per author.
    func tripMessageJSON(_ record: Store.EntityRecord, authors: inout [String: String]) -> JSONValue {
        let f = Views.fields(record)
        let author = f[MessageFields.author] ?? ""
        let from: String
        if let known = authors[author] {
            from = known
        } else {
            from = Engine.publicKey(hex: author)?.humanID ?? ""
            authors[author] = from
        }
        return Self.messageObject(
            record, fields: f, from: from, mine: author == me?.hex,
            sentAt: f[MessageFields.sentAt] ?? RFC3339.string(ms: record.createdMs ?? 0))
    }
}
