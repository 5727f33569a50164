import Foundation
import GRDB
import PlacesAccess
import PlacesCrypto
import PlacesModel

/// Who may write what in a shared document, decided from each op's causal past so that every
/// daemon decides the same whatever the order ops arrive in (`Protocol/sync.md` §8):
///
/// - **Role events** (`member_event`, one row per membership write in any stored op, excluded
///   or not): the owner's `role` writes for a member, a member's own `join` (role from a
///   capability token) and `leave` (role `left`), and the owner's revocation of a link.
/// - **Authorization**: an op is refused (not stored) when its author may not write it given
///   the role events in its causal past.
/// - **Exclusion**: an op by a member that is concurrent with the owner's removal of that
///   member (neither is in the other's causal past) is stored — later ops may depend on it —
///   but marked `excluded` and not materialized. A removal arriving after such ops marks them
///   and re-materializes the document.
extension Store {
    /// Current members of a document (from its `member` entities) with their roles,
    /// owner excluded. A member who joined through a link since revoked is left out: the
    /// revocation does not rewrite its `member` entity.
    public func members(of doc: DocumentID) throws(StoreError) -> [(key: String, role: String)] {
        try read { db in
            guard let owner = try Store.owner(db, of: doc) else { return [] }
            // Read at the first member only: it walks every op of the document (an itinerary
            // of 10,000 expenses and no other member paid for it on each expense written).
            var held: VersionVector?
            func vector() throws -> VersionVector {
                if let held { return held }
                let read = try versionVector(db, doc)
                held = read
                return read
            }
            // `+id`: sorted after the lookup, so that the planner reads the document's members
            // through `entity_list` rather than walking every entity of the document in id
            // order (10,000 expenses made each call read them all).
            return try Row.fetchAll(
                db,
                sql: """
                    SELECT id, json_extract(data, '$.role') FROM entity
                    WHERE doc = ? AND kind = 'member' AND deleted = 0 ORDER BY +id
                    """, arguments: [Data(doc.bytes)]
            ).compactMap { row in
                // The role the membership rules give (§8.1), not the register's last write: an
                // admission concurrent with the owner's role write may hold the register.
                guard let stored = row[1] as String?, Store.activeRoles.contains(stored),
                    let role = try Store.role(
                        db, of: row[0], in: doc, owner: HexCoding.encode(owner), causalPast: try vector())
                else { return nil }
                return (row[0], role)
            }
        }
    }

    /// The role of one member (hex key) of `doc` when it is an active one (`activeRoles`), as
    /// `members(of:)` gives it; `causalPast` is what this daemon holds of the document.
    public func activeRole(of member: String, in doc: DocumentID, causalPast: VersionVector) throws(StoreError)
        -> String?
    {
        try read { db in
            let sql =
                "SELECT json_extract(data, '$.role') FROM entity WHERE doc = ? AND id = ? AND kind = 'member' AND deleted = 0"
            guard let owner = try Store.owner(db, of: doc),
                let stored = try DatabaseValue.fetchOne(
                    db.cachedStatement(sql: sql), arguments: [Data(doc.bytes), member]),
                case .string(let written) = stored.storage, Store.activeRoles.contains(written),
                let role = try Store.role(
                    db, of: member, in: doc, owner: HexCoding.encode(owner), causalPast: causalPast),
                Store.activeRoles.contains(role)
            else { return nil }
            return role
        }
    }

    /// Roles a member may hold; `removed` and `left` end a membership.
    public static let activeRoles: Set<String> = ["editor", "viewer"]

    /// How far before its issuing a daemon dates a link's `not_before`, so that a joiner whose
    /// clock is a little behind can use it at once.
    public static let linkClockAllowanceMs: Int64 = 60_000

    /// The entity id of a link's role events: `link:` + token id hex.
    static func linkMember(_ tokenID: String) -> String { "link:" + tokenID }

    // MARK: Role events

