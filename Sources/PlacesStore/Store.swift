import CSQLiteTuning
import Foundation
import GRDB
import PlacesAccess
import PlacesCrypto
import PlacesModel
import Synchronization

/// The daemon's SQLite database (GRDB `DatabasePool`, WAL): the signed op log and the
/// tables materialized from it. Every append stores the op and its materialization in
/// one transaction, so a crash never leaves one without the other.
public final class Store: Sendable {
    let pool: DatabasePool
    /// A read-only connection for lookups of one statement (`readOne`).
    private let lookups: DatabaseQueue
    private let checkpointer: Checkpointer
    /// The commit generation, moved by every committed write that changed a row: what
    /// caches of derived values compare against.
    public let generations = CommitGenerations()
    /// Whether `person_dirty` may hold rows (`Store+PersonState`): true at open, so that
    /// marks left by a crash are taken.
    let personMarked = Mutex<Bool>(true)
    /// The document rows read so far (`document(_:)`).
    let documentRecords = DocumentRecords()
    /// Each connection's page cache, KiB.
    private let cacheKiB: Int
    /// Whether the writer's page cache is at `bulkCacheKiB`, since a bulk ingest and until
    /// `releaseMemory`.
    let bulkCache = Mutex<Bool>(false)
    /// A batch of received ops this large is a bulk (a round of a sync): the writer's cache
    /// grows for it, and the daemon gives memory back 10 s after the last (`releaseMemory`).
    public static let bulkOps = 1_000
    /// The writer's page cache while bulks of ops arrive (a sync's rounds), KiB. Each received
    /// op inserts into two indexes with random keys (op ids, entity ids): at 100,000 ops they
    /// outgrow the 8 MiB cache, and a tenth of the writer's time went to reading back pages
    /// it had just dropped. `releaseMemory` brings the cache back to `cacheKiB`.
    static let bulkCacheKiB = 32_768

    /// What kind of document a document is.
    public enum DocumentKind: String, Sendable, Codable {
        case itinerary, library, profile
        /// A contact card: its owner's profile and the favorites they share with contacts.
        case card
        /// An outbox: what one person posts to one reader (their own outbox to themselves
        /// holds every post they wrote), and the reactions on those posts.
        case outbox
        /// A published trip: a read-only copy of an itinerary its owner published, and the
        /// likes on it (`Protocol/sync.md` §7.5).
        case published
    }

    /// A row of the `document` table.
    public struct DocumentRecord: Sendable, Hashable {
        public var id: DocumentID
        public var kind: DocumentKind
        public var owner: [UInt8]
        public var createdMs: Int64
    }

    /// A materialized entity.
    public struct EntityRecord: Sendable, Hashable {
        public var doc: DocumentID
        public var id: EntityID
        public var kind: EntityKind
        /// The fields as a JSON object text (keys sorted).
        public var dataJSON: String
        public var position: String?
        public var deleted: Bool
        /// The entity this one refers to (a favorite's or stop's place id).
        public var ref: String?
        /// Hex key of the author of the earliest create.
        public var createdBy: String?
        public var createdMs: Int64?
        public var updatedMs: Int64?

    }

    /// One line of a document's activity, derived from one change of one op.
    public struct ActivityRecord: Sendable, Hashable {
        public var opID: [UInt8]
        public var index: Int
        public var doc: DocumentID
        public var timeMs: Int64
        public var lamport: UInt64
        public var author: String
        public var action: String
        public var entity: EntityID
        public var kind: String
        public var field: String?
        public var oldJSON: String?
        public var newJSON: String?
    }

    /// SQLite's process-wide settings, made once before the first connection opens: no memory
    /// statistics. With them, each of SQLite's allocations and frees took a global mutex to
    /// count bytes (about 5 % of the writer's time in the append benchmark); nothing here
    /// reads those counts. The system SQLite is built without lookaside memory, so a
    /// statement allocates for every row it builds.
    private static let sqliteTuned: Void = { _ = places_sqlite_disable_memstatus() }()

