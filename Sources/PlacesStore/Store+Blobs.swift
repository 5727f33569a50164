import GRDB
import PlacesModel

/// Which documents name a blob (`Protocol/sync.md` §7.4): a daemon gives a photo to a peer
/// only when a live entity of a document they share names it.
extension Store {
    /// Live entities of `kind` in `docs` whose data holds `text` (a photo id's hex), for the
    /// caller to check field by field: the text search only narrows the rows read.
    public func liveEntities(of kind: EntityKind, in docs: [DocumentID], containing text: String) throws(StoreError)
        -> [EntityRecord]
    {
        guard !docs.isEmpty, !text.isEmpty else { return [] }
        return try read { db in
            let marks = Array(repeating: "?", count: docs.count).joined(separator: ",")
            return try Store.fetchEntities(
                db, "WHERE \(Store.kindIs("e.kind")) AND e.deleted = 0 AND e.doc IN (\(marks)) AND instr(e.data, ?) > 0"
            ) {
                $0.bind(kind.rawValue)
                for doc in docs { $0.bind(doc.bytes) }
                $0.bind(text)
            }
        }
    }
}
