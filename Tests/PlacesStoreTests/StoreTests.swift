import Foundation
import PlacesCrypto
import PlacesRoutes
import Testing

@testable import PlacesModel
@testable import PlacesStore

/// A store in a fresh temp file with one itinerary document owned by a new identity.
struct Fixture {
    let dir: URL
    let store: Store
    let identity: SigningKeyPair
    var keyring = Keyring()
    let doc: DocumentID
    let kind: Store.DocumentKind

    init(checkpointBytes: Int = 32 << 20, kind: Store.DocumentKind = .itinerary) throws {
        self.kind = kind
        dir = FileManager.default.temporaryDirectory.appendingPathComponent("places-store-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: dir, withIntermediateDirectories: true)
        store = try Store(path: dir.appendingPathComponent("places.sqlite").path, checkpointBytes: checkpointBytes)
        identity = try SigningKeyPair()
        doc = DocumentID(bytes: SecureRandom.bytes(16))!
        let key = try SecretBox.randomKey()
        try store.createDocument(
            doc, kind: kind, owner: identity.publicKey,
            sealedKey: try SealedBox.seal(key, to: identity.publicKey),
            timeMs: 0)
        keyring.insert(key, doc: doc, epoch: 0)
    }

    /// The field stamps held in an entity's row.
    func stamps(of entity: EntityID) throws -> [String: Stamp] {
        let text = try store.read { db in
            try String.fetchOne(
                db, sql: "SELECT stamps FROM entity WHERE doc = ? AND id = ?", arguments: [Data(doc.bytes), entity])
        }
        return Array((text ?? "").utf8).withUnsafeBufferPointer { Stamps.decode($0) }
    }

    func randomChanges(_ rng: inout SplitMix64, count: ClosedRange<Int> = 1...4, entities: Int = 6) -> [Change] {
        (0..<Int.random(in: count, using: &rng)).map { _ in
            let entity = sid("e\(Int.random(in: 0..<entities, using: &rng))")
            if Int.random(in: 0..<5, using: &rng) == 0 { return .create(entity: entity, kind: .stop) }
            let field = ["name", "address", "position", "deleted"].randomElement(using: &rng)!
            let value: JSONValue =
                field == "deleted"
                ? .bool(Bool.random(using: &rng))
                : .string(
                    field == "position"
                        ? "k\(Int.random(in: 1...9, using: &rng))" : "v\(Int.random(in: 0...99, using: &rng))")
            return .set(entity: entity, kind: .stop, field: field, value: value, old: nil)
        }
    }
}

@Suite("Store: op log and materialized tables")
struct StoreTests {
    @Test("dropping the materialized tables and replaying the log gives byte-identical results")
    func rebuildIsIdentical() throws {
        let f = try Fixture()
        var rng = SplitMix64(seed: 42)
        for batch in 0..<20 {
            let edits = (0..<5).map { i in
                Store.Edit(doc: f.doc, changes: f.randomChanges(&rng), timeMs: Int64(batch * 10 + i))
            }
            try f.store.append(edits, identity: f.identity, keyring: f.keyring)
        }
        let before = try f.store.materializedDump()
        let listBefore = try f.store.entities(in: f.doc, kind: .stop)
        let activityBefore = try f.store.activity(of: f.doc)
        #expect(before.count > 50)
        try f.store.rebuildMaterialized(keyring: f.keyring)
        #expect(try f.store.materializedDump() == before)
        #expect(try f.store.entities(in: f.doc, kind: .stop) == listBefore)
        #expect(try f.store.activity(of: f.doc) == activityBefore)
    }

    @Test("a rebuild keeps every index of the materialized tables (reads name some of them)")
    func rebuildKeepsIndexes() throws {
        let f = try Fixture()
        let indexes = { () throws -> [String] in
            try f.store.read { db in
                let sql =
                    "SELECT name FROM sqlite_master WHERE type = 'index' AND name NOT LIKE 'sqlite_%' ORDER BY name"
                return try String.fetchAll(db, sql: sql)
            }
        }
        let before = try indexes()
        #expect(before.contains("entity_post") && before.contains("entity_message"))
        try f.store.rebuildMaterialized(keyring: f.keyring)
        #expect(try indexes() == before)
        // The feed's read names `entity_post`: it must still answer.
        _ = try f.store.posts(in: [f.doc], before: nil, limit: 10)
    }

