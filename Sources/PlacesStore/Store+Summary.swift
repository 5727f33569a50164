import Foundation
import GRDB
import PlacesModel

/// What a session's opening summary says of each document besides its vector
/// (`Protocol/sync.md` §7, "The opening summary"), read for all documents at once: a
/// reconnect with thousands of shared trips reads three statements, not thousands.
extension Store {
    /// A document's newest grants and access list, as the summary hashes them.
    public struct SummaryFacts: Sendable {
        /// The newest key epoch of which a grant is held, and the members holding one of it.
        public var grantEpoch: UInt32 = 0
        public var grantMembers: [[UInt8]] = []
        /// The newest access list held: its epoch and `issuedMs`.
        public var access: (epoch: UInt32, issuedMs: Int64)?
    }

    /// The facts of every document with a grant or an access list, and the documents in
    /// which some author equivocated (they are never summarized: a vector cannot tell their
    /// branches apart).
    public func summaryFacts() throws(StoreError) -> (facts: [DocumentID: SummaryFacts], equivocated: Set<DocumentID>) {
        try read { db in
            var facts = [DocumentID: SummaryFacts]()
            let grants = try Row.fetchCursor(
                db,
                sql: """
                    SELECT DISTINCT g.doc, g.epoch, g.member FROM key_grant g
                    WHERE g.epoch = (SELECT MAX(epoch) FROM key_grant WHERE doc = g.doc)
                    """)
            while let row = try grants.next() {
                guard let doc = DocumentID(bytes: [UInt8](row["doc"] as Data)),
                    let epoch = UInt32(exactly: row["epoch"] as Int64)
                else { continue }
                facts[doc, default: SummaryFacts()].grantEpoch = epoch
                facts[doc, default: SummaryFacts()].grantMembers.append([UInt8](row["member"] as Data))
            }
            let lists = try Row.fetchCursor(db, sql: "SELECT doc, epoch, issued_ms FROM relay_access")
            while let row = try lists.next() {
                guard let doc = DocumentID(bytes: [UInt8](row["doc"] as Data)),
                    let epoch = UInt32(exactly: row["epoch"] as Int64)
                else { continue }
                facts[doc, default: SummaryFacts()].access = (epoch, row["issued_ms"])
            }
            let equivocated = try Data.fetchAll(db, sql: "SELECT DISTINCT doc FROM op WHERE conflict = 1")
                .compactMap { DocumentID(bytes: [UInt8]($0)) }
            return (facts, Set(equivocated))
        }
    }
}
