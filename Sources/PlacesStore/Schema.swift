import GRDB

/// The database schema, built by migrations. Tables fall in two groups:
/// - the log and its metadata (`document`, `doc_key`, `op`, `head`): the source of truth;
/// - the materialized tables (`entity`, with each entity's field stamps in its row, and
///   `activity`, `member_event`): a pure function of the op log, which
///   `Store.rebuildMaterialized` drops and replays.
enum Schema {
    static let materializedTables = ["entity", "activity", "member_event", "doc_device"]

    static var migrator: DatabaseMigrator {
        var m = DatabaseMigrator()
        m.registerMigration("v1") { db in
            try db.execute(
                sql: """
                    CREATE TABLE document (
                        id BLOB PRIMARY KEY,
                        kind TEXT NOT NULL,
                        owner BLOB NOT NULL,
                        created_ms INTEGER NOT NULL
                    );
                    CREATE TABLE doc_key (
                        doc BLOB NOT NULL REFERENCES document(id) ON DELETE CASCADE,
                        epoch INTEGER NOT NULL,
                        sealed BLOB NOT NULL,
                        PRIMARY KEY (doc, epoch)
                    );
                    CREATE TABLE op (
                        id BLOB PRIMARY KEY,
                        doc BLOB NOT NULL,
                        author BLOB NOT NULL,
                        seq INTEGER NOT NULL,
                        lamport INTEGER NOT NULL,
                        epoch INTEGER NOT NULL,
                        bytes BLOB NOT NULL,
                        UNIQUE (doc, author, seq)
                    );
                    CREATE INDEX op_doc_lamport ON op(doc, lamport);
                    CREATE TABLE head (
                        doc BLOB NOT NULL,
                        op BLOB NOT NULL,
                        PRIMARY KEY (doc, op)
                    ) WITHOUT ROWID;
                    """)
            try createMaterializedV1(db)
        }
        m.registerMigration("v2-sync") { db in
            try db.execute(
                sql: """
                    ALTER TABLE op ADD COLUMN vv TEXT NOT NULL DEFAULT '';
                    CREATE TABLE key_grant (
                        doc BLOB NOT NULL REFERENCES document(id) ON DELETE CASCADE,
                        epoch INTEGER NOT NULL,
                        member BLOB NOT NULL,
                        sealed BLOB NOT NULL,
                        issuer BLOB NOT NULL,
                        signature BLOB NOT NULL,
                        PRIMARY KEY (doc, epoch, member)
                    );
                    CREATE TABLE peer (
                        key BLOB PRIMARY KEY,
                        name TEXT NOT NULL DEFAULT '',
                        address TEXT,
                        last_seen_ms INTEGER
                    );
                    CREATE TABLE static_peer (address TEXT PRIMARY KEY);
                    """)
            // member_event as it was in v2 (v3 adds `token`).
            try db.execute(
                sql: """
                    CREATE TABLE member_event (
                        doc BLOB NOT NULL, member TEXT NOT NULL, role TEXT NOT NULL, author TEXT NOT NULL,
                        seq INTEGER NOT NULL, lamport INTEGER NOT NULL, idx INTEGER NOT NULL
                    );
                    CREATE INDEX member_event_doc ON member_event(doc, member);
                    """)
        }
        m.registerMigration("v3-links") { db in
            // Ops concurrent with their author's removal are kept but not materialized;
            // joins through a link record the link's token id.
            try db.execute(
                sql: """
                    ALTER TABLE op ADD COLUMN excluded INTEGER NOT NULL DEFAULT 0;
                    ALTER TABLE member_event ADD COLUMN token TEXT;
                    ALTER TABLE member_event ADD COLUMN time_ms INTEGER NOT NULL DEFAULT 0;
                    CREATE INDEX member_event_token ON member_event(doc, token);
                    """)
        }
        m.registerMigration("v4-stamps-in-entity") { db in
            // Field stamps move into the entity row (the `field` table cost a random B-tree
            // insert and a read per op); `activity` loses its random `(op, idx)` key (rows
            // are appended in rowid order); `op_doc_lamport` goes (a document's highest
            // Lamport time is that of one of its heads). Migrations run without the keyring,
            // so the stamps are moved in SQL, in the text `Stamps.encode` writes.
            try db.execute(
                sql: """
                    ALTER TABLE entity ADD COLUMN stamps TEXT NOT NULL DEFAULT '{}';
                    UPDATE entity SET stamps = (
                        SELECT json_group_object(name, json_array(lamport, author, idx)) FROM (
                            SELECT name, lamport, author, idx FROM field f
                            WHERE f.doc = entity.doc AND f.entity = entity.id ORDER BY name))
                    WHERE EXISTS (SELECT 1 FROM field f WHERE f.doc = entity.doc AND f.entity = entity.id);
                    DROP TABLE field;
                    ALTER TABLE activity RENAME TO activity_v3;
                    DROP INDEX activity_doc;
                    """)
            try createActivity(db)
            try db.execute(
                sql: """
                    INSERT INTO activity(op, idx, doc, time_ms, lamport, author, action, entity, kind, field, old, new)
                    SELECT op, idx, doc, time_ms, lamport, author, action, entity, kind, field, old, new
                    FROM activity_v3 ORDER BY rowid;
                    DROP TABLE activity_v3;
                    DROP INDEX op_doc_lamport;
                    """)
        }
        m.registerMigration("v5-equivocation") { db in
            // A second op at one (doc, author, seq) is kept (an equivocation, `Protocol/sync.md`
            // §7): the unique key becomes a plain index, and `conflict` marks every op at an
            // equivocated (author, seq). The log keeps its rowids (its order).
            try db.execute(
                sql: """
                    CREATE TABLE op_v5 (
                        id BLOB PRIMARY KEY,
                        doc BLOB NOT NULL,
                        author BLOB NOT NULL,
                        seq INTEGER NOT NULL,
                        lamport INTEGER NOT NULL,
                        epoch INTEGER NOT NULL,
                        bytes BLOB NOT NULL,
                        vv TEXT NOT NULL DEFAULT '',
                        excluded INTEGER NOT NULL DEFAULT 0,
                        conflict INTEGER NOT NULL DEFAULT 0
                    );
                    INSERT INTO op_v5(rowid, id, doc, author, seq, lamport, epoch, bytes, vv, excluded)
                    SELECT rowid, id, doc, author, seq, lamport, epoch, bytes, vv, excluded FROM op ORDER BY rowid;
                    DROP TABLE op;
                    ALTER TABLE op_v5 RENAME TO op;
                    CREATE INDEX op_author_seq ON op(doc, author, seq);
                    CREATE INDEX op_conflict ON op(doc, author) WHERE conflict = 1;
                    """)
        }
        m.registerMigration("v6-consent") { db in
            // People whose shares arrive directly, and shares from anyone else waiting for the
            // user's answer (Protocol/sync.md §7, "Consent"). Not part of the op log.
            try db.execute(
                sql: """
                    CREATE TABLE contact (
                        key BLOB PRIMARY KEY,
                        name TEXT NOT NULL DEFAULT '',
                        added_ms INTEGER NOT NULL
                    );
                    CREATE TABLE invitation (
                        doc BLOB PRIMARY KEY,
                        owner BLOB NOT NULL,
                        via BLOB NOT NULL,
                        owner_name TEXT,
                        name TEXT,
                        role TEXT,
                        epoch INTEGER NOT NULL,
                        sealed_key BLOB NOT NULL,
                        signature BLOB NOT NULL,
                        received_ms INTEGER NOT NULL,
                        declined INTEGER NOT NULL DEFAULT 0
                    );
                    CREATE INDEX invitation_owner ON invitation(owner);
                    """)
        }
        m.registerMigration("v7-member-index") { db in
            // A member's join name is looked up by key across documents (`memberName`): without
            // this index each lookup read every entity of every document.
            try db.execute(sql: "CREATE INDEX IF NOT EXISTS entity_member ON entity(id) WHERE kind = 'member'")
        }
        m.registerMigration("v8-preferences") { db in
            // This device's settings (discover's sort, favorite sharing): not ops, never synced.
            try db.execute(sql: "CREATE TABLE preference (key TEXT PRIMARY KEY, value TEXT NOT NULL)")
        }
        m.registerMigration("v9-social") { db in
            // Friends and the feed (Protocol/sync.md §7.3): friendships and requests, who each of
            // this person's posts went to (fixed when posting), notifications — none of them ops —
            // and the indexes the feed and its reaction counts read.
            try db.execute(
                sql: """
                    ALTER TABLE invitation ADD COLUMN kind TEXT NOT NULL DEFAULT 'itinerary';
                    CREATE TABLE friend (
                        key BLOB PRIMARY KEY,
                        state TEXT NOT NULL,
                        name TEXT NOT NULL DEFAULT '',
                        since_ms INTEGER NOT NULL
                    );
                    CREATE TABLE post_reader (
                        post TEXT NOT NULL,
                        reader BLOB NOT NULL,
                        PRIMARY KEY (post, reader)
                    ) WITHOUT ROWID;
                    CREATE TABLE notification (
                        id INTEGER PRIMARY KEY AUTOINCREMENT,
                        type TEXT NOT NULL,
                        actor BLOB NOT NULL,
                        subject TEXT NOT NULL,
                        at_ms INTEGER NOT NULL,
                        read INTEGER NOT NULL DEFAULT 0,
                        dedup TEXT NOT NULL UNIQUE
                    );
                    CREATE TABLE photo (
                        id TEXT PRIMARY KEY,
                        content_type TEXT NOT NULL,
                        bytes INTEGER NOT NULL,
                        width INTEGER NOT NULL,
                        height INTEGER NOT NULL,
                        added_ms INTEGER NOT NULL
                    );
                    """)
            try createSocialIndexes(db)
        }
        m.registerMigration("v10-published") { db in
            // Published trips (Protocol/sync.md §7.5): which published document each of this
            // person's itineraries has; where others' published trips came from and when their
            // author last offered them (the bounds on strangers' trips); the trips saved; this
            // person's likes of others' trips, kept until their author has them.
            try db.execute(
                sql: """
                    CREATE TABLE publication (
                        itinerary BLOB PRIMARY KEY,
                        published BLOB NOT NULL UNIQUE,
                        audience TEXT NOT NULL,
                        grp TEXT,
                        salt BLOB NOT NULL
                    );
                    CREATE TABLE published_origin (
                        doc BLOB PRIMARY KEY,
                        address TEXT NOT NULL,
                        seen_ms INTEGER NOT NULL
                    );
                    CREATE TABLE trip_saved (
                        doc BLOB PRIMARY KEY,
                        saved_ms INTEGER NOT NULL
                    );
                    CREATE TABLE trip_like_mine (
                        doc BLOB PRIMARY KEY,
                        liked INTEGER NOT NULL,
                        at TEXT NOT NULL,
                        signature TEXT NOT NULL
                    );
                    """)
        }
        m.registerMigration("v11-photo-source") { db in
            // Who gave each photo (Protocol/sync.md §7.4): the author whose post or card it came
            // through, or this person for a photo added here. A photo is kept only while a live
            // document of its giver names it. NULL for photos kept before: any live post keeps them.
            try db.execute(sql: "ALTER TABLE photo ADD COLUMN source BLOB")
        }
        m.registerMigration("v12-devices") { db in
            // Persons and devices (Protocol/devices.md §4): the person a role event's author acts
            // for (every author so far was a person), and each document's device certificates.
            try db.execute(sql: "ALTER TABLE member_event ADD COLUMN person TEXT NOT NULL DEFAULT ''")
            try db.execute(sql: "UPDATE member_event SET person = author")
            try createDocDevices(db)
            // Every device revocation this daemon learned (from documents or a peer's Hello),
            // and the documents owned here whose key must move after one (kept until done).
            try db.execute(
                sql: """
                    CREATE TABLE device_revocation (
                        device BLOB PRIMARY KEY,
                        person BLOB NOT NULL,
                        record BLOB NOT NULL,
                        revoked_ms INTEGER NOT NULL
                    ) WITHOUT ROWID;
                    CREATE TABLE rotation_due (doc BLOB PRIMARY KEY, since_ms INTEGER NOT NULL) WITHOUT ROWID;
                    """)
        }
        m.registerMigration("v13-person-state") { db in
            // Rows of the person's own tables changed here and not yet written into the
            // library document (Protocol/devices.md §4.4); every row of a data dir from before.
            try Store.createPersonDirty(db)
            try db.execute(
                sql: """
                    INSERT OR IGNORE INTO person_dirty(tbl, key)
                        SELECT 'friend', lower(hex(key)) FROM friend
                        UNION ALL SELECT 'contact', lower(hex(key)) FROM contact
                        UNION ALL SELECT 'saved', lower(hex(doc)) FROM trip_saved
                        UNION ALL SELECT 'setting', key FROM preference WHERE key NOT LIKE 'local.%'
                    """)
        }
        m.registerMigration("relay-1") { db in try createRelayTables(db) }
        m.registerMigration("v14-grant-issuer-cert") { db in
            // A grant issued by a device carries its certificate (Protocol/devices.md §4.3);
            // `person` is who the grant speaks for: the certificate's person, or the issuer.
            try db.execute(
                sql: """
                    ALTER TABLE key_grant ADD COLUMN issuer_cert BLOB;
                    ALTER TABLE key_grant ADD COLUMN person BLOB;
                    UPDATE key_grant SET person = issuer;
                    """)
        }
        m.registerMigration("relay-2") { db in try createRelayAccessTables(db) }
        m.registerMigration("relay-blobs") { db in try createRelayBlobTables(db) }
        m.registerMigration("v15-messages") { db in try createMessageIndexes(db) }
        m.registerMigration("v16-local-cache") { db in try Store.createLocalCache(db) }
        m.registerMigration("v17-message-shown") { db in try createMessageShown(db) }
        m.registerMigration("v18-message-shown-materializer") { db in try dropMessageShownEntityTriggers(db) }
        return m
    }

