import Foundation
import PlacesCrypto
import Testing

@testable import PlacesModel
@testable import PlacesStore

/// `message_shown` (issue 32): the messages no setting hides, kept by the materializer and by
/// triggers on `preference` and on deletes, so a page is a range of it. Hiding, un-hiding, deleting for everyone and a rebuild each leave it equal to
/// "every message without a hiding setting".
@Suite("Store: shown messages")
struct MessageShownTests {
    func ids(_ records: [Store.EntityRecord]) -> [String] { records.map(\.id) }

    @Test("a page skips hidden and dropped messages on the table's key, and follows every change to them")
    func shown() throws {
        let f = try Fixture(kind: .outbox)
        let names = (0..<30).map { sid("m\($0)") }
        for (i, id) in names.enumerated() {
            try f.store.append(
                [
                    Store.Edit(
                        doc: f.doc,
                        changes: [
                            .create(entity: id, kind: .message),
                            .set(entity: id, kind: .message, field: "text", value: .string("hi \(i)"), old: nil),
                        ], timeMs: Int64(1_000 * (i + 1)))
                ], identity: f.identity, keyring: f.keyring)
        }
        // A flood bound dropped the newest 20; one more was deleted for me.
        for id in names[10...] { try f.store.setPreference("local.message.dropped.\(f.doc.hex).\(id)", "1") }
        try f.store.setPreference("message.hidden.\(f.doc.hex).\(names[5])", "1")
        let page = try f.store.shownMessages(in: f.doc, before: nil, limit: 5)
        #expect(ids(page) == [9, 8, 7, 6, 4].map { names[$0] })
        // Every message without a hiding setting, read the long way.
        let unhidden = try f.store.messages(in: f.doc, before: nil, limit: 100).filter { message in
            try ["message.hidden.", "local.message.dropped."].allSatisfy {
                try f.store.preference("\($0)\(f.doc.hex).\(message.id)") == nil
            }
        }
        #expect(ids(Array(unhidden.prefix(5))) == ids(page), "the walk past hidden ones gives the same page")
        let next = try f.store.shownMessages(in: f.doc, before: (4_000 + 1_000, names[4]), limit: 10)
        #expect(ids(next) == [3, 2, 1, 0].map { names[$0] }, "before the 5th message's time")
        #expect(try f.store.shownMessageMarks(in: f.doc, receipts: f.doc, limit: 100).count == 9)

        // Un-hidden: back in its place. Deleted for everyone: still listed ("message deleted").
        try f.store.setPreference("message.hidden.\(f.doc.hex).\(names[5])", nil)
        try f.store.append(
            [
                Store.Edit(
                    doc: f.doc,
                    changes: [.set(entity: names[7], kind: .message, field: "deleted", value: .bool(true), old: nil)],
                    timeMs: 99_000)
            ], identity: f.identity, keyring: f.keyring)
        let again = try f.store.shownMessages(in: f.doc, before: nil, limit: 5)
        #expect(ids(again) == [9, 8, 7, 6, 5].map { names[$0] })
        #expect(again.first { $0.id == names[7] }?.deleted == true)

        // A rebuild replays the log into empty tables: the same page.
        try f.store.rebuildMaterialized(keyring: f.keyring)
        #expect(ids(try f.store.shownMessages(in: f.doc, before: nil, limit: 5)) == ids(again))
        try f.store.setPreference("local.message.dropped.\(f.doc.hex).\(names[12])", nil)
        #expect(ids(try f.store.shownMessages(in: f.doc, before: nil, limit: 2)) == [names[12], names[9]])
        #expect(try f.store.shownMessages(in: f.doc, before: nil, limit: 100).count == 11)
    }

