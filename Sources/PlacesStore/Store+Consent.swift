import Foundation
import GRDB
import PlacesAccess
import PlacesCrypto
import PlacesModel

/// Consent (`Protocol/sync.md` §7.1): the people whose shares this daemon accepts directly
/// (contacts), and shares from anyone else, held as invitations until the user answers.
extension Store {
    /// Most invitations kept from one owner, and in all. Further invitations are dropped
    /// (logged) until the user answers some: a stranger cannot fill the database.
    public static let maxInvitationsPerOwner = 8
    public static let maxInvitations = 256

    /// A person whose shares arrive directly.
    public struct ContactRecord: Sendable, Hashable {
        public var key: [UInt8]
        public var name: String
        public var addedMs: Int64
    }

    /// A share waiting for the user's answer: who shares it, through whom it came, what the
    /// sender said it is (shown only; the real name and role come with the ops), and the
    /// owner-signed key grant that lets this daemon read it once accepted.
    public struct InvitationRecord: Sendable, Hashable {
        public var grant: KeyGrant
        public var owner: [UInt8]
        public var via: [UInt8]
        /// The owner's profile name, as the owner's own offer gave it (nil when it came
        /// through another member).
        public var ownerName: String?
        public var name: String?
        public var role: String?
        public var receivedMs: Int64
        public var declined: Bool
        /// `itinerary` (a share) or `friend` (a friend request: the grant opens the sender's
        /// outbox to this person, `Protocol/sync.md` §7.3).
        public var kind: String
        public var doc: DocumentID { grant.doc }

        public init(
            grant: KeyGrant, owner: [UInt8], via: [UInt8], ownerName: String?, name: String?, role: String?,
            receivedMs: Int64, declined: Bool, kind: String = "itinerary"
        ) {
            self.kind = kind
            self.grant = grant
            self.owner = owner
            self.via = via
            self.ownerName = ownerName
            self.name = name
            self.role = role
            self.receivedMs = receivedMs
            self.declined = declined
        }
    }

    public func isContact(_ key: [UInt8]) throws(StoreError) -> Bool {
        try read { db in
            try Bool.fetchOne(db, sql: "SELECT 1 FROM contact WHERE key = ?", arguments: [Data(key)]) ?? false
        }
    }

    public func addContact(_ key: [UInt8], name: String, timeMs: Int64) throws(StoreError) {
        try write { db in
            try db.execute(
                sql: """
                    INSERT INTO contact(key, name, added_ms) VALUES (?, ?, ?)
                    ON CONFLICT(key) DO UPDATE SET name = CASE WHEN excluded.name = '' THEN name ELSE excluded.name END
                    """, arguments: [Data(key), name, timeMs])
            try Self.markPerson(db, .contact, HexCoding.encode(key))
        }
        notePersonMarked()
    }

    /// Removes a contact; returns whether there was one.
    public func removeContact(_ key: [UInt8]) throws(StoreError) -> Bool {
        let removed = try write { db in
            try db.execute(sql: "DELETE FROM contact WHERE key = ?", arguments: [Data(key)])
            let removed = db.changesCount > 0
            if removed { try Self.markPerson(db, .contact, HexCoding.encode(key)) }
            return removed
        }
        if removed { notePersonMarked() }
        return removed
    }

    public func contacts() throws(StoreError) -> [ContactRecord] {
        try read { db in
            try Row.fetchAll(db, sql: "SELECT key, name, added_ms FROM contact ORDER BY added_ms, key").map { row in
                ContactRecord(key: [UInt8](row[0] as Data), name: row[1], addedMs: row[2])
            }
        }
    }

    /// Outcome of recording an invitation.
    public enum InvitationOutcome: Sendable, Equatable {
        /// A new invitation was recorded.
        case recorded
        /// The same document is already invited (or was declined): nothing changed.
        case known
        /// The owner, or the daemon, holds as many invitations as allowed.
        case full
    }