    /// Membership changes, one row per `role` write on a `member` entity (with the token id
    /// when it is a join through a link) and per link revocation, with the op's author and
    /// seq: authorization asks which of them are in an op's causal past.
    static func createMemberEvents(_ db: Database) throws {
        try db.execute(
            sql: """
                CREATE TABLE member_event (
                    doc BLOB NOT NULL,
                    member TEXT NOT NULL,
                    role TEXT NOT NULL,
                    author TEXT NOT NULL,
                    seq INTEGER NOT NULL,
                    lamport INTEGER NOT NULL,
                    idx INTEGER NOT NULL,
                    token TEXT,
                    time_ms INTEGER NOT NULL DEFAULT 0,
                    person TEXT NOT NULL DEFAULT ''
                );
                CREATE INDEX member_event_doc ON member_event(doc, member);
                CREATE INDEX member_event_token ON member_event(doc, token);
                """)
    }

    /// The device certificates held in each document (`Protocol/devices.md` §4.2): which person
    /// each device acts for there, from the device's first op.
    static func createDocDevices(_ db: Database) throws {
        try db.execute(
            sql: """
                CREATE TABLE doc_device (
                    doc BLOB NOT NULL,
                    device TEXT NOT NULL,
                    person TEXT NOT NULL,
                    PRIMARY KEY (doc, device)
                ) WITHOUT ROWID;
                CREATE INDEX doc_device_person ON doc_device(doc, person);
                """)
    }