    /// Seeds 0–9: ops of 1–4 changes on 6 entities; 10–13: ops of up to 40 changes on up to
    /// 20 entities, past what an op's plan looks up by scanning (`SlotIndex.scanLimit`).
    @Test("the SQL materializer agrees with the pure merge rules", arguments: 0..<14)
    func sqlMatchesPureModel(seed: UInt64) throws {
        let f = try Fixture()
        var rng = SplitMix64(seed: seed)
        var pure = DocumentState()
        for i in 0..<30 {
            let changes = seed < 10 ? f.randomChanges(&rng) : f.randomChanges(&rng, count: 10...40, entities: 20)
            let ops = try f.store.append(
                [Store.Edit(doc: f.doc, changes: changes, timeMs: Int64(i))], identity: f.identity, keyring: f.keyring)
            pure.apply(lamport: ops[0].header.lamport, author: f.identity.publicKey.hex, changes: changes)
        }
        let sql = try f.store.entities(in: f.doc, kind: .stop)
        let expected = pure.items(of: .stop)
        #expect(sql.map(\.id) == expected.map(\.id))
        for (row, item) in zip(sql, expected) {
            let fields = try JSONDecoder().decode([String: JSONValue].self, from: Data(row.dataJSON.utf8))
            #expect(fields == item.state.fields)
            #expect(try f.stamps(of: row.id) == item.state.stamps)
        }
    }

