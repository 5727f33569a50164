import Foundation
import GRDB
import PlacesCrypto
import PlacesModel

/// Friends and the feed (`Protocol/sync.md` §7.3): friendships and requests, who each post of
/// this person went to, and notifications. None of these are ops: they are this device's.
extension Store {
    /// Most notifications kept: the oldest go first.
    public static let maxNotifications = 1_000

    /// Where a friendship stands, as this daemon sees it.
    public enum FriendState: String, Sendable {
        /// This person asked them; no answer yet.
        case requested
        /// Both agreed.
        case friend
        /// Ended, by either side.
        case ended
    }

    public struct FriendRecord: Sendable, Hashable {
        public var key: [UInt8]
        public var state: FriendState
        public var name: String
        public var sinceMs: Int64
    }

    public func friends() throws(StoreError) -> [FriendRecord] {
        try read { db in
            try Row.fetchAll(db, sql: "SELECT key, state, name, since_ms FROM friend ORDER BY since_ms, key")
                .compactMap(Store.friend)
        }
    }

    public func friend(_ key: [UInt8]) throws(StoreError) -> FriendRecord? {
        try read { db in
            try Row.fetchOne(
                db, sql: "SELECT key, state, name, since_ms FROM friend WHERE key = ?", arguments: [Data(key)]
            ).flatMap(Store.friend)
        }
    }

    /// Records where a friendship stands (a name given is kept; an empty one keeps the old).
    public func setFriend(_ key: [UInt8], state: FriendState, name: String, timeMs: Int64) throws(StoreError) {
        try write { db in
            try db.execute(
                sql: """
                    INSERT INTO friend(key, state, name, since_ms) VALUES (?, ?, ?, ?)
                    ON CONFLICT(key) DO UPDATE SET state = excluded.state, since_ms = excluded.since_ms,
                        name = CASE WHEN excluded.name = '' THEN name ELSE excluded.name END
                    """, arguments: [Data(key), state.rawValue, name, timeMs])
            try Self.markPerson(db, .friend, HexCoding.encode(key))
        }
        notePersonMarked()
    }

    private static func friend(_ row: Row) -> FriendRecord? {
        guard let state = FriendState(rawValue: row[1]) else { return nil }
        return FriendRecord(key: [UInt8](row[0] as Data), state: state, name: row[2], sinceMs: row[3])
    }

    // MARK: Who a post went to

    /// Records the readers a post was written for (its audience, fixed when posting).
    public func setReaders(of post: EntityID, _ readers: [[UInt8]]) throws(StoreError) {
        try write { db in
            for reader in readers {
                try db.execute(
                    sql: "INSERT OR IGNORE INTO post_reader(post, reader) VALUES (?, ?)",
                    arguments: [post, Data(reader)])
            }
        }
    }

    /// The readers a post of this person's was written for.
    public func readers(of post: EntityID) throws(StoreError) -> Set<[UInt8]> {
        try read { db in
            Set(
                try Data.fetchAll(db, sql: "SELECT reader FROM post_reader WHERE post = ?", arguments: [post])
                    .map { [UInt8]($0) })
        }
    }

    // MARK: The feed

    /// Live posts in `docs`, newest first (by creation time, then id), before `cursor`: the
    /// newest `limit` of each document read through `entity_post` (a seek per document, never
    /// a sort of every post), merged.
    public func posts(in docs: [DocumentID], before cursor: (ms: Int64, id: String)?, limit: Int) throws(StoreError)
        -> [EntityRecord]
    {
        guard !docs.isEmpty, limit > 0 else { return [] }
        return try read { db in
            var clause = "INDEXED BY entity_post WHERE e.kind = 'post' AND e.deleted = 0 AND e.doc = ?"
            if cursor != nil {
                clause += " AND (e.created_ms < ? OR (e.created_ms = ? AND e.id < ?))"
            }
            clause += " ORDER BY e.created_ms DESC, e.id DESC LIMIT ?"
            var all = [EntityRecord]()
            for doc in docs {
                all += try Store.fetchEntities(db, clause) {
                    $0.bind(doc.bytes)
                    if let cursor {
                        $0.bind(cursor.ms)
                        $0.bind(cursor.ms)
                        $0.bind(cursor.id)
                    }
                    $0.bind(limit)
                }
            }
            all.sort { a, b in
                let x = a.createdMs ?? 0, y = b.createdMs ?? 0
                return x != y ? x > y : a.id > b.id
            }
            return Array(all.prefix(limit))
        }
    }