    /// Opens (creating and migrating if needed) the database at `path`. The WAL is copied
    /// back into the database in the background once it holds `checkpointBytes` (32 MiB by
    /// default; see `Checkpointer`).
    /// `cacheKiB` bounds each connection's page cache (8 MiB by default; a relay, which reads
    /// little twice, keeps 2 MiB).
    public init(path: String, checkpointBytes: Int = 32 << 20, cacheKiB: Int = 8_192) throws(StoreError) {
        checkpointer = Checkpointer(path: path, backgroundBytes: checkpointBytes, writerBytes: 8 * checkpointBytes)
        self.cacheKiB = cacheKiB
        _ = Store.sqliteTuned
        do {
            var config = Configuration()
            config.foreignKeysEnabled = true
            config.busyMode = .timeout(5)
            config.prepareDatabase { db in
                // 16 KiB pages for a new database (an existing one keeps its page size): a
                // commit writes each dirty page to the WAL in two system calls, and a batch
                // of appends dirties about a quarter as many 16 KiB pages as 4 KiB ones, for
                // about as many bytes. See docs/architecture.md, "Performance".
                try db.execute(sql: "PRAGMA page_size = 16384")
                // WAL with NORMAL sync: a commit survives a crash of placesd, and at worst the
                // last transactions are lost on power failure (never a torn database).
                try db.execute(sql: "PRAGMA synchronous = NORMAL")
                // A page cache per connection (8 MiB by default), filled only as pages are used.
                try db.execute(sql: "PRAGMA cache_size = -\(cacheKiB)")
                // A transaction that dirties more pages than the cache holds (a sync's rounds:
                // up to 4 MiB of ops, which dirty 20–30 MB of pages in a large trip) would
                // write the oldest to the WAL before the commit ("spill") and write them
                // again at the commit when they change once more: a sixth of the writer's
                // time in a fresh sync. The cache may grow to 64 MiB for one transaction
                // instead, and gives the pages back when it ends.
                let pageSize = max(512, try Int.fetchOne(db, sql: "PRAGMA page_size") ?? 4096)
                try db.execute(sql: "PRAGMA cache_spill = \((64 << 20) / pageSize)")
            }
            pool = try DatabasePool(path: path, configuration: config)
            try Schema.migrator.migrate(pool)
            var lookupConfig = Configuration()
            lookupConfig.readonly = true
            lookupConfig.busyMode = .timeout(5)
            lookupConfig.prepareDatabase { db in try db.execute(sql: "PRAGMA cache_size = -2048") }
            lookups = try DatabaseQueue(path: path, configuration: lookupConfig)
            // Checkpoints in the background instead of inside the commits of the writer.
            try pool.writeWithoutTransaction { db in
                try checkpointer.install(on: db)
                generations.install(on: db)
            }
        } catch {
            throw StoreError(.unavailable, "cannot open the database at \(path)", cause: error)
        }
    }

    /// Gives back the memory SQLite's connections hold and do not need (page caches): after a
    /// burst, so that an idle daemon does not keep what the burst grew.
    public func releaseMemory() {
        if swapBulkCache(false) {
            try? pool.writeWithoutTransaction { db in try db.execute(sql: "PRAGMA cache_size = -\(cacheKiB)") }
        }
        pool.releaseMemory()
    }

    /// Grows the writer's page cache to `bulkCacheKiB` (in its write, `db`) for a bulk of ops.
    func growCacheForBulk(_ db: Database) throws {
        guard cacheKiB < Store.bulkCacheKiB, !swapBulkCache(true) else { return }
        try db.execute(sql: "PRAGMA cache_size = -\(Store.bulkCacheKiB)")
    }

    /// Sets `bulkCache` to `grown`, returning what it was.
    private func swapBulkCache(_ grown: Bool) -> Bool {
        bulkCache.withLock { held in
            defer { held = grown }
            return held
        }
    }

    /// Closes the database, first moving everything in the WAL into the database file and
    /// emptying the WAL: the file alone then holds every op (a backup or a copy of the data
    /// dir taken after a clean shutdown is complete). Closing the pool alone does not do it:
    /// SQLite checkpoints when the last connection closes, and GRDB closes the writer before
    /// the readers.
    public func close() throws(StoreError) {
        checkpointer.drain()
        do {
            _ = try pool.writeWithoutTransaction { db in try db.checkpoint(.truncate) }
        } catch {
            throw StoreError(.database, "checkpointing the database at close failed", cause: error)
        }
        do {
            try lookups.close()
            try pool.close()
        } catch {
            throw StoreError(.database, "closing the database failed", cause: error)
        }
    }

    // MARK: Appending ops

    /// A local edit: the document, its changes, and the author's clock time.
    public struct Edit: Sendable {
        public var doc: DocumentID
        public var changes: [Change]
        public var timeMs: Int64
        public init(doc: DocumentID, changes: [Change], timeMs: Int64) {
            self.doc = doc
            self.changes = changes
            self.timeMs = timeMs
        }
    }

