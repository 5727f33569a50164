import Foundation
import Testing

@testable import PlacesModel
@testable import PlacesStore

/// `message_shown` (issue 32): the messages no setting hides, kept by triggers, so a page is a
/// range of it. Hiding, un-hiding, deleting for everyone and a rebuild each leave it equal to
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
        let old = try f.store.messages(
            in: f.doc, before: nil, limit: 5,
            hiddenPrefixes: ["message.hidden.\(f.doc.hex).", "local.message.dropped.\(f.doc.hex)."])
        #expect(ids(old) == ids(page), "the walk past hidden ones gives the same page")
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
}