    /// Records the role events an op carries (`Materializer` leaves them to this, so that
    /// excluded ops record theirs too).
    /// `person` is who the author acts for (`Store.actingPerson`): role rules compare persons,
    /// causal checks the signing author's chain. A device revocation is recorded as the event
    /// `revoked` of member `device:<key>`, and a device's certificate in `doc_device`.
    static func recordMemberEvents(
        _ db: Database, header: OpHeader, authorKey: String, person: String, body: OpBody
    ) throws {
        try recordDevice(db, header: header, person: person)
        var tokenIDs = [EntityID: String]()
        for change in body.changes {
            if case .set(let member, .member, "token", .string(let text), _) = change,
                let token = try? CapabilityToken(base64url: text)
            {
                tokenIDs[member] = token.id
            }
        }
        for (index, change) in body.changes.enumerated() {
            let member: String, role: String
            var token: String?
            switch change {
            case .set(let entity, .member, "role", .string(let value), _):
                (member, role) = (entity, value)
            case .set(let entity, .link, "revoked", .bool(true), _):
                (member, role) = (linkMember(entity), "revoked")
            case .set(let entity, .device, "revocation", .string(let text), _):
                (member, role) = (deviceMember(entity), "revoked")
                // A device revocation records the person who signed it in `token`: it bars the
                // device for that person only (devices.md §3).
                token = (try? DeviceRevocation(base64url: text))?.person.hex
            default: continue
            }
            var insert = try RawStatement(
                db,
                """
                INSERT INTO member_event(doc, member, role, author, seq, lamport, idx, token, time_ms, person)
                VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?)
                """)
            insert.bind(header.doc.bytes)
            insert.bind(member)
            insert.bind(role)
            insert.bind(authorKey)
            insert.bind(Int64(header.seq))
            insert.bind(Int64(header.lamport))
            insert.bind(index)
            // A join through a link — the member's own legacy join op, or an admission written
            // by the owner or an editor (capabilities.md §4) — counts as a use of its token.
            insert.bind(token ?? tokenIDs[member])
            insert.bind(body.timeMs)
            insert.bind(person)
            try insert.execute(db)
        }
    }

    struct RoleEvent {
        var role: String
        /// The signing key (a device or a person): its seq places the event causally.
        var author: String
        /// Who the author acts for: role rules compare persons.
        var person: String
        var seq: UInt64
        var stamp: Stamp
        var token: String?
        var timeMs: Int64
    }

    static func events(_ db: Database, doc: DocumentID, member: String) throws -> [RoleEvent] {
        var out = [RoleEvent]()
        var select = try RawStatement(
            db,
            "SELECT role, author, seq, lamport, idx, token, time_ms, person FROM member_event WHERE doc = ? AND member = ?"
        )
        select.bind(doc.bytes)
        select.bind(member)
        try select.forEachRow(db) { row in
            let author = row.string(1)
            out.append(
                RoleEvent(
                    role: row.string(0), author: author, person: row.string(7), seq: UInt64(row.int64(2)),
                    stamp: Stamp(lamport: UInt64(row.int64(3)), author: author, index: Int(row.int64(4))),
                    token: row.isNull(5) ? nil : row.string(5), timeMs: row.int64(6)))
        }
        return out
    }

    /// A member's role as of `causalPast`, from the owner's role writes for it and its own
    /// join and leave in that past (`Protocol/sync.md` §8.1): of the causally maximal ones
    /// (not in the causal past of another), a removal by the owner wins; an owner's event
    /// beats admissions beside it; otherwise the greatest by (lamport, author, index). A join through a link revoked in that past
    /// counts as removed. Nil when not a member.
    static func role(
        _ db: Database, of member: String, in doc: DocumentID, owner: String, causalPast: VersionVector
    ) throws -> String? {
        // The owner's role writes, the member's own joins and leaves, and admissions (an
        // editor's op writing the member through a link: the only events another author
        // records with a token, and only stored when authorized).
        let past = try events(db, doc: doc, member: member).filter { event in
            (event.person == owner || event.person == member || event.token != nil)
                && causalPast.covers(event.author, event.seq)
        }
        // Each author's events form a chain (its seqs), so the maximal ops are among each
        // author's latest: keep those no other latest op has in its causal past.
        var latest = [String: RoleEvent]()
        for event in past where latest[event.author].map({ $0.stamp < event.stamp }) ?? true {
            latest[event.author] = event
        }
        var maximal = Array(latest.values)
        if maximal.count > 1 {
            let vectors = try maximal.map { try opVector(db, doc: doc, author: $0.author, seq: $0.seq) }
            maximal = maximal.enumerated().filter { i, event in
                !vectors.enumerated().contains { j, vector in j != i && vector.covers(event.author, event.seq) }
            }.map(\.element)
        }
        // Remove-wins: a removal concurrent with a join or a role write beats it, so that no
        // choice of deps brings a removed member back.
        if maximal.contains(where: { $0.person == owner && $0.role == "removed" }) { return nil }
        // Owner-wins over admissions: an editor's admission concurrent with the owner's role
        // write never beats it, whatever Lamport time the editor's deps give it.
        if maximal.contains(where: { $0.person == owner }) {
            maximal.removeAll { $0.person != owner && $0.person != member }
        }
        guard let best = maximal.max(by: { $0.stamp < $1.stamp }), activeRoles.contains(best.role) else {
            return nil
        }
        if let token = best.token,
            try isRevoked(db, token: token, in: doc, owner: owner, causalPast: causalPast)
        {
            return nil
        }
        return best.role
    }

