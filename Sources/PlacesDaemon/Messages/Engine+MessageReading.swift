import Foundation
import PlacesAPI
import PlacesCrypto
import PlacesModel
import PlacesStore

/// Reading conversations: the list with unread counts, a page of messages with their marks,
/// and the read marks this person gives. Every read walks the message and receipt indexes
/// from their newest end (`Store+Messages`): a conversation of 10,000 messages costs what a
/// page of it costs.
extension Engine {
    /// Unread messages counted per conversation, at most: a conversation shows "1000" for more.
    static let maxUnreadCounted = 1_000

    /// `GET /v1/conversations`: conversations with current friends and trips' conversations
    /// (`Engine+TripMessageReading`) that hold a message, the most recent first.
    func conversations() throws -> JSONValue {
        guard let me else { throw ServiceError.loggedOut }
        var rows = [(ms: Int64, value: JSONValue)]()
        for friend in currentFriends().sorted(by: { $0.hex < $1.hex }) where !isBlocked(friend) {
            let conversation = Conversation(me: me, friend: friend)
            guard let last = try shownMessages(conversation, before: nil, limit: 1).first else { continue }
            rows.append(
                (
                    last.record.createdMs ?? 0,
                    .object([
                        "id": .string(conversation.id), "with": .array([personJSON(friend)]),
                        "unread": .int(Int64(try unreadCount(conversation))),
                        "muted": .bool(isMuted(conversation.id)),
                        "lastMessage": Self.messageJSON(last, sides(of: conversation)),
                    ])
                ))
        }
        rows += try tripConversationRows()
        rows.sort { $0.ms > $1.ms }
        return .object(["conversations": .array(rows.map(\.value))])
    }

    /// `GET /v1/conversations/{id}/messages?limit=&before=&peek=`: the last `limit` messages
    /// before the message `before`, oldest first, with `next` (the cursor of the page before)
    /// when there are more. Shown messages of the friend are marked read unless `peek=true`.
    /// One read of the store (`shownMessages`), and when the page holds messages of the
    /// friend not marked read yet, their marks written and the page read again to show them.
    func conversationMessages(_ id: String, query: [String: String]) throws -> JSONValue {
        let conversation = try self.conversation(id)
        let request = try messagePageRequest(query) { conversation.documents.contains($0.doc) }
        var shown = try shownMessages(conversation, before: request.cursor, limit: request.limit + 1)
        if !request.peek {
            let unread = shown.prefix(request.limit).filter {
                $0.record.doc == conversation.theirs && !$0.record.deleted
                    && $0.marks[ReceiptFields.readAt.name]?.stringValue == nil
            }
            if !unread.isEmpty {
                try writeReceipts(conversation, for: unread.map(\.record.id), read: true)
                shown = try shownMessages(conversation, before: request.cursor, limit: request.limit + 1)
            }
        }
        let sides = sides(of: conversation)
        return Self.messagePage(conversation.id, shown, limit: request.limit, record: \.record) {
            Self.messageJSON($0, sides)
        }
    }

