import Foundation
import GRDB
import PlacesModel

/// What replication asks of every shared trip at a session's opening (its vector and its
/// participants), read for all documents at once after an unlock: a daemon restarted with
/// 10,000 shared trips read them trip by trip at its first session (four transactions and
/// statements a trip, about 0.1 ms each).
extension Store {
    /// A document's owner, its members as `members(of:)` gives them (hex keys with an active role), and
    /// those its owner's grants name whose role events have not arrived
    /// (`grantVouchedMembers(of:)`).
    public struct Participants: Sendable {
        public var owner: [UInt8]
        public var members: [String] = []
        public var vouched: [[UInt8]] = []
    }

    /// Every document's version vector and every itinerary's participants, in one read.
    public func syncStates() throws(StoreError) -> (
        vectors: [DocumentID: VersionVector], participants: [DocumentID: Participants]
    ) {
        try read { db in
            let vectors = try Store.allVersionVectors(db)
            var participants = [DocumentID: Participants]()
            var owners = [DocumentID: String]()
            for record in try Store.fetchDocuments(
                db, "WHERE kind = ?", bind: { $0.bind(DocumentKind.itinerary.rawValue) })
            {
                participants[record.id] = Participants(owner: record.owner)
                owners[record.id] = HexCoding.encode(record.owner)
            }
            // Member entities of every document through the `entity_member` index, each
            // member's role decided as `members(of:)` decides it.
            let members = try RawStatement(
                db, "SELECT doc, id, json_extract(data, '$.role') FROM entity WHERE kind = 'member' AND deleted = 0")
            var candidates = [(doc: DocumentID, member: String)]()
            try members.forEachRow(db) { row in
                guard let doc = DocumentID(bytes: row.blob(0)), participants[doc] != nil, !row.isNull(2),
                    Store.activeRoles.contains(row.string(2))
                else { return }
                candidates.append((doc, row.string(1)))
            }
            for (doc, member) in candidates {
                guard let owner = owners[doc],
                    try Store.role(db, of: member, in: doc, owner: owner, causalPast: vectors[doc] ?? VersionVector())
                        != nil
                else { continue }
                participants[doc]?.members.append(member)
            }
            let vouched = try Row.fetchCursor(
                db,
                sql: """
                    SELECT g.doc, g.member FROM key_grant g JOIN document d ON d.id = g.doc AND g.person = d.owner
                    WHERE g.epoch = (SELECT MAX(epoch) FROM key_grant WHERE doc = g.doc AND person = d.owner)
                    AND NOT EXISTS (
                        SELECT 1 FROM entity WHERE doc = g.doc AND kind = 'member' AND id = lower(hex(g.member)))
                    """)
            while let row = try vouched.next() {
                guard let doc = DocumentID(bytes: [UInt8](row[0] as Data)), participants[doc] != nil else { continue }
                participants[doc]?.vouched.append([UInt8](row[1] as Data))
            }
            return (vectors, participants)
        }
    }

    /// The version vector of every document holding ops: the highest seq of each (doc,
    /// author) pair, found from the end of `op_author_seq` backwards with one seek a pair (the
    /// row before a pair's first op is the previous pair's highest seq), so the cost grows with
    /// documents and authors, not with ops. The previous pair is looked for within the
    /// document first, then before it: SQLite seeks `doc = ? AND author < ?` and `doc < ?`,
    /// but walks `(doc, author) < (?, ?)` through every op of the pair (43 ms at a million).
    static func allVersionVectors(_ db: Database) throws -> [DocumentID: VersionVector] {
        var vectors = [DocumentID: VersionVector]()
        let order = "ORDER BY doc DESC, author DESC, seq DESC LIMIT 1"
        var pair: (doc: [UInt8], author: [UInt8], seq: Int64)?
        let last = try RawStatement(db, "SELECT doc, author, seq FROM op \(order)")
        try last.forEachRow(db) { row in pair = (row.blob(0), row.blob(1), row.int64(2)) }
        while let (doc, author, seq) = pair {
            // Checked conversions: a row that is no document id or a seq below 1 (none is
            // stored: ops are checked at ingest) gives no entry instead of a trap.
            if let id = DocumentID(bytes: doc), let seq = UInt64(exactly: seq), seq > 0 {
                vectors[id, default: VersionVector()].include(HexCoding.encode(author), seq)
            }
            pair = nil
            var sameDoc = try RawStatement(
                db, "SELECT author, seq FROM op WHERE doc = ? AND author < ? ORDER BY author DESC, seq DESC LIMIT 1")
            sameDoc.bind(doc)
            sameDoc.bind(author)
            try sameDoc.forEachRow(db) { row in pair = (doc, row.blob(0), row.int64(1)) }
            guard pair == nil else { continue }
            var before = try RawStatement(db, "SELECT doc, author, seq FROM op WHERE doc < ? \(order)")
            before.bind(doc)
            try before.forEachRow(db) { row in pair = (row.blob(0), row.blob(1), row.int64(2)) }
        }
        return vectors
    }
}