    /// The causal version vector of the op `(author, seq)` of `doc` (of every op there, merged,
    /// should the author have equivocated).
    static func opVector(_ db: Database, doc: DocumentID, author: String, seq: UInt64) throws -> VersionVector {
        var vector = VersionVector()
        guard let raw = HexCoding.decode(author), seq <= OpRules.maxSeq else { return vector }
        var select = try RawStatement(db, "SELECT vv FROM op WHERE doc = ? AND author = ? AND seq = ?")
        select.bind(doc.bytes)
        select.bind(raw)
        select.bind(Int64(seq))
        try select.forEachRow(db) { row in vector.merge(VersionVector(text: row.string(0))) }
        return vector
    }

    static func isRevoked(
        _ db: Database, token: String, in doc: DocumentID, owner: String, causalPast: VersionVector
    ) throws -> Bool {
        try events(db, doc: doc, member: linkMember(token)).contains { event in
            event.person == owner && causalPast.covers(event.author, event.seq)
        }
    }

    // MARK: Authorization

    /// What an op by someone other than the owner may contain (`Protocol/sync.md` §8). Nil
    /// when allowed, else the reason.
    /// `author` is the person the op's signing key acts for (`Store.actingPerson`).
    static func authorization(
        _ db: Database, header: OpHeader, body: OpBody, person author: String, owner: String,
        causalPast: VersionVector
    ) throws -> String? {
        if let refusal = try deviceRefusal(
            db, header: header, body: body, person: author, owner: owner, causalPast: causalPast)
        {
            return refusal
        }
        if author == owner { return nil }
        if let join = JoinChanges(body, author: author) {
            return try joinRefusal(db, join, header: header, body: body, owner: owner, causalPast: causalPast)
        }
        let role = try role(db, of: author, in: header.doc, owner: owner, causalPast: causalPast)
        guard let role else { return "the author is not a member" }
        if let admission = JoinChanges(admission: body, author: author) {
            return try admissionRefusal(
                db, admission, authorRole: role, header: header, body: body, owner: owner, causalPast: causalPast)
        }
        // Leaving and recording a view are open to every member, about itself only.
        // So is a device's own certificate, and a valid revocation (checked above), and a
        // trip message: the ingest's `tripMessageRefusal` holds each to its author.
        let aboutItself = body.changes.allSatisfy { change in
            if change.kind == .device || change.kind == .message { return true }
            guard change.entity == author else { return false }
            switch change {
            case .set(_, .view, _, _, _): return true
            case .set(_, .member, "role", .string("left"), _): return true
            case .set(_, .member, "name", .string, _): return true
            default: return false
            }
        }
        if aboutItself { return nil }
        if role == "viewer" { return "viewers cannot edit" }
        // The links an editor may write: those it creates in this op, naming itself as issuer.
        var created = Set<EntityID>(), issued = Set<EntityID>()
        for change in body.changes {
            switch change {
            case .create(let link, .link): created.insert(link)
            case .set(let link, .link, "issuer", .string(author), _): issued.insert(link)
            default: continue
            }
        }
        for change in body.changes {
            switch change.kind {
            case .member: return "only the owner changes the members"
            case .relay: return "only the owner names the relays that keep the document"
            case .view: return "a member records only its own views"
            case .link:
                guard created.contains(change.entity), issued.contains(change.entity) else {
                    return "editors only create links they issue; only the owner changes a link"
                }
                // Editors may issue viewer links; only the owner revokes.
                if case .set(_, _, let field, let value, _) = change,
                    field == "revoked" || (field == "role" && value != .string("viewer"))
                {
                    return "editors issue viewer links only, and only the owner revokes links"
                }
            default: continue
            }
        }
        return nil
    }

    // MARK: Exclusion

    /// Whether a just-stored op by a non-owner is concurrent with a removal of its author
    /// (a removal already stored cannot have it in its causal past).
    /// An op by a device is also excluded when it is concurrent with a revocation of that device.
    static func isConcurrentWithRemoval(
        _ db: Database, header: OpHeader, person author: String, owner: String, vector: VersionVector
    ) throws -> Bool {
        if author != header.authorKey,
            try isConcurrentWithRevocation(db, header: header, person: author, vector: vector)
        {
            return true
        }
        guard author != owner else { return false }
        for removal in try removals(db, of: author, in: header.doc, owner: owner)
        where !vector.covers(removal.author, removal.seq) {
            return true
        }
        return false
    }