    /// A page request's `limit` (1…200, 50 when absent), `before` (the id of a message of the
    /// conversation: one `isOfConversation` takes) as the cursor it stands for, and `peek`.
    func messagePageRequest(_ query: [String: String], isOfConversation: (MessageRef) -> Bool) throws
        -> (limit: Int, cursor: (ms: Int64, id: String)?, peek: Bool)
    {
        var limit = Self.defaultMessagePage
        if let text = query["limit"] {
            guard let n = Int(text), (1...Self.maxMessagePage).contains(n) else {
                throw ServiceError.invalid("limit", "'limit' must be a whole number from 1 to \(Self.maxMessagePage)")
            }
            limit = n
        }
        var cursor: (ms: Int64, id: String)?
        if let text = query["before"] {
            guard let ref = MessageRef(routeID: text), isOfConversation(ref),
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
        return (limit, cursor, peek)
    }

    /// A page of a conversation from `items` (messages newest first, up to `limit` + 1, each
    /// with its `record`): the first `limit` oldest first, each as `json` shows it, with
    /// `next` (the cursor of the page before) when there are more.
    static func messagePage<Item>(
        _ conversation: String, _ items: [Item], limit: Int, record: (Item) -> Store.EntityRecord,
        json: (Item) -> JSONValue
    ) -> JSONValue {
        let page = items.prefix(limit)
        var out: [String: JSONValue] = [
            "conversation": .string(conversation), "messages": .array(page.reversed().map(json)),
        ]
        if items.count > limit, let oldest = page.last.map(record) {
            out["next"] = .string(MessageRef(doc: oldest.doc, id: oldest.id).routeID)
        }
        return .object(out)
    }

    /// `POST /v1/conversations/{id}/read`: every unread message of the friend is marked read.
    func markConversationRead(_ id: String) throws -> JSONValue {
        let conversation = try self.conversation(id)
        var unread = [EntityID]()
        let marks = try storeCall { () throws(StoreError) in
            try store.shownMessageMarks(
                in: conversation.theirs, receipts: conversation.mine, limit: Self.maxUnreadCounted)
        }
        for mark in marks {
            if mark.read { break }
            if !mark.deleted { unread.append(mark.id) }
        }
        try writeReceipts(conversation, for: unread, read: true)
        return .object(["id": .string(conversation.id), "unread": .int(0), "marked": .int(Int64(unread.count))])
    }

    // MARK: Pieces

    /// A message as a direct conversation shows it: its record and its marks (the fields of
    /// its receipt in the other person's outbox; none when no receipt is held).
    struct ShownMessage {
        var record: Store.EntityRecord
        var marks: [String: JSONValue]
    }

    /// The conversation's newest `limit` messages before `cursor`, newest first, without those
    /// hidden here (deleted for me, dropped by a bound), each with its marks: both outboxes'
    /// messages and their receipts in one read (`Store.messagePage`). A receipt counts only
    /// when its id is the one fixed by the message (`MessageRef.receiptID`).
    func shownMessages(_ conversation: Conversation, before cursor: (ms: Int64, id: String)?, limit: Int) throws
        -> [ShownMessage]
    {
        let page = try storeCall { () throws(StoreError) in
            try store.messagePage(
                in: conversation.documents, before: cursor, limit: limit,
                receiptsIn: [conversation.mine: conversation.theirs, conversation.theirs: conversation.mine])
        }
        return page.map { paged in
            var marks = [String: JSONValue]()
            if !paged.receipts.isEmpty {
                let receiptID = MessageRef(doc: paged.message.doc, id: paged.message.id).receiptID
                if let receipt = paged.receipts.first(where: { $0.id == receiptID }) { marks = Views.fields(receipt) }
            }
            return ShownMessage(record: paged.message, marks: marks)
        }
    }

    /// Unread messages of the friend: walked from the newest until one is read.
    func unreadCount(_ conversation: Conversation) throws -> Int {
        // Most conversations have read their newest few: a short walk first, the long one
        // only when none of those is read.
        for limit in [20, Self.maxUnreadCounted] {
            let marks = try storeCall { () throws(StoreError) in
                try store.shownMessageMarks(in: conversation.theirs, receipts: conversation.mine, limit: limit)
            }
            var count = 0
            for mark in marks {
                if mark.read { return count }
                if !mark.deleted { count += 1 }
            }
            if marks.count < limit { return count }
            if limit == Self.maxUnreadCounted { return count }
        }
        return 0
    }

    /// Writes this person's delivered (and with `read`, read) marks of the friend's messages
    /// `ids` into their outbox to the friend, never moving a mark already given.
    func writeReceipts(_ conversation: Conversation, for ids: [EntityID], read: Bool) throws {
        guard !ids.isEmpty, !isBlocked(conversation.friend), let identity else { return }
        let outbox = try ensureOutbox(to: conversation.friend, identity: identity)
        let now = RFC3339.string(ms: RFC3339.nowMs())
        var changes = [[Change]]()
        for id in ids {
            let receiptID = MessageRef(doc: conversation.theirs, id: id).receiptID
            let held = try? store.entity(in: outbox.id, id: receiptID)
            let fields = held.map(Views.fields) ?? [:]
            var write = held == nil ? EntityWrite<ReceiptFields>.create(receiptID) : .update(receiptID)
            if held == nil { write.set(ReceiptFields.message, to: id) }
            if fields[ReceiptFields.deliveredAt.name]?.stringValue == nil {
                write.set(ReceiptFields.deliveredAt.name, to: .string(now), old: fields[ReceiptFields.deliveredAt.name])
            }
            if read, fields[ReceiptFields.readAt.name]?.stringValue == nil {
                write.set(ReceiptFields.readAt.name, to: .string(now), old: fields[ReceiptFields.readAt.name])
            }
            if !write.changes.isEmpty { changes.append(write.changes) }
        }
        var edits = [Store.Edit]()
        for start in stride(from: 0, to: changes.count, by: Self.receiptsPerOp) {
            let chunk = changes[start..<min(start + Self.receiptsPerOp, changes.count)]
            edits.append(Store.Edit(doc: outbox.id, changes: chunk.flatMap { $0 }, timeMs: RFC3339.nowMs()))
        }
        try commitMessageEdits(edits)
    }

    /// A person as a conversation names them.
    func personJSON(_ key: PublicKey) -> JSONValue {
        var name = displayName(of: key)
        // The name a friendship started with, when no session or contact gave one.
        if name == String(key.humanID.prefix(7)), let held = try? store.friend(key.bytes), !held.name.isEmpty {
            name = held.name
        }
        return .object([
            "id": .string(key.humanID), "name": name == String(key.humanID.prefix(7)) ? .null : .string(name),
        ])
    }

    /// A message as the control API shows it (`Message` in `Protocol/control-api.yaml`).
    /// What the messages of a direct conversation show alike, worked out once for a page (a
    /// person id is a base32 encoding with a checksum, and the clock is read once): who wrote
    /// a message, by the outbox it is in, and the latest time a mark may show.
    struct MessageSides {
        var mine: DocumentID
        var myID: String
        var friendID: String
        /// This clock plus the skew allowed, as RFC 3339 text: no later mark is shown.
        var latestMark: String
    }

    func sides(of conversation: Conversation) -> MessageSides {
        MessageSides(
            mine: conversation.mine, myID: me?.humanID ?? "", friendID: conversation.friend.humanID,
            latestMark: RFC3339.string(ms: RFC3339.nowMs() + Self.messageClockSkewMs))
    }

    static func messageJSON(_ shown: ShownMessage, _ sides: MessageSides) -> JSONValue {
        let record = shown.record
        let f = Views.fields(record)
        let mine = record.doc == sides.mine
        // Shown as sent at its op's time (what it sorts by) unless its `sentAt` (its author's
        // word, equal to the op's from an honest daemon) is within the clock skew of it.
        let opMs = record.createdMs ?? 0
        let opTime = RFC3339.string(ms: opMs)
        var sentAt = f[MessageFields.sentAt] ?? opTime
        if sentAt != opTime {
            let earliest = RFC3339.string(ms: max(0, opMs - Self.messageClockSkewMs))
            let latest = RFC3339.string(ms: opMs + Self.messageClockSkewMs)
            if Self.isBefore(sentAt, earliest) != false || Self.isBefore(latest, sentAt) != false { sentAt = opTime }
        }
        // A mark is the other person's word too: one dated ahead of this clock is not shown
        // (as a message dated ahead is not), one before the message was sent is shown at its time.
        func mark(_ name: String) -> JSONValue {
            guard let text = shown.marks[name]?.stringValue, Self.isBefore(sides.latestMark, text) == false else {
                return .null
            }
            return .string(Self.isBefore(text, sentAt) == true ? sentAt : text)
        }
        return Self.messageObject(
            record, fields: f, from: mine ? sides.myID : sides.friendID, mine: mine, sentAt: sentAt,
            deliveredAt: mark(ReceiptFields.deliveredAt.name), readAt: mark(ReceiptFields.readAt.name))
    }

    /// A message as the control API shows it (`Message`), direct or in a trip: its text and
    /// photos (none once deleted), with who wrote it, when, and the marks given. `fields` are
    /// the record's (`Views.fields`), read once by the caller.
    static func messageObject(
        _ record: Store.EntityRecord, fields: [String: JSONValue], from: String, mine: Bool, sentAt: String,
        deliveredAt: JSONValue = .null, readAt: JSONValue = .null
    ) -> JSONValue {
        .object([
            "id": .string(MessageRef(doc: record.doc, id: record.id).routeID), "from": .string(from),
            "mine": .bool(mine), "text": record.deleted ? .null : .string(fields[MessageFields.text] ?? ""),
            "photos": messagePhotosJSON(record, fields: fields), "sentAt": .string(sentAt),
            "deliveredAt": deliveredAt, "readAt": readAt, "deleted": .bool(record.deleted),
        ])
    }

    /// A message's photos as the control API shows them (`Message.photos`): none once deleted.
    static func messagePhotosJSON(_ record: Store.EntityRecord, fields: [String: JSONValue]) -> JSONValue {
        let photos = record.deleted ? [] : Self.photos(from: fields[MessageFields.photos.name])
        return .array(
            photos.map {
                .object([
                    "id": .string($0.id), "contentType": .string($0.contentType), "bytes": .int($0.bytes),
                    "width": .int(Int64($0.width)), "height": .int(Int64($0.height)),
                ])
            })
    }

    /// Whether RFC 3339 time `a` is before `b`; nil when either is not one. Times written as
    /// daemons write them (`2027-05-01T10:00:00.000Z`, `RFC3339.string`) are compared as
    /// text, which orders them as times: a page of messages parses nothing.
    static func isBefore(_ a: String, _ b: String) -> Bool? {
        if isCanonicalTime(a), isCanonicalTime(b) { return a < b }
        guard let x = RFC3339.parse(a), let y = RFC3339.parse(b) else { return nil }
        return x < y
    }

    /// Whether `text` is `YYYY-MM-DDTHH:MM:SS.sssZ`, digits where digits go.
    static func isCanonicalTime(_ text: String) -> Bool {
        var text = text
        return text.withUTF8 { bytes in
            guard bytes.count == canonicalTimePattern.count else { return false }
            for (c, expected) in zip(bytes, canonicalTimePattern) {
                if expected == UInt8(ascii: "d") {
                    guard (48...57).contains(c) else { return false }
                } else if c != expected {
                    return false
                }
            }
            return true
        }
    }

    /// `isCanonicalTime`'s pattern: `d` a digit, any other byte itself.
    private static let canonicalTimePattern = Array("dddd-dd-ddTdd:dd:dd.dddZ".utf8)
}
