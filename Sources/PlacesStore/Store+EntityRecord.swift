import Foundation
import PlacesModel

extension Store.EntityRecord {
    /// A record made outside the store (a view of what would be written).
    public init(unstored doc: DocumentID, id: EntityID, kind: EntityKind, dataJSON: String, position: String?) {
        self.doc = doc
        self.id = id
        self.kind = kind
        self.dataJSON = dataJSON
        self.position = position
        self.deleted = false
        self.createdMs = Int64(Date().timeIntervalSince1970 * 1000)
    }
}
