import Foundation
import GRDB
import PlacesCrypto
import PlacesModel

extension Store {
    /// Whether storing `op` changed no entity row but those its changes name: it is held and
    /// materialized (not excluded), and its author has no conflicting ops in the document (an
    /// equivocating author's op re-materializes the whole document). An op that removes a
    /// member, revokes a link or a device also re-materializes it: its changes name `member`,
    /// `link` or `device` entities, which the caller reads in the op's body. For caches kept
    /// current by re-reading the entities an op names (the expense ledger).
    public func changedOnlyItsEntities(_ op: SignedOp) throws(StoreError) -> Bool {
        let id = Data(Blake2b.hash256(op.signedBytes))
        let (doc, author) = (Data(op.header.doc.bytes), Data(op.header.author))
        return try read { db in
            let excluded = try Bool.fetchOne(db, sql: "SELECT excluded FROM op WHERE id = ?", arguments: [id])
            let conflicting = try Bool.fetchOne(
                db, sql: "SELECT 1 FROM op WHERE doc = ? AND author = ? AND conflict = 1 LIMIT 1",
                arguments: [doc, author])
            return excluded == false && conflicting == nil
        }
    }
}
