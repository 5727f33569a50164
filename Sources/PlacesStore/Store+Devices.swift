import Foundation
import GRDB
import PlacesAccess
import PlacesCrypto
import PlacesModel

/// Who an op's author acts for, and what a person's devices may do in a document
/// (`Protocol/devices.md` §4):
///
/// - A device's first op in a document carries its certificate (`set cert` on `device` entity
///   = its key); from then on the device acts as the certificate's person there (`doc_device`,
///   materialized from the log). An author with no certificate in the document is a person.
/// - A **device revocation** (`set revocation` on a `device` entity, signed by the person) is
///   recorded as a role event of member `device:<key>`: ops of that device with it in their
///   causal past are refused, ops concurrent with it excluded, as for a removal (§8.3).
extension Store {
    /// The role-event member id of a device's revocations.
    static func deviceMember(_ device: String) -> String { "device:" + device }

    /// The person `header`'s author acts for in its document, or why the op is refused. A
    /// device's own certificate in its first op makes it its person's; a certificate of another
    /// device may be copied in by a device of the same person (the person's device list, shown
    /// by `GET /v1/devices`), and establishes nothing.
    static func actingPerson(_ db: Database, header: OpHeader, body: OpBody, batch: OpBatch? = nil) throws
        -> Result<String, Rejection>
    {
        let author = header.authorKey
        // The common case: an op with no certificate by an author already seen in this batch.
        if header.seq > 1, let known = batch?.person(of: author, in: header.doc),
            !body.changes.contains(where: { $0.kind == .device })
        {
            return .success(known)
        }
        var own: DeviceCertificate?
        var copies = [DeviceCertificate]()
        for change in body.changes {
            guard case .set(let entity, .device, "cert", let value, _) = change else { continue }
            guard case .string(let text) = value else { return .failure(.unauthorized("a certificate must be text")) }
            let certificate: DeviceCertificate
            do {
                certificate = try DeviceCertificate(base64url: text)
            } catch {
                return .failure(.unauthorized("device certificate: \(error)"))
            }
            guard certificate.device.hex == entity else {
                return .failure(.unauthorized("the device certificate is for another key"))
            }
            if entity != author {
                copies.append(certificate)
                continue
            }
            guard header.seq == 1, own == nil else {
                return .failure(
                    .unauthorized("a device writes its own certificate once, in its first op in the document"))
            }
            own = certificate
        }
        let held = try heldPerson(db, doc: header.doc, device: author)
        let person: String
        if let own {
            person = own.person.hex
            // Two first ops by one device (equivocation) may not name two persons.
            if let held, held != person {
                return .failure(.unauthorized("the device is certified for another person"))
            }
        } else {
            person = header.seq == 1 ? author : held ?? author
        }
        guard copies.allSatisfy({ $0.person.hex == person }) else {
            return .failure(.unauthorized("only a person's own devices copy in its device certificates"))
        }
        batch?.note(person: person, of: author, in: header.doc)
        return .success(person)
    }

    /// The person a device is certified for in `doc`, if its certificate is held there.
    static func heldPerson(_ db: Database, doc: DocumentID, device: String) throws -> String? {
        var select = try RawStatement(db, "SELECT person FROM doc_device WHERE doc = ? AND device = ?")
        select.bind(doc.bytes)
        select.bind(device)
        var person: String?
        try select.forEachRow(db) { row in person = row.string(0) }
        return person
    }

    /// Records a device's certificate from its first op (excluded ops included, as role events).
    static func recordDevice(_ db: Database, header: OpHeader, person: String) throws {
        guard person != header.authorKey, header.seq == 1 else { return }
        var insert = try RawStatement(db, "INSERT OR IGNORE INTO doc_device(doc, device, person) VALUES (?, ?, ?)")
        insert.bind(header.doc.bytes)
        insert.bind(header.authorKey)
        insert.bind(person)
        try insert.execute(db)
    }

    /// Why the device-related parts of an op by `person` are refused, nil when they may stand:
    /// a revoked device writes nothing after it saw its revocation, and every revocation copied
    /// in must be a valid one, of a device of a person who belongs to the document.
    static func deviceRefusal(
        _ db: Database, header: OpHeader, body: OpBody, person: String, owner: String, causalPast: VersionVector
    ) throws -> String? {
        let author = header.authorKey
        if person != author,
            try revocations(db, doc: header.doc, device: author, person: person).contains(where: {
                causalPast.covers($0.author, $0.seq)
            })
        {
            return "the device was revoked"
        }
        let copied = Set(
            body.changes.compactMap { change -> String? in
                guard case .set(let entity, .device, "cert", _, _) = change else { return nil }
                return entity
            })
        for change in body.changes {
            guard case .set(let entity, .device, let field, let value, _) = change, field != "cert" else { continue }
            guard field == "revocation" else {
                // A device's name (and tombstone) are its person's to write.
                guard
                    try entity == author || copied.contains(entity)
                        || heldPerson(db, doc: header.doc, device: entity) == person
                else { return "only a person's own devices name its devices" }
                continue
            }
            guard case .string(let text) = value else { return "a revocation must be a record" }
            let revocation: DeviceRevocation
            do {
                revocation = try DeviceRevocation(base64url: text)
            } catch {
                return "device revocation: \(error)"
            }
            guard revocation.device.hex == entity else { return "the device revocation is for another key" }
            let revoker = revocation.person.hex
            if let held = try heldPerson(db, doc: header.doc, device: entity) {
                guard held == revoker else { return "the device revocation is not by its person" }
            } else if revoker != owner,
                try role(db, of: revoker, in: header.doc, owner: owner, causalPast: causalPast) == nil
            {
                return "the device revocation is by someone who does not belong to the document"
            }
        }
        return nil
    }

