import Foundation
import GRDB
import PlacesCrypto
import PlacesModel

/// A trip's conversation (issue 32, `docs/messages.md`): `message` entities in the itinerary
/// document itself, written by its members — viewers too — and only by their authors
/// (`Protocol/sync.md` §8.1, "Trip messages"). The rule that makes a message its author's
/// alone, and the reads of a conversation of up to 100,000 messages by index.
extension Store {
    /// The id of a trip message by `author` (a person key, 32 bytes) made of `nonce` (16
    /// bytes): the first 24 bytes of BLAKE2b-256(`"places/trip-message/1"` ‖ 0x00 ‖ author ‖
    /// nonce), in lowercase hex (48 characters: no other kind's id has that length, so no
    /// change declaring another kind can name it). Nil for a key or nonce of another length.
    public static func tripMessageID(author: [UInt8], nonce: [UInt8]) -> EntityID? {
        guard author.count == 32, nonce.count == 16 else { return nil }
        let digest = Blake2b.hash256(Array("places/trip-message/1".utf8) + [0] + author + nonce)
        return HexCoding.encode(Array(digest.prefix(EntitySchema.tripMessageIDLength / 2)))
    }

    /// Why an op of an itinerary document by `person` (the acting person, lowercase hex) is
    /// refused for its `message` changes, nil when it passes: every message it writes is
    /// the person's own — the op sets `author` = the person and `nonce` on it, and the
    /// message's id is `tripMessageID(author:nonce:)` of the two. The owner is held to it
    /// too: no one writes another member's message.
    public static func tripMessageRefusal(_ body: OpBody, person: String) -> String? {
        var authors = [EntityID: JSONValue](), nonces = [EntityID: JSONValue]()
        var messages = [EntityID]()
        for change in body.changes where change.kind == .message {
            if !messages.contains(change.entity) { messages.append(change.entity) }
            guard case .set(let entity, _, let field, let value, _) = change else { continue }
            if field == MessageFields.author.name { authors[entity] = value }
            if field == MessageFields.nonce.name { nonces[entity] = value }
        }
        for id in messages {
            guard authors[id] == .string(person) else {
                return "a trip message is written only by its author: each op on it sets 'author' to its signer"
            }
            guard let nonce = nonces[id]?.stringValue.flatMap(HexCoding.decode),
                let key = HexCoding.decode(person), tripMessageID(author: key, nonce: nonce) == id
            else {
                return "a trip message's id must be made of its author and its 'nonce' (sync.md §8.1)"
            }
        }
        return nil
    }

    /// The messages of the trip `doc`, newest first, before `cursor` (time and id) when
    /// given, without those hidden here (`message_shown`) nor those of people this person
    /// blocked (`blocked.` settings): `messagePage` of the document, read as a trip's.
    public func tripMessages(in doc: DocumentID, before cursor: (ms: Int64, id: String)?, limit: Int)
        throws(StoreError) -> [EntityRecord]
    {
        try messagePage(in: [doc], before: cursor, limit: limit, hidingBlockedAuthors: true).map(\.message)
    }

    /// How many live messages of the trip `doc` others than `me` (hex) sent after `afterMs`,
    /// counting at most `limit`: the unread count. Hidden ones and blocked people's are not
    /// counted (as `tripMessages`).
    public func tripUnreadCount(
        in doc: DocumentID, me: String, afterMs: Int64, hiddenPrefixes: [String], limit: Int
    ) throws(StoreError) -> Int {
        try read { db in
            var sql = """
                SELECT count(*) FROM (SELECT 1 FROM entity e INDEXED BY entity_message
                WHERE e.kind = 'message' AND e.doc = ? AND e.created_ms > ? AND e.deleted = 0
                    AND coalesce(json_extract(e.data, '$.author'), '') != ?
                    AND NOT EXISTS (SELECT 1 FROM preference b WHERE b.key = 'blocked.' || json_extract(e.data, '$.author'))
                """
            var arguments: [any DatabaseValueConvertible] = [Data(doc.bytes), afterMs, me]
            for prefix in hiddenPrefixes {
                sql += " AND NOT EXISTS (SELECT 1 FROM preference p WHERE p.key = ? || e.id)"
                arguments.append(prefix)
            }
            sql += " LIMIT ?)"
            arguments.append(limit)
            return try Int.fetchOne(db, sql: sql, arguments: StatementArguments(arguments)) ?? 0
        }
    }

    /// How many messages of `author` (hex) the trip `doc` holds dated in `from...to` (by
    /// their signed time), counting at most `limit`: the flood bound's count.
    public func tripMessageCount(in doc: DocumentID, author: String, from: Int64, to: Int64, limit: Int)
        throws(StoreError) -> Int
    {
        try read { db in
            try Int.fetchOne(
                db,
                sql: """
                    SELECT count(*) FROM (SELECT 1 FROM entity INDEXED BY entity_message
                    WHERE kind = 'message' AND doc = ? AND created_ms >= ? AND created_ms <= ?
                        AND json_extract(data, '$.author') = ? LIMIT ?)
                    """, arguments: [Data(doc.bytes), from, to, author, limit]) ?? 0
        }
    }
    /// The newest `limit` live messages of the trip `doc` that name photos, newest first, of
    /// `author` (hex) alone when given: the photos a member's daemon wants from that author
    /// (`Protocol/sync.md` §7.4). By the message index, so another member's many messages
    /// cannot push the author's out of the walk.
    /// The documents holding a live message with photos, by `author` (hex) when given: one
    /// statement, so that a session's opening asks only those trips for their photos instead
    /// of reading every shared trip's messages.
    public func documentsWithPhotoMessages(author: String?) throws(StoreError) -> Set<DocumentID> {
        try read { db in
            var sql =
                "SELECT DISTINCT doc FROM entity INDEXED BY entity_message WHERE kind = 'message' AND deleted = 0"
                + " AND json_extract(data, '$.photos') IS NOT NULL"
            if author != nil { sql += " AND json_extract(data, '$.author') = ?" }
            let rows = try Data.fetchAll(db, sql: sql, arguments: StatementArguments(author.map { [$0] } ?? []))
            return Set(rows.compactMap { DocumentID(bytes: [UInt8]($0)) })
        }
    }

    public func tripPhotoMessages(in doc: DocumentID, author: String?, limit: Int) throws(StoreError)
        -> [EntityRecord]
    {
        guard limit > 0 else { return [] }
        return try read { db in
            var clause =
                "INDEXED BY entity_message WHERE e.kind = 'message' AND e.doc = ? AND e.deleted = 0"
                + " AND json_extract(e.data, '$.photos') IS NOT NULL"
            if author != nil { clause += " AND json_extract(e.data, '$.author') = ?" }
            clause += " ORDER BY e.created_ms DESC, e.id DESC LIMIT ?"
            return try Store.fetchEntities(db, clause) {
                $0.bind(doc.bytes)
                if let author { $0.bind(author) }
                $0.bind(limit)
            }
        }
    }
}
