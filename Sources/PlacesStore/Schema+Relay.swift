import GRDB

/// The blind relay's tables (`Protocol/relay.md`), created by the `relay-1`, `relay-2` and
/// `relay-blobs` migrations (`Schema.migrator`).
extension Schema {
    /// The blind relay (`Protocol/relay.md`): on a relay, the documents it keeps unopened, the
    /// opaque signed records that travel with them, its users and its single-use invitations;
    /// on a user's daemon, the relays it uses.
    static func createRelayTables(_ db: Database) throws {
        try db.execute(
            sql: """
                CREATE TABLE relayed_doc (
                    id BLOB PRIMARY KEY,
                    user BLOB NOT NULL,
                    added_ms INTEGER NOT NULL
                ) WITHOUT ROWID;
                CREATE TABLE relay_record (
                    signature BLOB PRIMARY KEY,
                    doc BLOB NOT NULL,
                    kind TEXT NOT NULL,
                    bytes BLOB NOT NULL,
                    received_ms INTEGER NOT NULL
                ) WITHOUT ROWID;
                CREATE INDEX relay_record_doc ON relay_record(doc);
                CREATE TABLE relay_user (
                    key BLOB PRIMARY KEY,
                    role TEXT NOT NULL,
                    quota_bytes INTEGER NOT NULL,
                    added_ms INTEGER NOT NULL
                ) WITHOUT ROWID;
                CREATE TABLE relay_invitation (
                    id BLOB PRIMARY KEY,
                    expires_ms INTEGER NOT NULL,
                    used_by BLOB,
                    used_ms INTEGER
                ) WITHOUT ROWID;
                CREATE TABLE relay (
                    key BLOB PRIMARY KEY,
                    address TEXT NOT NULL,
                    role TEXT NOT NULL,
                    added_ms INTEGER NOT NULL,
                    last_sync_ms INTEGER,
                    documents INTEGER NOT NULL DEFAULT 0,
                    bytes INTEGER NOT NULL DEFAULT 0,
                    quota_bytes INTEGER NOT NULL DEFAULT 0
                ) WITHOUT ROWID;
                """)
    }

    /// Signed access lists (`Protocol/relay.md` §4.1), on a relay and on a member alike: the
    /// newest list held per document and, for lookups by session key, the keys it names; the
    /// bytes of ops a relay keeps per document (what its user's quota counts); on a user's
    /// daemon, every key a relay link named (never a grant's member, relay.md §1).
    static func createRelayAccessTables(_ db: Database) throws {
        try db.execute(
            sql: """
                CREATE TABLE relay_access (
                    doc BLOB PRIMARY KEY,
                    owner BLOB NOT NULL,
                    epoch INTEGER NOT NULL,
                    issued_ms INTEGER NOT NULL,
                    kind TEXT NOT NULL,
                    bytes BLOB NOT NULL
                ) WITHOUT ROWID;
                CREATE TABLE relay_access_key (
                    key BLOB NOT NULL,
                    doc BLOB NOT NULL,
                    PRIMARY KEY (key, doc)
                ) WITHOUT ROWID;
                CREATE INDEX relay_access_key_doc ON relay_access_key(doc);
                ALTER TABLE relayed_doc ADD COLUMN bytes INTEGER NOT NULL DEFAULT 0;
                CREATE TABLE relay_named (key BLOB PRIMARY KEY) WITHOUT ROWID;
                """)
    }

    /// Photos' copies a relay keeps (`Protocol/relay.md` §8), by relay name: the document they
    /// are kept under, the member that announced them last (who they are wanted from), and
    /// their size once whole. The bytes are files under `DATA_DIR/relay-blobs`.
    static func createRelayBlobTables(_ db: Database) throws {
        try db.execute(
            sql: """
                CREATE TABLE relay_blob (
                    name BLOB PRIMARY KEY,
                    doc BLOB NOT NULL,
                    giver BLOB NOT NULL,
                    bytes INTEGER NOT NULL DEFAULT 0,
                    complete INTEGER NOT NULL DEFAULT 0,
                    added_ms INTEGER NOT NULL
                ) WITHOUT ROWID;
                CREATE INDEX relay_blob_doc ON relay_blob(doc, complete);
                CREATE INDEX relay_blob_giver ON relay_blob(giver, complete);
                """)
    }
}