    /// The reactions (live or deleted) on `posts` in `docs`.
    public func reactions(to posts: [EntityID], in docs: [DocumentID]) throws(StoreError) -> [EntityRecord] {
        guard !posts.isEmpty, !docs.isEmpty else { return [] }
        return try read { db in
            let postMarks = Array(repeating: "?", count: posts.count).joined(separator: ",")
            let docMarks = Array(repeating: "?", count: docs.count).joined(separator: ",")
            return try Store.fetchEntities(
                db, "WHERE e.kind = 'reaction' AND e.ref IN (\(postMarks)) AND e.doc IN (\(docMarks))"
            ) {
                for post in posts { $0.bind(post) }
                for doc in docs { $0.bind(doc.bytes) }
            }
        }
    }

    // MARK: Photos

    /// What is known of a photo: its media type, size and dimensions (from its header when it
    /// was added here, or from the post or card that named it).
    public struct PhotoRecord: Sendable, Hashable {
        public var id: String
        public var contentType: String
        public var bytes: Int64
        public var width: Int
        public var height: Int

        public init(id: String, contentType: String, bytes: Int64, width: Int, height: Int) {
            self.id = id
            self.contentType = contentType
            self.bytes = bytes
            self.width = width
            self.height = height
        }
    }

    /// Keeps a photo's details and who gave it (`source`: the author whose post or card it came
    /// through, this person's key for a photo added here). A photo given again (after it was
    /// collected) takes its new giver.
    public func savePhoto(_ photo: PhotoRecord, source: [UInt8], timeMs: Int64) throws(StoreError) {
        try write { db in
            try db.execute(
                sql: """
                    INSERT INTO photo(id, content_type, bytes, width, height, added_ms, source)
                    VALUES (?, ?, ?, ?, ?, ?, ?)
                    ON CONFLICT(id) DO UPDATE SET source = excluded.source
                    """,
                arguments: [
                    photo.id, photo.contentType, photo.bytes, photo.width, photo.height, timeMs, Data(source),
                ])
        }
    }

    /// Records `source` as the giver of photos held (this person's, when they post them).
    public func claimPhotos(_ ids: [String], source: [UInt8]) throws(StoreError) {
        try write { db in
            for id in ids {
                try db.execute(sql: "UPDATE photo SET source = ? WHERE id = ?", arguments: [Data(source), id])
            }
        }
    }

    /// Who gave each photo that has a known giver, by photo id (photos kept before the giver
    /// was recorded are absent).
    public func photoSources() throws(StoreError) -> [String: [UInt8]] {
        try read { db in
            var out = [String: [UInt8]]()
            for row in try Row.fetchAll(db, sql: "SELECT id, source FROM photo WHERE source IS NOT NULL") {
                if let source = row[1] as Data? { out[row[0]] = [UInt8](source) }
            }
            return out
        }
    }

    public func photo(_ id: String) throws(StoreError) -> PhotoRecord? {
        try read { db in
            try Row.fetchOne(
                db, sql: "SELECT id, content_type, bytes, width, height FROM photo WHERE id = ?", arguments: [id]
            ).map { PhotoRecord(id: $0[0], contentType: $0[1], bytes: $0[2], width: $0[3], height: $0[4]) }
        }
    }

    // MARK: Notifications

    public struct NotificationRecord: Sendable, Hashable {
        public var id: Int64
        public var type: String
        public var actor: [UInt8]
        public var subject: String
        public var atMs: Int64
        public var read: Bool
    }

