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
            // Each document's grants newest epoch first, in one pass down the primary key
            // (doc, epoch, member): the first epoch met for a document is its newest.
            let grants = try RawStatement(db, "SELECT doc, epoch, member FROM key_grant ORDER BY doc DESC, epoch DESC")
            var newest: (doc: DocumentID, epoch: UInt32)?
            try grants.forEachRow(db) { row in
                guard let doc = DocumentID(bytes: row.blob(0)), let epoch = UInt32(exactly: row.int64(1)) else {
                    return
                }
                if newest?.doc != doc {
                    newest = (doc, epoch)
                    facts[doc, default: SummaryFacts()].grantEpoch = epoch
                }
                guard newest?.epoch == epoch else { return }
                facts[doc, default: SummaryFacts()].grantMembers.append(row.blob(2))
            }
            let lists = try RawStatement(db, "SELECT doc, epoch, issued_ms FROM relay_access")
            try lists.forEachRow(db) { row in
                guard let doc = DocumentID(bytes: row.blob(0)), let epoch = UInt32(exactly: row.int64(1)) else {
                    return
                }
                facts[doc, default: SummaryFacts()].access = (epoch, row.int64(2))
            }
            let equivocated = try Data.fetchAll(db, sql: "SELECT DISTINCT doc FROM op WHERE conflict = 1")
                .compactMap { DocumentID(bytes: [UInt8]($0)) }
            return (facts, Set(equivocated))
        }
    }
}