    /// Records an invitation unless one for the document exists or a cap is reached.
    public func recordInvitation(_ invitation: InvitationRecord) throws(StoreError) -> InvitationOutcome {
        try write { db in
            let doc = Data(invitation.doc.bytes)
            if try Bool.fetchOne(db, sql: "SELECT 1 FROM invitation WHERE doc = ?", arguments: [doc]) ?? false {
                return .known
            }
            let fromOwner =
                try Int.fetchOne(
                    db, sql: "SELECT count(*) FROM invitation WHERE owner = ? AND declined = 0",
                    arguments: [Data(invitation.owner)]) ?? 0
            // Declined invitations do not count: answering a flood must not block later ones.
            let total = try Int.fetchOne(db, sql: "SELECT count(*) FROM invitation WHERE declined = 0") ?? 0
            guard fromOwner < Store.maxInvitationsPerOwner, total < Store.maxInvitations else { return .full }
            // The declined are kept (so they are not asked again), the newest 1,024 of them.
            try db.execute(
                sql: """
                    DELETE FROM invitation WHERE declined = 1 AND doc NOT IN
                        (SELECT doc FROM invitation WHERE declined = 1 ORDER BY received_ms DESC LIMIT 1024)
                    """)
            try db.execute(
                sql: """
                    INSERT INTO invitation(doc, owner, via, owner_name, name, role, epoch, sealed_key, signature,
                        received_ms, declined, kind)
                    VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, 0, ?)
                    """,
                arguments: [
                    doc, Data(invitation.owner), Data(invitation.via), invitation.ownerName, invitation.name,
                    invitation.role,
                    Int64(invitation.grant.epoch), Data(invitation.grant.sealedKey), Data(invitation.grant.signature),
                    invitation.receivedMs, invitation.kind,
                ])
            return .recorded
        }
    }

    /// Invitations, newest first; declined ones only when asked.
    public func invitations(includeDeclined: Bool = false) throws(StoreError) -> [InvitationRecord] {
        try read { db in
            try Row.fetchAll(
                db,
                sql: "SELECT * FROM invitation \(includeDeclined ? "" : "WHERE declined = 0 ") "
                    + "ORDER BY received_ms DESC, doc"
            ).compactMap(Store.invitation)
        }
    }

    public func invitation(_ doc: DocumentID) throws(StoreError) -> InvitationRecord? {
        try read { db in
            try Row.fetchOne(db, sql: "SELECT * FROM invitation WHERE doc = ?", arguments: [Data(doc.bytes)])
                .flatMap(Store.invitation)
        }
    }

    /// Marks an invitation declined: it stays (so the same share is not asked again) but is
    /// no longer listed and no longer counts against its owner's cap.
    public func declineInvitation(_ doc: DocumentID) throws(StoreError) {
        try write { db in
            try db.execute(sql: "UPDATE invitation SET declined = 1 WHERE doc = ?", arguments: [Data(doc.bytes)])
        }
    }

    public func deleteInvitation(_ doc: DocumentID) throws(StoreError) {
        try write { db in try db.execute(sql: "DELETE FROM invitation WHERE doc = ?", arguments: [Data(doc.bytes)]) }
    }

    private static func invitation(_ row: Row) -> InvitationRecord? {
        guard let doc = DocumentID(bytes: [UInt8](row["doc"] as Data)),
            let epoch = UInt32(exactly: row["epoch"] as Int64)
        else { return nil }
        let owner = [UInt8](row["owner"] as Data)
        let grant = KeyGrant(
            doc: doc, epoch: epoch, member: [], sealedKey: [UInt8](row["sealed_key"] as Data), issuer: owner,
            signature: [UInt8](row["signature"] as Data))
        return InvitationRecord(
            grant: grant, owner: owner, via: [UInt8](row["via"] as Data), ownerName: row["owner_name"],
            name: row["name"], role: row["role"],
            receivedMs: row["received_ms"], declined: (row["declined"] as Int64) != 0, kind: row["kind"])
    }
}

extension Store {
    /// Keys (hex) of the members whose materialized role is `removed` or `left`: their key
    /// grants are no longer handed on.
    public func formerMembers(of doc: DocumentID) throws(StoreError) -> Set<String> {
        try read { db in
            Set(
                try String.fetchAll(
                    db,
                    sql: """
                        SELECT id FROM entity WHERE doc = ? AND kind = 'member'
                        AND json_extract(data, '$.role') IN ('removed', 'left')
                        """, arguments: [Data(doc.bytes)]))
        }
    }
}
