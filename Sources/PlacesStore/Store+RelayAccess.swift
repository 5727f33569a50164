import Foundation
import GRDB
import PlacesAccess
import PlacesCrypto
import PlacesModel

/// Signed access lists (`Protocol/relay.md` §4.1) and what a relay keeps per user
/// (§5): the newest list held per document, on a relay and on a member alike.
extension Store {
    /// What `saveRelayAccess` did with a list.
    public enum AccessOutcome: Sendable, Equatable {
        /// Kept: the document's first list, or one that supersedes the list held.
        case kept
        /// The list held is as new or newer: nothing changed.
        case stale
        /// Another owner's list for a document whose owner is known: refused.
        case wrongOwner
    }

    /// Keeps `access` as the document's list when it is the first one (its owner becomes the
    /// document's owner here) or supersedes the one held, which must have the same owner.
    /// `kind` is the document kind an offer named with the first list.
    public func saveRelayAccess(_ access: RelayAccess, kind: String) throws(StoreError) -> AccessOutcome {
        try write { db in
            let doc = Data(access.doc.bytes)
            if let row = try Row.fetchOne(
                db, sql: "SELECT owner, epoch, issued_ms FROM relay_access WHERE doc = ?", arguments: [doc])
            {
                guard (row["owner"] as Data) == Data(access.owner.bytes) else { return .wrongOwner }
                let held: (Int64, Int64) = (row["epoch"], row["issued_ms"])
                guard (Int64(access.epoch), access.issuedMs) > held else { return .stale }
            }
            try db.execute(
                sql: """
                    INSERT OR REPLACE INTO relay_access(doc, owner, epoch, issued_ms, kind, bytes)
                    VALUES (?, ?, ?, ?, coalesce((SELECT kind FROM relay_access WHERE doc = ?), ?), ?)
                    """,
                arguments: [
                    doc, Data(access.owner.bytes), Int64(access.epoch), access.issuedMs, doc, kind,
                    Data(access.encoded),
                ])
            try db.execute(sql: "DELETE FROM relay_access_key WHERE doc = ?", arguments: [doc])
            for key in access.keys {
                try db.execute(
                    sql: "INSERT INTO relay_access_key(key, doc) VALUES (?, ?)", arguments: [Data(key.bytes), doc])
            }
            return .kept
        }
    }

    /// The newest list held for `doc` and the kind it was first offered as.
    public func relayAccess(of doc: DocumentID) throws(StoreError) -> (access: RelayAccess, kind: String)? {
        try read { db in
            guard
                let row = try Row.fetchOne(
                    db, sql: "SELECT kind, bytes FROM relay_access WHERE doc = ?", arguments: [Data(doc.bytes)]),
                let access = try? RelayAccess(decoding: [UInt8](row["bytes"] as Data))
            else { return nil }
            return (access, row["kind"])
        }
    }

    /// The bytes of the newest list held for `doc`, not decoded.
    public func relayAccessBytes(of doc: DocumentID) throws(StoreError) -> [UInt8]? {
        try read { db in
            try Data.fetchOne(db, sql: "SELECT bytes FROM relay_access WHERE doc = ?", arguments: [Data(doc.bytes)])
                .map { [UInt8]($0) }
        }
    }

    /// The documents whose newest list names `key`, at most `limit`.
    public func relayAccessDocuments(for key: PublicKey, limit: Int = 10_000) throws(StoreError) -> [DocumentID] {
        try read { db in
            try Data.fetchAll(
                db, sql: "SELECT doc FROM relay_access_key WHERE key = ? ORDER BY doc LIMIT ?",
                arguments: [Data(key.bytes), limit]
            ).compactMap { DocumentID(bytes: [UInt8]($0)) }
        }
    }

    /// Whether some list held names `key`.
    public func isOnRelayAccess(_ key: PublicKey) throws(StoreError) -> Bool {
        try read { db in
            try Bool.fetchOne(
                db, sql: "SELECT 1 FROM relay_access_key WHERE key = ? LIMIT 1", arguments: [Data(key.bytes)])
                ?? false
        }
    }

    /// What a relay keeps charged to `user` (the documents it brought first): documents and
    /// bytes of their ops.
    public func relayUsage(of user: PublicKey) throws(StoreError) -> (documents: Int, bytes: Int64) {
        try read { db in
            let row = try Row.fetchOne(
                db, sql: "SELECT count(*), coalesce(sum(bytes), 0) FROM relayed_doc WHERE user = ?",
                arguments: [Data(user.bytes)])
            return (row?[0] ?? 0, row?[1] ?? 0)
        }
    }

    /// The user a relayed document is charged to, nil when the relay does not keep it.
    public func relayedDocUser(_ doc: DocumentID) throws(StoreError) -> PublicKey? {
        try read { db in
            guard
                let data = try Data.fetchOne(
                    db, sql: "SELECT user FROM relayed_doc WHERE id = ?", arguments: [Data(doc.bytes)])
            else { return nil }
            return try? PublicKey(bytes: [UInt8](data))
        }
    }

    /// The bytes of ops a relay keeps of `doc`, 0 when it keeps none.
    public func relayedDocBytes(_ doc: DocumentID) throws(StoreError) -> Int64 {
        try read { db in
            try Int64.fetchOne(db, sql: "SELECT bytes FROM relayed_doc WHERE id = ?", arguments: [Data(doc.bytes)])
                ?? 0
        }
    }

    /// A relay user's quota in bytes, nil for a stranger.
    public func relayQuota(of user: PublicKey) throws(StoreError) -> Int64? {
        try read { db in
            try Int64.fetchOne(
                db, sql: "SELECT quota_bytes FROM relay_user WHERE key = ?", arguments: [Data(user.bytes)])
        }
    }

    /// Records the documents and bytes a relay reports keeping of this person's.
    public func noteRelayUsage(_ relay: PublicKey, documents: Int, bytes: Int64, quotaBytes: Int64, timeMs: Int64)
        throws(StoreError)
    {
        try write { db in
            try db.execute(
                sql: "UPDATE relay SET documents = ?, bytes = ?, quota_bytes = ?, last_sync_ms = ? WHERE key = ?",
                arguments: [documents, bytes, quotaBytes, timeMs, Data(relay.bytes)])
        }
    }

    // MARK: Keys relay links named (on a user's daemon)

    /// Remembers that a relay link named `key`: it is never a grant's member from now on.
    public func noteRelayKey(_ key: PublicKey) throws(StoreError) {
        try write { db in
            try db.execute(sql: "INSERT OR IGNORE INTO relay_named(key) VALUES (?)", arguments: [Data(key.bytes)])
        }
    }

    /// Every key a relay link added here named (relays removed since included).
    public func relayKeysNamed() throws(StoreError) -> Set<PublicKey> {
        try read { db in
            Set(
                try Data.fetchAll(db, sql: "SELECT key FROM relay_named").compactMap {
                    try? PublicKey(bytes: [UInt8]($0))
                })
        }
    }
}
