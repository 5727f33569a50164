import Foundation
import GRDB
import PlacesCrypto

/// A relay's users and invitations (`Protocol/relay.md` §3): single-use links remembered by
/// id, and the persons who redeemed one.
extension Store {
    /// Why a relay link cannot be redeemed.
    public enum RedeemRefusal: String, Error, Sendable, Equatable {
        case unknownLink = "unknown-link", used, expired
    }

    /// Remembers a link the relay issued.
    public func addRelayInvitation(id: [UInt8], expiresMs: Int64) throws(StoreError) {
        try write { db in
            try db.execute(
                sql: "INSERT INTO relay_invitation(id, expires_ms) VALUES (?, ?)", arguments: [Data(id), expiresMs])
        }
    }

    /// Redeems invitation `id` for `user` in one write: refused when unknown, used or expired;
    /// otherwise the link is marked used and `user` becomes the owner (no user yet) or a user,
    /// with `quotaBytes`. A user redeeming a second link keeps its role. Returns the role.
    public func redeemRelayInvitation(id: [UInt8], by user: PublicKey, nowMs: Int64, quotaBytes: Int64)
        throws(StoreError) -> Result<String, RedeemRefusal>
    {
        try write { db in
            guard
                let row = try Row.fetchOne(
                    db, sql: "SELECT expires_ms, used_by FROM relay_invitation WHERE id = ?", arguments: [Data(id)])
            else { return .failure(.unknownLink) }
            if (row["used_by"] as Data?) != nil { return .failure(.used) }
            guard nowMs < (row["expires_ms"] as Int64) else { return .failure(.expired) }
            try db.execute(
                sql: "UPDATE relay_invitation SET used_by = ?, used_ms = ? WHERE id = ?",
                arguments: [Data(user.bytes), nowMs, Data(id)])
            if let role = try String.fetchOne(
                db, sql: "SELECT role FROM relay_user WHERE key = ?", arguments: [Data(user.bytes)])
            {
                return .success(role)
            }
            let role = try Int.fetchOne(db, sql: "SELECT count(*) FROM relay_user") == 0 ? "owner" : "user"
            try db.execute(
                sql: "INSERT INTO relay_user(key, role, quota_bytes, added_ms) VALUES (?, ?, ?, ?)",
                arguments: [Data(user.bytes), role, quotaBytes, nowMs])
            return .success(role)
        }
    }

    /// A relay user's role, nil for a stranger.
    public func relayUserRole(_ key: PublicKey) throws(StoreError) -> String? {
        try read { db in
            try String.fetchOne(db, sql: "SELECT role FROM relay_user WHERE key = ?", arguments: [Data(key.bytes)])
        }
    }

    /// How many users the relay has and the sum of their quotas.
    public func relayUserTotals() throws(StoreError) -> (users: Int, quotaBytes: Int64) {
        try read { db in
            let row = try Row.fetchOne(db, sql: "SELECT count(*), coalesce(sum(quota_bytes), 0) FROM relay_user")
            return (row?[0] ?? 0, row?[1] ?? 0)
        }
    }

    /// Deletes invitations past their expiry (used or not) older than `beforeMs`: the table
    /// stays bounded by the rate of `invite`.
    public func dropExpiredRelayInvitations(beforeMs: Int64) throws(StoreError) {
        try write { db in
            try db.execute(sql: "DELETE FROM relay_invitation WHERE expires_ms < ?", arguments: [beforeMs])
        }
    }
}

/// The relays a person's daemon uses (`Protocol/relay.md` §5).
extension Store {
    /// A relay this daemon redeemed a link with.
    public struct RelayRecord: Sendable, Equatable {
        public var key: PublicKey
        public var address: String
        /// The role the relay gave this person there: `owner` or `user`.
        public var role: String
        public var addedMs: Int64
        public var lastSyncMs: Int64?
        public var documents: Int
        public var bytes: Int64
        public var quotaBytes: Int64

        public init(
            key: PublicKey, address: String, role: String, addedMs: Int64, lastSyncMs: Int64?, documents: Int,
            bytes: Int64, quotaBytes: Int64
        ) {
            self.key = key
            self.address = address
            self.role = role
            self.addedMs = addedMs
            self.lastSyncMs = lastSyncMs
            self.documents = documents
            self.bytes = bytes
            self.quotaBytes = quotaBytes
        }
    }

    /// Records (or updates) a relay after its link was redeemed.
    public func saveRelay(_ relay: RelayRecord) throws(StoreError) {
        try write { db in
            try db.execute(
                sql: """
                    INSERT OR REPLACE INTO relay(key, address, role, added_ms, last_sync_ms, documents, bytes, quota_bytes)
                    VALUES (?, ?, ?, ?, ?, ?, ?, ?)
                    """,
                arguments: [
                    Data(relay.key.bytes), relay.address, relay.role, relay.addedMs, relay.lastSyncMs, relay.documents,
                    relay.bytes, relay.quotaBytes,
                ])
        }
    }

    /// The relays this daemon uses, oldest first.
    public func relays() throws(StoreError) -> [RelayRecord] {
        try read { db in
            try Row.fetchAll(
                db,
                sql: """
                    SELECT key, address, role, added_ms, last_sync_ms, documents, bytes, quota_bytes FROM relay
                    ORDER BY added_ms, key
                    """
            ).compactMap { row in
                guard let key = try? PublicKey(bytes: [UInt8](row["key"] as Data)) else { return nil }
                return RelayRecord(
                    key: key, address: row["address"], role: row["role"], addedMs: row["added_ms"],
                    lastSyncMs: row["last_sync_ms"], documents: row["documents"], bytes: row["bytes"],
                    quotaBytes: row["quota_bytes"])
            }
        }
    }

    /// Removes a static peer address (a relay forgotten).
    public func removeStaticPeer(_ address: String) throws(StoreError) {
        try write { db in try db.execute(sql: "DELETE FROM static_peer WHERE address = ?", arguments: [address]) }
    }

    /// Forgets a relay; returns whether it was there.
    public func removeRelay(_ key: PublicKey) throws(StoreError) -> Bool {
        try write { db in
            try db.execute(sql: "DELETE FROM relay WHERE key = ?", arguments: [Data(key.bytes)])
            return db.changesCount > 0
        }
    }
}