    /// Whether an op by a device acting for `person` is concurrent with a revocation of that
    /// device by that person already held.
    static func isConcurrentWithRevocation(
        _ db: Database, header: OpHeader, person: String, vector: VersionVector
    ) throws -> Bool {
        try revocations(db, doc: header.doc, device: header.authorKey, person: person).contains {
            !vector.covers($0.author, $0.seq)
        }
    }

    /// The revocation events of `device` in `doc` that bar it for `person`: those `person`
    /// signed. Anyone may sign a revocation of any key (a member may copy one in before the
    /// device's certificate arrives, §4.1); it bars the key only for its signer (§3).
    static func revocations(_ db: Database, doc: DocumentID, device: String, person: String) throws -> [RoleEvent] {
        try events(db, doc: doc, member: deviceMember(device)).filter { $0.token == nil || $0.token == person }
    }

    /// The devices an op revokes (its valid `revocation` writes), with the person who signed each.
    static func revokedDevices(_ body: OpBody) -> [(device: String, person: String)] {
        body.changes.compactMap { change in
            guard case .set(let entity, .device, "revocation", .string(let text), _) = change,
                let revocation = try? DeviceRevocation(base64url: text)
            else { return nil }
            return (entity, revocation.person.hex)
        }
    }

    /// Devices certified in `doc` for `person`.
    static func devices(_ db: Database, of person: String, in doc: DocumentID) throws -> [String] {
        var out = [String]()
        var select = try RawStatement(db, "SELECT device FROM doc_device WHERE doc = ? AND person = ?")
        select.bind(doc.bytes)
        select.bind(person)
        try select.forEachRow(db) { row in out.append(row.string(0)) }
        return out
    }

    /// The person each device certified in `doc` acts for.
    public func devicePersons(in doc: DocumentID) throws(StoreError) -> [String: String] {
        try read { db in
            var out = [String: String]()
            var select = try RawStatement(db, "SELECT device, person FROM doc_device WHERE doc = ?")
            select.bind(doc.bytes)
            try select.forEachRow(db) { row in out[row.string(0)] = row.string(1) }
            return out
        }
    }

    /// Whether a revocation of `device` is held in `doc`.
    public func isDeviceRevoked(_ device: PublicKey, in doc: DocumentID) throws(StoreError) -> Bool {
        try read { db in try !Store.events(db, doc: doc, member: Store.deviceMember(device.hex)).isEmpty }
    }

    // MARK: Revocations learned, and rotations owed

    /// Keeps a revocation (checked by the caller); returns whether it is new here.
    @discardableResult
    public func saveRevocation(_ revocation: DeviceRevocation) throws(StoreError) -> Bool {
        try write { db in
            try db.execute(
                sql: """
                    INSERT OR IGNORE INTO device_revocation(device, person, record, revoked_ms) VALUES (?, ?, ?, ?)
                    """,
                arguments: [
                    Data(revocation.device.bytes), Data(revocation.person.bytes), Data(revocation.encoded),
                    revocation.revokedMs,
                ])
            return db.changesCount > 0
        }
    }

    /// Every revocation kept, of `person`'s devices when given.
    public func revocations(of person: PublicKey? = nil) throws(StoreError) -> [DeviceRevocation] {
        try read { db in
            let rows: [Data]
            if let person {
                rows = try Data.fetchAll(
                    db, sql: "SELECT record FROM device_revocation WHERE person = ?", arguments: [Data(person.bytes)])
            } else {
                rows = try Data.fetchAll(db, sql: "SELECT record FROM device_revocation")
            }
            return rows.compactMap { try? DeviceRevocation(decoding: [UInt8]($0)) }
        }
    }

    /// Whether a revocation of `device` by `person` is kept. A revocation bars a device for the
    /// person who signed it only (devices.md §3): anyone can sign "I revoke key D" for any D.
    public func isRevoked(device: PublicKey, of person: PublicKey) throws(StoreError) -> Bool {
        try read { db in
            try Bool.fetchOne(
                db, sql: "SELECT 1 FROM device_revocation WHERE device = ? AND person = ?",
                arguments: [Data(device.bytes), Data(person.bytes)]) ?? false
        }
    }

    /// Notes that `doc`'s key must move (a device of one of its members was revoked).
    public func owesRotation(_ doc: DocumentID, sinceMs: Int64) throws(StoreError) {
        try write { db in
            try db.execute(
                sql: "INSERT OR IGNORE INTO rotation_due(doc, since_ms) VALUES (?, ?)",
                arguments: [Data(doc.bytes), sinceMs])
        }
    }

    /// The documents whose key must still move.
    public func rotationsOwed() throws(StoreError) -> [DocumentID] {
        try read { db in
            try Data.fetchAll(db, sql: "SELECT doc FROM rotation_due").compactMap { DocumentID(bytes: [UInt8]($0)) }
        }
    }

    /// The rotation of `doc` is done.
    public func rotated(_ doc: DocumentID) throws(StoreError) {
        try write { db in try db.execute(sql: "DELETE FROM rotation_due WHERE doc = ?", arguments: [Data(doc.bytes)]) }
    }
}