    /// Records a notification once per `dedup` key (an event seen again adds nothing); keeps
    /// the newest `maxNotifications`. Returns whether it was new.
    @discardableResult
    public func addNotification(type: String, actor: [UInt8], subject: String, atMs: Int64, dedup: String)
        throws(StoreError) -> Bool
    {
        try write { db in
            try db.execute(
                sql: """
                    INSERT OR IGNORE INTO notification(type, actor, subject, at_ms, dedup) VALUES (?, ?, ?, ?, ?)
                    """, arguments: [type, Data(actor), subject, atMs, dedup])
            let added = db.changesCount > 0
            if added {
                try db.execute(
                    sql: """
                        DELETE FROM notification WHERE id <= (SELECT id FROM notification ORDER BY id DESC
                            LIMIT 1 OFFSET ?)
                        """, arguments: [Store.maxNotifications])
            }
            return added
        }
    }

    /// Notifications, newest first.
    public func notifications(limit: Int) throws(StoreError) -> [NotificationRecord] {
        try read { db in
            try Row.fetchAll(
                db, sql: "SELECT id, type, actor, subject, at_ms, read FROM notification ORDER BY id DESC LIMIT ?",
                arguments: [limit]
            ).map { row in
                NotificationRecord(
                    id: row[0], type: row[1], actor: [UInt8](row[2] as Data), subject: row[3], atMs: row[4],
                    read: (row[5] as Int64) != 0)
            }
        }
    }

    public func unreadNotifications() throws(StoreError) -> Int {
        try read { db in try Int.fetchOne(db, sql: "SELECT count(*) FROM notification WHERE read = 0") ?? 0 }
    }

    /// Marks `ids` read (all when nil); returns how many changed.
    @discardableResult
    public func markNotificationsRead(_ ids: [Int64]?) throws(StoreError) -> Int {
        try write { db in
            if let ids {
                for id in ids { try db.execute(sql: "UPDATE notification SET read = 1 WHERE id = ?", arguments: [id]) }
            } else {
                try db.execute(sql: "UPDATE notification SET read = 1 WHERE read = 0")
            }
            return db.changesCount
        }
    }
}

extension Store {
    /// The `photos` of every post held (live or deleted), with whether the post is deleted and
    /// its author (the owner of the outbox it is in; a trip message's own author): what photo
    /// collection keeps and drops.
    public func postPhotoLists() throws(StoreError) -> [(photos: String, deleted: Bool, author: [UInt8])] {
        try read { db in
            try Row.fetchAll(
                db,
                sql: """
                    SELECT json_extract(e.data, '$.photos'), e.deleted, d.owner,
                        CASE WHEN e.kind = 'message' AND d.kind = 'itinerary' THEN json_extract(e.data, '$.author') END
                    FROM entity e JOIN document d ON d.id = e.doc
                    WHERE e.kind IN ('post', 'message') AND json_extract(e.data, '$.photos') IS NOT NULL
                    """
            ).compactMap { row in
                guard let photos = row[0] as String?, let owner = row[2] as Data? else { return nil }
                // A trip message's author is its `author`, which only its author can write
                // (sync.md §8.1); the itinerary's owner is not. Elsewhere the owner is.
                let author = (row[3] as String?).flatMap(HexCoding.decode).map { [UInt8]($0) } ?? [UInt8](owner)
                return (photos, (row[1] as Int64) != 0, author)
            }
        }
    }

    /// Photos added on this device since `ms`.
    public func photoIDs(addedSince ms: Int64) throws(StoreError) -> [String] {
        try read { db in try String.fetchAll(db, sql: "SELECT id FROM photo WHERE added_ms >= ?", arguments: [ms]) }
    }
}

extension Schema {
    /// The feed's indexes on `entity` (migration v9), made again when a rebuild drops the table.
    static func createSocialIndexes(_ db: Database) throws {
        try db.execute(
            sql: """
                CREATE INDEX IF NOT EXISTS entity_post ON entity(doc, created_ms, id) WHERE kind = 'post' AND deleted = 0;
                CREATE INDEX IF NOT EXISTS entity_reaction ON entity(ref) WHERE kind = 'reaction';
                """)
    }
}