    static func createMaterialized(_ db: Database) throws {
        try db.execute(
            sql: """
                CREATE TABLE entity (
                    doc BLOB NOT NULL,
                    id TEXT NOT NULL,
                    kind TEXT NOT NULL,
                    data TEXT NOT NULL DEFAULT '{}',
                    position TEXT,
                    deleted INTEGER NOT NULL DEFAULT 0,
                    ref TEXT,
                    name TEXT,
                    latitude REAL,
                    longitude REAL,
                    created_lamport INTEGER,
                    created_author TEXT,
                    created_index INTEGER,
                    created_ms INTEGER,
                    updated_ms INTEGER,
                    stamps TEXT NOT NULL DEFAULT '{}',
                    PRIMARY KEY (doc, id)
                );
                CREATE INDEX entity_list ON entity(doc, kind, deleted, position, id);
                CREATE INDEX entity_member ON entity(id) WHERE kind = 'member';
                """)
        try createActivity(db)
    }

    /// One row per activity line, in materialization order (a rowid table: a random
    /// `(op, idx)` key cost a B-tree insert per op that no query uses).
    static func createActivity(_ db: Database) throws {
        try db.execute(
            sql: """
                CREATE TABLE activity (
                    op BLOB NOT NULL,
                    idx INTEGER NOT NULL,
                    doc BLOB NOT NULL,
                    time_ms INTEGER NOT NULL,
                    lamport INTEGER NOT NULL,
                    author TEXT NOT NULL,
                    action TEXT NOT NULL,
                    entity TEXT NOT NULL,
                    kind TEXT NOT NULL,
                    field TEXT,
                    old TEXT,
                    new TEXT
                );
                CREATE INDEX activity_doc ON activity(doc, time_ms, lamport);
                """)
    }