    /// Turns local edits into signed ops (next seq, current heads as deps, lamport above
    /// everything seen, body encrypted with the current document key), appends them and
    /// materializes them, all in one transaction.
    ///
    /// `device` is this device's certificate when it is not its person's root device
    /// (`Protocol/devices.md` §4): its first op in each document carries it, and the ops act
    /// for its person.
    @discardableResult
    public func append(
        _ edits: [Edit], identity: SigningKeyPair, keyring: Keyring, device: DeviceCertificate? = nil
    ) throws(StoreError) -> [SignedOp] {
        let author = identity.publicKey.bytes
        let authorKey = identity.publicKey.hex
        let person = device?.person.hex ?? authorKey
        return try write { db in
            // 1. Headers, bodies and ciphertexts in order. Per document the author's seq, the
            //    lamport clock and the heads are read once and then advanced in memory: each
            //    op depends on the heads left by the one before.
            struct Pending: Sendable {
                var header: OpHeader
                var body: OpBody
                var ciphertext: [UInt8]
                var signed: [UInt8]
                var id: [UInt8]
            }
            var clocks: [DocumentID: (seq: Int64, lamport: Int64, heads: [[UInt8]], own: [UInt8]?)] = [:]
            // 2. Signatures, the costly part, and the materializer's plans: for large batches,
            //    computed on the other cores as the ops are prepared (1) and while this
            //    thread stores those already signed (3).
            let prepared = Slots<Pending>(count: edits.count)
            let signatures = Pipeline(
                count: edits.count, chunk: edits.count >= 64 ? 32 : edits.count, published: 0
            ) { i in
                let p = prepared[i]
                return (
                    signature: identity.sign(p.signed).bytes,
                    plan: Materializer.plan(
                        opID: p.id, header: p.header, authorKey: authorKey, person: person, body: p.body)
                )
            }
            defer { signatures.cancel() }
            let nonces = SecureRandom.nonces(edits.count)
            for (i, edit) in edits.enumerated() {
                guard let (epoch, key) = keyring.current(edit.doc) else {
                    throw StoreError(.missingKey, "no key is held for document \(edit.doc)")
                }
                var clock = try clocks[edit.doc] ?? readClock(db, doc: edit.doc, author: author)
                // Only a log written before the bounds of op-format §1 could sit at them.
                guard clock.seq < Int64(OpRules.maxSeq), clock.lamport < Int64(OpRules.maxLamport) else {
                    throw StoreError(.invalidOp, "document \(edit.doc) has reached the largest seq or lamport time")
                }
                clock.seq += 1
                clock.lamport += 1
                // At most maxDeps heads, the newest first (an op needs only enough deps to order
                // it after what its author saw; older heads are reached through them later).
                var chosen = Array(clock.heads.prefix(SignedOp.maxDeps))
                // With more heads than deps, the author's own previous op might be reached by
                // none of the chosen ones: name it, so its ops stay a chain (op-format §7, §9).
                if clock.heads.count > SignedOp.maxDeps, let own = clock.own, !chosen.contains(own) {
                    chosen[SignedOp.maxDeps - 1] = own
                }
                let deps = chosen.sorted { $0.lexicographicallyPrecedes($1) }
                let header = OpHeader(
                    doc: edit.doc, author: author, seq: UInt64(clock.seq), deps: deps, lamport: UInt64(clock.lamport),
                    epoch: epoch)
                var changes = edit.changes
                if clock.seq == 1, let device {
                    changes.insert(
                        .set(
                            entity: authorKey, kind: .device, field: DeviceFields.cert.name,
                            value: .string(device.base64url), old: nil), at: 0)
                }
                let body = OpBody(timeMs: edit.timeMs, changes: changes)
                let ciphertext = try SecretBox.seal(
                    body.jsonBytes(), key: key, associatedData: OpCrypto.associatedData(header), nonce: nonces[i])
                let signed = SignedOp.encodeSignedBytes(header: header, ciphertext: ciphertext)
                guard signed.count + 64 <= SignedOp.maxBytes else {
                    throw StoreError(.invalidOp, "the change is too large for one op (\(signed.count) bytes)")
                }
                let id = Blake2b.hash256(signed)
                // The deps are the first maxDeps heads: the rest stay heads, after this op.
                clock.heads =
                    clock.heads.count > SignedOp.maxDeps
                    ? [id] + clock.heads.filter { !chosen.contains($0) } : [id]
                clock.own = id
                clocks[edit.doc] = clock
                prepared.set(i, Pending(header: header, body: body, ciphertext: ciphertext, signed: signed, id: id))
                signatures.publish(upTo: i + 1)
            }
            // 3. Store and materialize in order.
            var ops = [SignedOp]()
            ops.reserveCapacity(edits.count)
            let batch = OpBatch()
            for i in edits.indices {
                let p = prepared[i]
                let (signature, plan) = signatures.result(i)
                let op = SignedOp(
                    header: p.header, ciphertext: p.ciphertext, signature: signature, signedBytes: p.signed)
                let vector = try insertOp(db, op, id: p.id, batch: batch)
                guard let owner = try batch.owner(db, p.header.doc) else {
                    throw StoreError(.notFound, "unknown document \(p.header.doc)")
                }
                if owner == person && (device == nil || p.header.seq > 1)
                    && !p.body.changes.contains(where: { $0.kind == .member || $0.kind == .link || $0.kind == .device })
                {
                    // The common case (the owner's own edit) has no role events to record.
                    try Materializer.apply(db, plan)
                } else {
                    try Store.materializeStored(
                        db, id: p.id, header: p.header, body: p.body, person: person, owner: owner, vector: vector,
                        keyring: keyring)
                }
                ops.append(op)
            }
            try batch.writeHeads(db)
            return ops
        }
    }

