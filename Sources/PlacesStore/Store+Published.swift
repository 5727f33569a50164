import Foundation
import GRDB
import PlacesModel

/// Published trips (`Protocol/sync.md` §7.5): which published document each itinerary of this
/// person has, where others' published trips came from (the bounds on strangers' trips), the
/// trips saved, and this person's likes of others' trips. None of these are ops.
extension Store {
    /// One of this person's publications.
    public struct PublicationRecord: Sendable, Hashable {
        public var itinerary: DocumentID
        public var published: DocumentID
        /// `friends`, `group` or `network`.
        public var audience: String
        /// The group's id when `audience` is `group`.
        public var group: String?
        /// What the published document's id is derived from with the owner's key (16 bytes).
        public var salt: [UInt8]

        public init(itinerary: DocumentID, published: DocumentID, audience: String, group: String?, salt: [UInt8]) {
            self.itinerary = itinerary
            self.published = published
            self.audience = audience
            self.group = group
            self.salt = salt
        }
    }

    public func publications() throws(StoreError) -> [PublicationRecord] {
        try read { db in
            try Row.fetchAll(db, sql: "SELECT itinerary, published, audience, grp, salt FROM publication").compactMap(
                Self.publicationRecord)
        }
    }

    /// The publication of one itinerary, if any (a lookup by key: publishing must not read
    /// every publication per trip published).
    public func publication(itinerary: DocumentID) throws(StoreError) -> PublicationRecord? {
        try read { db in
            try Row.fetchOne(
                db, sql: "SELECT itinerary, published, audience, grp, salt FROM publication WHERE itinerary = ?",
                arguments: [Data(itinerary.bytes)]
            ).flatMap(Self.publicationRecord)
        }
    }

    private static func publicationRecord(_ row: Row) -> PublicationRecord? {
        guard let itinerary = DocumentID(bytes: [UInt8](row[0] as Data)),
            let published = DocumentID(bytes: [UInt8](row[1] as Data))
        else { return nil }
        return PublicationRecord(
            itinerary: itinerary, published: published, audience: row[2], group: row[3], salt: [UInt8](row[4] as Data))
    }

    public func savePublication(_ record: PublicationRecord) throws(StoreError) {
        try write { db in
            try db.execute(
                sql: """
                    INSERT OR REPLACE INTO publication(itinerary, published, audience, grp, salt)
                    VALUES (?, ?, ?, ?, ?)
                    """,
                arguments: [
                    Data(record.itinerary.bytes), Data(record.published.bytes), record.audience, record.group,
                    Data(record.salt),
                ])
        }
    }

    public func removePublication(itinerary: DocumentID) throws(StoreError) {
        try write { db in
            try db.execute(sql: "DELETE FROM publication WHERE itinerary = ?", arguments: [Data(itinerary.bytes)])
        }
    }

    // MARK: Others' trips

    /// Where another's published trip came from and when its author last offered it.
    public struct PublishedOrigin: Sendable, Hashable {
        public var doc: DocumentID
        public var address: String
        public var seenMs: Int64
    }

    public func publishedOrigins() throws(StoreError) -> [PublishedOrigin] {
        try read { db in
            try Row.fetchAll(db, sql: "SELECT doc, address, seen_ms FROM published_origin").compactMap { row in
                DocumentID(bytes: [UInt8](row[0] as Data)).map {
                    PublishedOrigin(doc: $0, address: row[1], seenMs: row[2])
                }
            }
        }
    }

    public func notePublishedOrigin(_ doc: DocumentID, address: String, timeMs: Int64) throws(StoreError) {
        try write { db in
            try db.execute(
                sql: "INSERT OR REPLACE INTO published_origin(doc, address, seen_ms) VALUES (?, ?, ?)",
                arguments: [Data(doc.bytes), String(address.prefix(100)), timeMs])
        }
    }

    /// Forgets another's published trip: its ops, state, origin, saved mark and this person's
    /// like of it.
    public func dropPublished(_ doc: DocumentID) throws(StoreError) {
        try write { db in
            for table in ["published_origin", "trip_saved", "trip_like_mine"] {
                try db.execute(sql: "DELETE FROM \(table) WHERE doc = ?", arguments: [Data(doc.bytes)])
            }
        }
        try purgeDocument(doc)
    }

    // MARK: Saved trips and likes

    /// The trips saved, newest first, with when.
    public func savedTrips() throws(StoreError) -> [(doc: DocumentID, savedMs: Int64)] {
        try read { db in
            try Row.fetchAll(db, sql: "SELECT doc, saved_ms FROM trip_saved ORDER BY saved_ms DESC").compactMap { row in
                DocumentID(bytes: [UInt8](row[0] as Data)).map { (doc: $0, savedMs: row[1] as Int64) }
            }
        }
    }

    public func setSaved(_ doc: DocumentID, _ saved: Bool, timeMs: Int64) throws(StoreError) {
        try write { db in
            if saved {
                try db.execute(
                    sql: "INSERT OR IGNORE INTO trip_saved(doc, saved_ms) VALUES (?, ?)",
                    arguments: [Data(doc.bytes), timeMs])
            } else {
                try db.execute(sql: "DELETE FROM trip_saved WHERE doc = ?", arguments: [Data(doc.bytes)])
            }
            if db.changesCount > 0 { try Self.markPerson(db, .saved, doc.hex) }
        }
        notePersonMarked()
    }

    /// This person's like (or unlike) of another's trip, signed, as sent to its author.
    public struct TripLikeRecord: Sendable, Hashable {
        public var doc: DocumentID
        public var liked: Bool
        /// RFC 3339, as the signature covers it.
        public var at: String
        /// 128 lowercase hex.
        public var signature: String

        public init(doc: DocumentID, liked: Bool, at: String, signature: String) {
            self.doc = doc
            self.liked = liked
            self.at = at
            self.signature = signature
        }
    }

    public func myTripLikes() throws(StoreError) -> [TripLikeRecord] {
        try read { db in
            try Row.fetchAll(db, sql: "SELECT doc, liked, at, signature FROM trip_like_mine").compactMap { row in
                DocumentID(bytes: [UInt8](row[0] as Data)).map {
                    TripLikeRecord(doc: $0, liked: (row[1] as Int64) != 0, at: row[2], signature: row[3])
                }
            }
        }
    }

    public func saveMyTripLike(_ like: TripLikeRecord) throws(StoreError) {
        try write { db in
            try db.execute(
                sql: "INSERT OR REPLACE INTO trip_like_mine(doc, liked, at, signature) VALUES (?, ?, ?, ?)",
                arguments: [Data(like.doc.bytes), like.liked ? 1 : 0, like.at, like.signature])
        }
    }
}

extension Store {
    /// The bytes of ops stored for `doc` (the bound on another's published trip).
    public func opBytes(of doc: DocumentID) throws(StoreError) -> Int64 {
        try read { db in
            try Int64.fetchOne(
                db, sql: "SELECT COALESCE(SUM(LENGTH(bytes)), 0) FROM op WHERE doc = ?", arguments: [Data(doc.bytes)])
                ?? 0
        }
    }
}