    @Test("a new entity's data text is what json_set would write")
    func newDataMatchesJSONSet() throws {
        let f = try Fixture()
        let values: [JSONValue] = [
            .string("plain"), .string("é \"quoted\" \\ \n\u{1}'"), .int(-3), .double(1.5), .double(45),
            .double(1e300), .bool(true), .null, .array([.int(1), .string("x"), .object(["b": .int(1), "a": .null])]),
            .object([:]),
        ]
        for count in 1...values.count {
            let winners: [Materializer.Winner] = (0..<count).map { ("f\($0)", $0, values[$0]) }
            let text = try #require(Materializer.newData(winners))
            let quoted = { (s: String) in "'" + s.replacingOccurrences(of: "'", with: "''") + "'" }
            let arguments = winners.map { #"'$."\#($0.field)"', json("# + quoted($0.value.jsonText) + ")" }
            let expected = try f.store.read { db in
                try String.fetchOne(db, sql: "SELECT json_set('{}', \(arguments.joined(separator: ", ")))")
            }
            #expect(text == expected)
        }
        #expect(Materializer.newData([(#"a"b"#, 0, .int(1))]) == nil)
    }

    @Test("the v4 migration moves the field stamps into the entity rows as the materializer writes them")
    func migrationMovesStamps() throws {
        let f = try Fixture()
        var rng = SplitMix64(seed: 7)
        for batch in 0..<20 {
            let edits = (0..<5).map { i in
                Store.Edit(doc: f.doc, changes: f.randomChanges(&rng), timeMs: Int64(batch * 10 + i))
            }
            try f.store.append(edits, identity: f.identity, keyring: f.keyring)
        }
        let before = try f.store.materializedDump()
        let activityBefore = try f.store.activity(of: f.doc)
        #expect(before.contains { $0.contains(#"stamps:"{"#) && $0.contains("],") })
        // Back to the v3 shape: stamps in a `field` table, `activity` keyed by (op, idx), and
        // the op_doc_lamport index; then reopening runs the v4 migration.
        try f.store.write { db in
            try db.execute(
                sql: """
                    CREATE TABLE field (
                        doc BLOB NOT NULL, entity TEXT NOT NULL, name TEXT NOT NULL, lamport INTEGER NOT NULL,
                        author TEXT NOT NULL, idx INTEGER NOT NULL, PRIMARY KEY (doc, entity, name)
                    ) WITHOUT ROWID;
                    INSERT INTO field
                    SELECT e.doc, e.id, j.key, j.value ->> 0, j.value ->> 1, j.value ->> 2
                    FROM entity e, json_each(e.stamps) j;
                    ALTER TABLE entity DROP COLUMN stamps;
                    ALTER TABLE activity RENAME TO activity_v4;
                    DROP INDEX activity_doc;
                    CREATE TABLE activity (
                        op BLOB NOT NULL, idx INTEGER NOT NULL, doc BLOB NOT NULL, time_ms INTEGER NOT NULL,
                        lamport INTEGER NOT NULL, author TEXT NOT NULL, action TEXT NOT NULL, entity TEXT NOT NULL,
                        kind TEXT NOT NULL, field TEXT, old TEXT, new TEXT, PRIMARY KEY (op, idx)
                    );
                    CREATE INDEX activity_doc ON activity(doc, time_ms, lamport);
                    INSERT INTO activity SELECT * FROM activity_v4;
                    DROP TABLE activity_v4;
                    CREATE INDEX op_doc_lamport ON op(doc, lamport);
                    DELETE FROM grdb_migrations WHERE identifier = 'v4-stamps-in-entity';
                    """)
        }
        try f.store.close()
        let reopened = try Store(path: f.dir.appendingPathComponent("places.sqlite").path)
        #expect(try reopened.materializedDump() == before)
        #expect(try reopened.activity(of: f.doc) == activityBefore)
        try reopened.rebuildMaterialized(keyring: f.keyring)
        #expect(try reopened.materializedDump() == before)
    }

    @Test("the v5 migration keeps the log and its order, and lets a second op at one seq be stored")
    func migrationDropsUniqueSeq() throws {
        let f = try Fixture()
        var rng = SplitMix64(seed: 11)
        for batch in 0..<10 {
            let edits = (0..<5).map { i in
                Store.Edit(doc: f.doc, changes: f.randomChanges(&rng), timeMs: Int64(batch * 10 + i))
            }
            try f.store.append(edits, identity: f.identity, keyring: f.keyring)
        }
        let log = try f.store.ops(of: f.doc)
        let before = try f.store.materializedDump()
        // Back to the v4 shape of `op`: UNIQUE (doc, author, seq), no `conflict`.
        try f.store.write { db in
            try db.execute(
                sql: """
                    CREATE TABLE op_v4 (
                        id BLOB PRIMARY KEY, doc BLOB NOT NULL, author BLOB NOT NULL, seq INTEGER NOT NULL,
                        lamport INTEGER NOT NULL, epoch INTEGER NOT NULL, bytes BLOB NOT NULL,
                        vv TEXT NOT NULL DEFAULT '', excluded INTEGER NOT NULL DEFAULT 0, UNIQUE (doc, author, seq)
                    );
                    INSERT INTO op_v4(rowid, id, doc, author, seq, lamport, epoch, bytes, vv, excluded)
                    SELECT rowid, id, doc, author, seq, lamport, epoch, bytes, vv, excluded FROM op ORDER BY rowid;
                    DROP TABLE op;
                    ALTER TABLE op_v4 RENAME TO op;
                    DELETE FROM grdb_migrations WHERE identifier = 'v5-equivocation';
                    """)
        }
        try f.store.close()
        let reopened = try Store(path: f.dir.appendingPathComponent("places.sqlite").path)
        #expect(try reopened.ops(of: f.doc) == log)
        #expect(try reopened.materializedDump() == before)
        // A second op at the owner's last seq is now kept.
        let last = log[log.count - 1], previous = log[log.count - 2]
        let twin = try forge(
            f, by: f.identity, seq: last.header.seq, lamport: last.header.lamport,
            deps: [Blake2b.hash256(previous.signedBytes)],
            body: body([.set(entity: sid("e1"), kind: .stop, field: "name", value: .string("Twin"), old: nil)]))
        let result = try reopened.ingest([twin.encoded], doc: f.doc, keyring: f.keyring)
        #expect(result.rejected == nil && result.equivocations == 1)
        #expect(try reopened.opCount() == log.count + 1)
    }

    @Test("ops are signed, chained by seq and deps, and the body is unreadable without the key")
    func opsAreSignedAndChained() throws {
        let f = try Fixture()
        let ops = try f.store.append(
            [
                Store.Edit(doc: f.doc, changes: [.create(entity: "a", kind: .stop)], timeMs: 1),
                Store.Edit(doc: f.doc, changes: [.create(entity: "b", kind: .stop)], timeMs: 2),
            ], identity: f.identity, keyring: f.keyring)
        #expect(ops.map(\.header.seq) == [1, 2])
        #expect(ops.map(\.header.lamport) == [1, 2])
        #expect(ops[1].header.deps == [Blake2b.hash256(ops[0].signedBytes)])
        for op in ops {
            #expect(f.identity.publicKey.verify(try Signature(bytes: op.signature), for: op.signedBytes))
            #expect(!String(decoding: op.ciphertext, as: UTF8.self).contains("create"))
        }
        let stored = try f.store.ops(of: f.doc)
        #expect(stored == ops)
    }

    @Test("a large batch is signed while it is prepared: every op verifies and follows the one before")
    func largeBatchIsSignedInOrder() throws {
        let f = try Fixture()
        let edits = (0..<700).map { i in
            Store.Edit(doc: f.doc, changes: [.create(entity: "s\(i)", kind: .stop)], timeMs: Int64(i))
        }
        let ops = try f.store.append(edits, identity: f.identity, keyring: f.keyring)
        #expect(ops.map(\.header.seq) == (1...700).map(UInt64.init))
        for (i, op) in ops.enumerated() {
            #expect(f.identity.publicKey.verify(try Signature(bytes: op.signature), for: op.signedBytes))
            if i > 0 { #expect(op.header.deps == [Blake2b.hash256(ops[i - 1].signedBytes)]) }
        }
        #expect(try f.store.ops(of: f.doc) == ops)
    }

    @Test("rounds for a peer go on from where the last one stopped: each op once, what the peer holds skipped")
    func roundsGoOnFromTheLastPosition() throws {
        let f = try Fixture()
        func edits(_ range: Range<Int>) -> [Store.Edit] {
            range.map { i in
                Store.Edit(doc: f.doc, changes: [.create(entity: "s\(i)", kind: .stop)], timeMs: Int64(i))
            }
        }
        let ops = try f.store.append(edits(0..<300), identity: f.identity, keyring: f.keyring)
        let author = f.identity.publicKey.hex
        // The peer already holds the first 40 ops; rounds of about 10 ops' worth of bytes.
        var held = VersionVector()
        held.include(author, 40)
        let budget = ops[0].encoded.count * 10
        var sent = [[UInt8]]()
        var position: Int64 = 0
        var rounds = 0
        while true {
            let round = try f.store.ops(of: f.doc, missingFrom: held, after: position, maxBytes: budget)
            guard !round.ops.isEmpty else { break }
            #expect(round.ops.count <= 10)
            #expect(round.stamps.map(\.seq) == round.ops.map { try! SignedOp(decoding: $0).header.seq })
            #expect(round.readThrough > position)
            sent += round.ops
            position = round.readThrough
            rounds += 1
        }
        #expect(sent == ops[40...].map(\.encoded))
        #expect(rounds >= 26)
        // Ops appended later come after the position reached.
        let later = try f.store.append(edits(300..<305), identity: f.identity, keyring: f.keyring)
        let next = try f.store.ops(of: f.doc, missingFrom: held, after: position)
        #expect(next.ops == later.map(\.encoded))
        // From the start, one call without a budget gives the same as all the rounds.
        #expect(try f.store.ops(of: f.doc, missingFrom: held).ops == (ops[40...] + later).map(\.encoded))
    }

    @Test("a peer that holds everything is read nothing; one that lacks the newest op gets just it")
    func coveredPeerReadsNothing() throws {
        let f = try Fixture()
        let edits = (0..<50).map { i in
            Store.Edit(doc: f.doc, changes: [.create(entity: "s\(i)", kind: .stop)], timeMs: Int64(i))
        }
        let ops = try f.store.append(edits, identity: f.identity, keyring: f.keyring)
        let mine = try f.store.versionVector(of: f.doc)
        var peer = mine
        peer.include(try SigningKeyPair().publicKey.hex, 3)  // an author this daemon never saw
        for held in [nil, mine] {
            let none = try f.store.ops(of: f.doc, missingFrom: peer, held: held)
            #expect(none.ops.isEmpty)
            #expect(none.readThrough == 0)  // the log was not walked
            let later = try f.store.ops(of: f.doc, missingFrom: peer, after: 17, held: held)
            #expect(later.ops.isEmpty)
        }
        var lacking = VersionVector()
        lacking.include(f.identity.publicKey.hex, 49)
        #expect(try f.store.ops(of: f.doc, missingFrom: lacking, held: mine).ops == [ops[49].encoded])
    }

    @Test("the WAL is copied into the database file in the background once it passes the threshold")
    func backgroundCheckpoint() throws {
        let f = try Fixture(checkpointBytes: 128 * 1024)
        let file = f.dir.appendingPathComponent("places.sqlite").path
        func fileSize() throws -> Int { (try FileManager.default.attributesOfItem(atPath: file)[.size] as? Int) ?? 0 }
        let before = try fileSize()
        for b in 0..<4 {
            let edits = (0..<250).map { i in
                Store.Edit(
                    doc: f.doc,
                    changes: [
                        .create(entity: "s\(b)-\(i)", kind: .stop),
                        .set(entity: "s\(b)-\(i)", kind: .stop, field: "name", value: .string("Stop \(i)"), old: nil),
                    ], timeMs: Int64(i))
            }
            try f.store.append(edits, identity: f.identity, keyring: f.keyring)
        }
        // Without a checkpoint every page is still in the WAL and the database file keeps
        // the size it had after the migrations.
        let deadline = Date().addingTimeInterval(20)
        while try fileSize() < before + 256 * 1024 && Date() < deadline { usleep(20_000) }
        #expect(try fileSize() >= before + 256 * 1024)
        #expect(try f.store.opCount() == 1_000)
    }

    @Test("an append without the document key changes nothing")
    func missingKeyChangesNothing() throws {
        let f = try Fixture()
        #expect(throws: StoreError.self) {
            try f.store.append(
                [Store.Edit(doc: f.doc, changes: [.create(entity: "a", kind: .stop)], timeMs: 1)], identity: f.identity,
                keyring: Keyring())
        }
        #expect(try f.store.opCount() == 0)
        #expect(try f.store.materializedDump().isEmpty)
    }
}