    /// The author's last seq, the document's highest lamport, its heads (newest first) and the
    /// author's last op.
    private func readClock(_ db: Database, doc: DocumentID, author: [UInt8]) throws
        -> (seq: Int64, lamport: Int64, heads: [[UInt8]], own: [UInt8]?)
    {
        let docData = Data(doc.bytes)
        let last = try Row.fetchOne(
            db.cachedStatement(sql: "SELECT seq, id FROM op WHERE doc = ? AND author = ? ORDER BY seq DESC LIMIT 1"),
            arguments: [docData, Data(author)])
        let seq: Int64 = last?[0] ?? 0
        let own = (last?[1] as Data?).map { [UInt8]($0) }
        // The highest Lamport time of the document is that of its newest head: every other op
        // is a dependency of an op with a higher one.
        var lamport: Int64 = 0
        var heads = [[UInt8]]()
        let rows = try Row.fetchCursor(
            db.cachedStatement(
                sql: """
                    SELECT h.op, o.lamport FROM head h JOIN op o ON o.id = h.op WHERE h.doc = ?
                    ORDER BY o.lamport DESC, h.op
                    """),
            arguments: [docData])
        while let row = try rows.next() {
            if heads.isEmpty { lamport = row[1] }
            heads.append([UInt8](row[0] as Data))
        }
        return (seq, lamport, heads, own)
    }

    /// Values handed from the writer to pipeline workers: each slot is written once, before
    /// the pipeline publishes it (the pipeline's lock orders the write before the reads).
    final class Slots<T: Sendable>: @unchecked Sendable {
        private let slots: UnsafeMutableBufferPointer<T?>
        init(count: Int) {
            slots = .allocate(capacity: count)
            slots.initialize(repeating: nil)
        }
        deinit {
            slots.deinitialize()
            slots.deallocate()
        }
        func set(_ i: Int, _ value: T) { slots[i] = value }
        subscript(i: Int) -> T { slots[i]! }
    }

    /// The causal version vector of an op with these deps: the merge of the deps' vectors
    /// plus the op itself.
    func causalVector(_ db: Database, header: OpHeader, batch: OpBatch) throws -> VersionVector {
        var vector = try depsVector(db, header: header, batch: batch)
        vector.include(header.authorKey, header.seq)
        return vector
    }

    /// The merge of the causal vectors of an op's deps (its causal past without itself).
    func depsVector(_ db: Database, header: OpHeader, batch: OpBatch) throws -> VersionVector {
        var vector = VersionVector()
        for dep in header.deps {
            if let known = batch.vector(of: dep) {
                vector.merge(known)
                continue
            }
            var select = try RawStatement(db, "SELECT vv FROM op WHERE id = ?")
            select.bind(dep)
            try select.forEachRow(db) { row in vector.merge(VersionVector(text: row.string(0))) }
        }
        return vector
    }

    /// The owner of a document as author-key hex.
    func ownerKey(_ db: Database, _ doc: DocumentID) throws -> String {
        guard let owner = try Store.owner(db, of: doc) else { throw StoreError(.notFound, "unknown document \(doc)") }
        return HexCoding.encode(owner)
    }