    /// The owner's ops that remove `member`: a `removed` role write, or the revocation of a
    /// link it joined through.
    private static func removals(_ db: Database, of member: String, in doc: DocumentID, owner: String) throws
        -> [RoleEvent]
    {
        let own = try events(db, doc: doc, member: member)
        var out = own.filter { $0.person == owner && $0.role == "removed" }
        for token in Set(own.compactMap { $0.person == member ? $0.token : nil }) {
            out += try events(db, doc: doc, member: linkMember(token)).filter { $0.person == owner }
        }
        return out
    }

    /// After the owner's op at `(ownerSeq, vector)` is stored: marks `excluded` every op of a
    /// member it removes (and of that member's devices) that is not in its causal past, and
    /// after any op revoking a device, every op of that device not in its causal past. Returns
    /// true when any op was newly excluded (the caller then re-materializes the document).
    static func excludeConcurrent(
        _ db: Database, doc: DocumentID, body: OpBody, vector: VersionVector, byOwner: Bool = true
    ) throws -> Bool {
        // A revocation excludes a device's ops only where it is certified for the revoker.
        var removed = Set<String>()
        for (device, revoker) in revokedDevices(body) where try heldPerson(db, doc: doc, device: device) == revoker {
            removed.insert(device)
        }
        for change in body.changes where byOwner {
            switch change {
            case .set(let member, .member, "role", .string("removed"), _):
                removed.insert(member)
            case .set(let link, .link, "revoked", .bool(true), _):
                var select = try RawStatement(
                    db, "SELECT DISTINCT member FROM member_event WHERE doc = ? AND token = ? AND author = member")
                select.bind(doc.bytes)
                select.bind(link)
                try select.forEachRow(db) { row in removed.insert(row.string(0)) }
            default: continue
            }
        }
        for member in removed where byOwner {
            removed.formUnion(try devices(db, of: member, in: doc))
        }
        var changed = false
        for member in removed {
            guard let raw = HexCoding.decode(member) else { continue }
            try db.execute(
                sql: "UPDATE op SET excluded = 1 WHERE doc = ? AND author = ? AND seq > ? AND excluded = 0",
                arguments: [Data(doc.bytes), Data(raw), Int64(vector[member])])
            changed = changed || db.changesCount > 0
        }
        return changed
    }

    /// Drops a document's materialized rows and replays its ops that are not excluded.
    static func rematerialize(_ db: Database, doc: DocumentID, keyring: Keyring) throws {
        for table in ["entity", "activity"] {
            try db.execute(sql: "DELETE FROM \(table) WHERE doc = ?", arguments: [Data(doc.bytes)])
        }
        let cursor = try Row.fetchCursor(
            db, sql: "SELECT id, bytes FROM op WHERE doc = ? AND excluded = 0 ORDER BY rowid",
            arguments: [Data(doc.bytes)])
        while let row = try cursor.next() {
            let op = try SignedOp(decoding: [UInt8](row["bytes"] as Data))
            let author = op.header.authorKey
            try Materializer.apply(
                db, opID: [UInt8](row["id"] as Data), header: op.header, authorKey: author,
                person: try heldPerson(db, doc: doc, device: author) ?? author, body: try openBody(op, keyring: keyring)
            )
        }
        try recordEquivocations(db, doc: doc, keyring: keyring)
    }

    /// The body of `op`, decrypted with the key `keyring` holds for its document and epoch.
    public static func openBody(_ op: SignedOp, keyring: Keyring) throws -> OpBody {
        guard let key = keyring.key(op.header.doc, epoch: op.header.epoch) else {
            throw StoreError(.missingKey, "no key for document \(op.header.doc) epoch \(op.header.epoch)")
        }
        let plaintext = try SecretBox.open(op.ciphertext, key: key, associatedData: OpCrypto.associatedData(op.header))
        return try Store.decodeBody(plaintext)
    }

    /// The display name a member gave in its join (any document), if any.
    public func memberName(_ keyHex: String) throws(StoreError) -> String? {
        try read { db in
            try String.fetchOne(
                db,
                sql: """
                    SELECT json_extract(data, '$.name') FROM entity
                    WHERE kind = 'member' AND id = ? AND json_extract(data, '$.name') IS NOT NULL LIMIT 1
                    """, arguments: [keyHex])
        }
    }

    /// Whether an op is stored but excluded (for tests and diagnostics).
    public func isExcluded(_ opID: [UInt8]) throws(StoreError) -> Bool {
        try read { db in
            try Bool.fetchOne(db, sql: "SELECT excluded FROM op WHERE id = ?", arguments: [Data(opID)]) ?? false
        }
    }
}
