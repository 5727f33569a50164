import Foundation
import GRDB
import PlacesAccess
import PlacesModel

extension Store {
    /// Keeps a grant (to forward it to its member later).
    public func saveGrant(_ grant: KeyGrant) throws(StoreError) {
        try write { db in
            try db.execute(
                sql: """
                    INSERT OR REPLACE INTO key_grant(doc, epoch, member, sealed, issuer, signature, issuer_cert, person)
                    VALUES (?, ?, ?, ?, ?, ?, ?, ?)
                    """,
                arguments: [
                    Data(grant.doc.bytes), Int64(grant.epoch), Data(grant.member), Data(grant.sealedKey),
                    Data(grant.issuer), Data(grant.signature), grant.issuerCert.map { Data($0.encoded) },
                    Data(grant.issuerPerson),
                ])
        }
    }

    /// How many grants are held for `doc`.
    public func grantCount(in doc: DocumentID) throws(StoreError) -> Int {
        try read { db in
            try Int.fetchOne(db, sql: "SELECT count(*) FROM key_grant WHERE doc = ?", arguments: [Data(doc.bytes)]) ?? 0
        }
    }

    /// Grants held for `member` in `doc` (every member's when `member` is nil).
    public func grants(for member: [UInt8]? = nil, in doc: DocumentID) throws(StoreError) -> [KeyGrant] {
        try read { db in
            try Row.fetchAll(
                db,
                sql: "SELECT * FROM key_grant WHERE doc = ? AND (? IS NULL OR member = ?) ORDER BY member, epoch",
                arguments: [Data(doc.bytes), member.map { Data($0) }, member.map { Data($0) }]
            ).map { row in
                KeyGrant(
                    doc: doc, epoch: UInt32(row["epoch"] as Int64), member: [UInt8](row["member"] as Data),
                    sealedKey: [UInt8](row["sealed"] as Data), issuer: [UInt8](row["issuer"] as Data),
                    signature: [UInt8](row["signature"] as Data),
                    issuerCert: (row["issuer_cert"] as Data?).flatMap { try? DeviceCertificate(decoding: [UInt8]($0)) })
            }
        }
    }

    /// Members the owner (or a device of the owner's, with its certificate) vouches for by grant alone (`Protocol/sync.md` §7, "Who is told about
    /// what"): those named by an owner-signed grant of the newest epoch this daemon holds a
    /// grant of, for whom it holds no role event yet (a daemon that accepted an invitation
    /// holds grants before the ops that make their members members). A role event, once held,
    /// decides: `removed` and `left` end the vouching with the membership. A removal rotates
    /// the key, so a removed member has no grant of the newest epoch either.
    public func grantVouchedMembers(of doc: DocumentID) throws(StoreError) -> [[UInt8]] {
        try read { db in
            try Data.fetchAll(
                db,
                sql: """
                    SELECT g.member FROM key_grant g JOIN document d ON d.id = g.doc AND g.person = d.owner
                    WHERE g.doc = ?1 AND g.epoch = (
                        SELECT MAX(epoch) FROM key_grant WHERE doc = ?1 AND person = d.owner)
                    AND NOT EXISTS (
                        SELECT 1 FROM entity WHERE doc = ?1 AND kind = 'member' AND id = lower(hex(g.member)))
                    ORDER BY g.member
                    """, arguments: [Data(doc.bytes)]
            ).map { [UInt8]($0) }
        }
    }

    /// Registers a document received from a peer, with this daemon's key for it (the
    /// grant's sealed key, which is sealed to this identity).
    public func joinDocument(_ grant: KeyGrant, kind: DocumentKind, owner: [UInt8], timeMs: Int64) throws(StoreError) {
        try write { db in
            try db.execute(
                sql: "INSERT OR IGNORE INTO document(id, kind, owner, created_ms) VALUES (?, ?, ?, ?)",
                arguments: [Data(grant.doc.bytes), kind.rawValue, Data(owner), timeMs])
            try db.execute(
                sql: "INSERT OR REPLACE INTO doc_key(doc, epoch, sealed) VALUES (?, ?, ?)",
                arguments: [Data(grant.doc.bytes), Int64(grant.epoch), Data(grant.sealedKey)])
        }
        try saveGrant(grant)
    }

    /// Registers a document this daemon joins through a link, with its owner.
    public func registerDocument(_ id: DocumentID, kind: DocumentKind, owner: [UInt8], timeMs: Int64)
        throws(StoreError)
    {
        try write { db in
            try db.execute(
                sql: "INSERT OR IGNORE INTO document(id, kind, owner, created_ms) VALUES (?, ?, ?, ?)",
                arguments: [Data(id.bytes), kind.rawValue, Data(owner), timeMs])
        }
    }

    /// Keeps a document key of one epoch, sealed to this identity.
    public func addDocumentKey(_ doc: DocumentID, epoch: UInt32, sealed: [UInt8]) throws(StoreError) {
        try write { db in
            try db.execute(
                sql: "INSERT OR REPLACE INTO doc_key(doc, epoch, sealed) VALUES (?, ?, ?)",
                arguments: [Data(doc.bytes), Int64(epoch), Data(sealed)])
        }
    }

    // MARK: Peers

    /// A peer as remembered between runs.
    public struct PeerRecord: Sendable, Hashable {
        public var key: [UInt8]
        public var name: String
        public var address: String?
        public var lastSeenMs: Int64?
    }

    /// Records that `key` was seen (connected) at `address`.
    public func rememberPeer(key: [UInt8], name: String, address: String?, timeMs: Int64) throws(StoreError) {
        try write { db in
            try db.execute(
                sql: """
                    INSERT INTO peer(key, name, address, last_seen_ms) VALUES (?, ?, ?, ?)
                    ON CONFLICT(key) DO UPDATE SET name = excluded.name,
                        address = coalesce(excluded.address, address), last_seen_ms = excluded.last_seen_ms
                    """, arguments: [Data(key), name, address, timeMs])
        }
    }

    /// Every peer ever connected.
    public func peers() throws(StoreError) -> [PeerRecord] {
        try read { db in
            try Row.fetchAll(db, sql: "SELECT * FROM peer ORDER BY name, key").map { row in
                PeerRecord(
                    key: [UInt8](row["key"] as Data), name: row["name"], address: row["address"],
                    lastSeenMs: row["last_seen_ms"])
            }
        }
    }

    /// Adds a static peer address (`HOST:PORT`).
    public func addStaticPeer(_ address: String) throws(StoreError) {
        try write { db in
            try db.execute(sql: "INSERT OR IGNORE INTO static_peer(address) VALUES (?)", arguments: [address])
        }
    }

    /// The static peer addresses.
    public func staticPeers() throws(StoreError) -> [String] {
        try read { db in try String.fetchAll(db, sql: "SELECT address FROM static_peer ORDER BY address") }
    }
}