    /// Appends an op to the log and (at the end of the batch) the heads; returns its causal
    /// version vector. `encoded` is `op.encoded` when the caller holds it (received bytes,
    /// which decoded to `op`), spared a copy.
    @discardableResult
    func insertOp(
        _ db: Database, _ op: SignedOp, id: [UInt8], encoded: [UInt8]? = nil, vector: VersionVector? = nil,
        batch: OpBatch
    ) throws -> VersionVector {
        let vv = try vector ?? causalVector(db, header: op.header, batch: batch)
        var insert = try RawStatement(
            db, "INSERT INTO op(id, doc, author, seq, lamport, epoch, bytes, vv) VALUES (?, ?, ?, ?, ?, ?, ?, ?)")
        insert.bind(id)
        insert.bind(op.header.doc.bytes)
        insert.bind(op.header.author)
        insert.bind(Int64(op.header.seq))
        insert.bind(Int64(op.header.lamport))
        insert.bind(Int64(op.header.epoch))
        insert.bind(encoded ?? op.encoded)
        insert.bind(vv.text)
        try insert.execute(db)
        batch.stored(id, header: op.header, vector: vv)
        return vv
    }

    // MARK: Rebuilding

    /// Drops the materialized tables and replays the whole op log into them, in log
    /// order. The result equals what incremental materialization produced.
    public func rebuildMaterialized(keyring: Keyring) throws(StoreError) {
        try write { db in
            for table in Schema.materializedTables { try db.execute(sql: "DROP TABLE \(table)") }
            try Schema.createMaterialized(db)
            try Schema.createMemberEvents(db)
            try Schema.createDocDevices(db)
            try Schema.createSocialIndexes(db)
            try Schema.recreateMessageTables(db)
            let cursor = try Row.fetchCursor(db, sql: "SELECT id, bytes, excluded FROM op ORDER BY rowid")
            while let row = try cursor.next() {
                let id = [UInt8](row["id"] as Data)
                let op = try SignedOp(decoding: [UInt8](row["bytes"] as Data))
                let body = try Store.openBody(op, keyring: keyring)
                let person: String
                switch try Store.actingPerson(db, header: op.header, body: body) {
                case .success(let acting): person = acting
                case .failure: person = op.header.authorKey
                }
                try Store.recordMemberEvents(
                    db, header: op.header, authorKey: op.header.authorKey, person: person, body: body)
                guard row["excluded"] as Int64 == 0 else { continue }
                try Materializer.apply(
                    db, opID: id, header: op.header, authorKey: op.header.authorKey, person: person, body: body)
            }
            for raw in try Data.fetchAll(db, sql: "SELECT DISTINCT doc FROM op WHERE conflict = 1") {
                guard let doc = DocumentID(bytes: [UInt8](raw)) else { continue }
                try Store.recordEquivocations(db, doc: doc, keyring: keyring)
            }
        }
    }

    /// Every op of a document in log order (for sync and tests).
    public func ops(of doc: DocumentID) throws(StoreError) -> [SignedOp] {
        try read { db in
            try Data.fetchAll(
                db, sql: "SELECT bytes FROM op WHERE doc = ? ORDER BY rowid", arguments: [Data(doc.bytes)]
            )
            .map { try SignedOp(decoding: [UInt8]($0)) }
        }
    }

    /// Number of ops in the log.
    public func opCount() throws(StoreError) -> Int {
        try read { db in try Int.fetchOne(db, sql: "SELECT count(*) FROM op") ?? 0 }
    }

    // MARK: Helpers

    func cachedStatement(_ db: Database, _ sql: String) throws -> Statement {
        try db.cachedStatement(sql: sql)
    }

    func read<T>(_ body: (Database) throws -> T) throws(StoreError) -> T {
        do { return try pool.read(body) } catch let e as StoreError { throw e } catch {
            throw StoreError(.database, "reading the database failed", cause: error)
        }
    }

    /// A read of one statement: no transaction around it (SQLite runs a lone statement in
    /// its own read transaction, so it sees one state of the database). GRDB prepares the
    /// `BEGIN` and `COMMIT` of each `read` anew, and each read from the pool first runs
    /// `PRAGMA schema_version` in a read transaction of its own: each costs a one-row lookup
    /// more than the lookup itself. The lookups every request and every received batch make
    /// run here, on a read-only connection of their own, with neither (the schema does not
    /// change once the store is open). `body` must run exactly one statement.
    func readOne<T>(_ body: (Database) throws -> T) throws(StoreError) -> T {
        do { return try lookups.unsafeRead(body) } catch let e as StoreError { throw e } catch {
            throw StoreError(.database, "reading the database failed", cause: error)
        }
    }

    func write<T>(_ body: (Database) throws -> T) throws(StoreError) -> T {
        do { return try pool.write(body) } catch let e as StoreError { throw e } catch let e as CryptoError {
            throw StoreError(.invalidOp, e.message, cause: e)
        } catch let e as OpFormatError {
            throw StoreError(.invalidOp, e.message, cause: e)
        } catch {
            throw StoreError(.database, "writing the database failed", cause: error)
        }
    }
}