    /// The materialized tables as the v1 migration created them (v4 changed them).
    static func createMaterializedV1(_ db: Database) throws {
        try db.execute(
            sql: """
                CREATE TABLE entity (
                    doc BLOB NOT NULL,
                    id TEXT NOT NULL,
                    kind TEXT NOT NULL,
                    data TEXT NOT NULL DEFAULT '{}',
                    position TEXT,
                    deleted INTEGER NOT NULL DEFAULT 0,
                    ref TEXT,
                    name TEXT,
                    latitude REAL,
                    longitude REAL,
                    created_lamport INTEGER,
                    created_author TEXT,
                    created_index INTEGER,
                    created_ms INTEGER,
                    updated_ms INTEGER,
                    PRIMARY KEY (doc, id)
                );
                CREATE INDEX entity_list ON entity(doc, kind, deleted, position, id);
                CREATE TABLE field (
                    doc BLOB NOT NULL,
                    entity TEXT NOT NULL,
                    name TEXT NOT NULL,
                    lamport INTEGER NOT NULL,
                    author TEXT NOT NULL,
                    idx INTEGER NOT NULL,
                    PRIMARY KEY (doc, entity, name)
                ) WITHOUT ROWID;
                CREATE TABLE activity (
                    op BLOB NOT NULL,
                    idx INTEGER NOT NULL,
                    doc BLOB NOT NULL,
                    time_ms INTEGER NOT NULL,
                    lamport INTEGER NOT NULL,
                    author TEXT NOT NULL,
                    action TEXT NOT NULL,
                    entity TEXT NOT NULL,
                    kind TEXT NOT NULL,
                    field TEXT,
                    old TEXT,
                    new TEXT,
                    PRIMARY KEY (op, idx)
                );
                CREATE INDEX activity_doc ON activity(doc, time_ms, lamport);
                """)

    }
}