    @Test("a page of two outboxes is one read: merged by time, each message with the live receipts naming it")
    func pageOfTwo() throws {
        let f = try Fixture(kind: .outbox)
        // The friend's outbox, in the same store (its messages' receipts are in `f.doc`).
        let theirs = DocumentID(bytes: SecureRandom.bytes(16))!
        let key = try SecretBox.randomKey()
        try f.store.createDocument(
            theirs, kind: .outbox, owner: f.identity.publicKey,
            sealedKey: try SealedBox.seal(key, to: f.identity.publicKey), timeMs: 0)
        var keyring = f.keyring
        keyring.insert(key, doc: theirs, epoch: 0)
        func write(_ doc: DocumentID, _ changes: [Change], at ms: Int64) throws {
            try f.store.append(
                [Store.Edit(doc: doc, changes: changes, timeMs: ms)], identity: f.identity, keyring: keyring)
        }
        func message(_ doc: DocumentID, _ id: String, at ms: Int64) throws {
            try write(
                doc,
                [
                    .create(entity: id, kind: .message),
                    .set(entity: id, kind: .message, field: "text", value: .string(id), old: nil),
                ], at: ms)
        }
        func receipt(_ doc: DocumentID, _ id: String, of message: String, deleted: Bool = false) throws {
            var changes: [Change] = [
                .create(entity: id, kind: .receipt),
                .set(entity: id, kind: .receipt, field: "message", value: .string(message), old: nil),
            ]
            if deleted {
                changes.append(.set(entity: id, kind: .receipt, field: "deleted", value: .bool(true), old: nil))
            }
            try write(doc, changes, at: 50_000)
        }
        let a = (0..<6).map { sid("a\($0)") }, b = (0..<4).map { sid("b\($0)") }
        for (i, id) in a.enumerated() { try message(f.doc, id, at: Int64(1_000 * (2 * i + 1))) }
        for (i, id) in b.enumerated() { try message(theirs, id, at: Int64(2_000 * (i + 1))) }
        // Marks of the newest messages: two live receipts and a deleted one name a5.
        try receipt(theirs, sid("r1"), of: a[5])
        try receipt(theirs, sid("r2"), of: a[5], deleted: true)
        try receipt(theirs, sid("r5"), of: a[5])
        try receipt(theirs, sid("r3"), of: a[4])
        try receipt(f.doc, sid("r4"), of: b[3])
        try f.store.setPreference("message.hidden.\(theirs.hex).\(b[2])", "1")

        let marks = [f.doc: theirs, theirs: f.doc]
        let page = try f.store.messagePage(in: [f.doc, theirs], before: nil, limit: 4, receiptsIn: marks)
        #expect(page.map(\.message.id) == [a[5], a[4], b[3], a[3]])
        #expect(page.map { $0.receipts.map(\.id) } == [[sid("r1"), sid("r5")].sorted(), [sid("r3")], [sid("r4")], []])
        let next = try f.store.messagePage(
            in: [f.doc, theirs], before: (7_000, a[3]), limit: 10, receiptsIn: marks)
        #expect(next.map(\.message.id) == [a[2], b[1], a[1], b[0], a[0]], "b2 is hidden here")
        // Without receipt documents: the same messages, no marks.
        let bare = try f.store.messagePage(in: [f.doc, theirs], before: nil, limit: 4)
        #expect(bare.map(\.message.id) == page.map(\.message.id))
        let unmarked = bare.allSatisfy { $0.receipts.isEmpty }
        #expect(unmarked)
    }

    /// `message_shown` as it is, and as it should be: every message row of `entity` at its
    /// creation time (0 without one) that no setting hides (the query that filled the table).
    func shownRows(_ store: Store) throws -> (held: [String], expected: [String]) {
        try store.read { db in
            let held = try String.fetchAll(
                db, sql: "SELECT hex(doc) || ' ' || created_ms || ' ' || id FROM message_shown ORDER BY 1")
            let expected = try String.fetchAll(
                db,
                sql: """
                    SELECT hex(e.doc) || ' ' || coalesce(e.created_ms, 0) || ' ' || e.id FROM entity e
                    WHERE e.kind = 'message' AND NOT EXISTS (SELECT 1 FROM preference WHERE key IN (
                        'message.hidden.' || lower(hex(e.doc)) || '.' || e.id,
                        'local.message.dropped.' || lower(hex(e.doc)) || '.' || e.id))
                    ORDER BY 1
                    """)
            return (held, expected)
        }
    }

    @Test("rows the materializer updates move in the listing: a set before the create, a kind taken over, hidden")
    func updatedRows() throws {
        let f = try Fixture(kind: .outbox)
        func write(_ changes: [Change], at ms: Int64) throws {
            try f.store.append(
                [Store.Edit(doc: f.doc, changes: changes, timeMs: ms)], identity: f.identity, keyring: f.keyring)
            let rows = try shownRows(f.store)
            #expect(rows.held == rows.expected)
        }
        let early = sid("early"), taken = sid("taken"), hidden = sid("hidden")
        // A field set before any create: listed at time 0, then at its create's time.
        try write([.set(entity: early, kind: .message, field: "text", value: .string("hi"), old: nil)], at: 1_000)
        #expect(try shownRows(f.store).held.contains { $0.hasSuffix(" 0 \(early)") })
        try write([.create(entity: early, kind: .message)], at: 2_000)
        #expect(try shownRows(f.store).held.contains { $0.hasSuffix(" 2000 \(early)") })
        // A message whose id is then created as a kind that sorts first ("member"): no longer listed.
        try write([.create(entity: taken, kind: .message)], at: 3_000)
        try write([.create(entity: taken, kind: .member)], at: 4_000)
        #expect(!(try shownRows(f.store).held.contains { $0.hasSuffix(taken) }))
        // Hidden here, then edited: still not listed; shown again when the setting goes.
        try write([.create(entity: hidden, kind: .message)], at: 5_000)
        try f.store.setPreference("message.hidden.\(f.doc.hex).\(hidden)", "1")
        try write([.set(entity: hidden, kind: .message, field: "text", value: .string("edit"), old: nil)], at: 6_000)
        #expect(!(try shownRows(f.store).held.contains { $0.hasSuffix(hidden) }))
        try f.store.setPreference("message.hidden.\(f.doc.hex).\(hidden)", nil)
        #expect(try shownRows(f.store).held.contains { $0.hasSuffix(" 5000 \(hidden)") })
        // The same after a replay of the log, and no trigger runs on an entity insert or update
        // (each would make every op's statements keep a statement journal).
        try f.store.rebuildMaterialized(keyring: f.keyring)
        let rows = try shownRows(f.store)
        #expect(rows.held == rows.expected && rows.held.count == 2)
        let triggers = try f.store.read { db in
            try String.fetchAll(
                db,
                sql: """
                    SELECT name FROM sqlite_master WHERE type = 'trigger' AND tbl_name = 'entity'
                    AND (sql LIKE '%AFTER INSERT%' OR sql LIKE '%AFTER UPDATE%')
                    """)
        }
        #expect(triggers.isEmpty)
    }
}
