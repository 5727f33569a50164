import PlacesAPI
import PlacesModel
import PlacesStore

extension Engine {
    /// Finds the entity of `kind` whose id is `reference` or starts with it (≥ 4 hex
    /// characters, unique), or whose field `alsoBy` equals it (e.g. a favorite by place id).
    func resolve(
        _ reference: String, in doc: DocumentID, kind: EntityKind, alsoBy field: String? = nil, what: String
    ) throws(Problem) -> Store.EntityRecord {
        let ref = reference.lowercased()
        guard ref.utf8.count >= 4, HexCoding.decode(ref.count % 2 == 0 ? ref : ref + "0") != nil else {
            throw Problem.invalid("id", "'\(reference)' is not an id: ids are hex, give at least 4 characters")
        }
        var matches = try storeCall { () throws(StoreError) in try store.entities(in: doc, kind: kind, idPrefix: ref) }
        if let exact = matches.first(where: { $0.id == ref }) { return exact }
        if matches.isEmpty, field != nil {
            let target = (try? resolveAnyPlaceID(ref)) ?? ref
            matches = try storeCall { () throws(StoreError) in
                try store.entities(in: doc, kind: kind, referencing: target)
            }
        }
        guard !matches.isEmpty else { throw Problem.notFound("no \(what) with id '\(reference)'") }
        guard matches.count == 1 else {
            throw Problem.invalid("id", "'\(reference)' matches \(matches.count) \(what)s: give more characters")
        }
        return matches[0]
    }

    /// A place id from a full id or unique prefix in the library.
    func resolveAnyPlaceID(_ reference: String) throws(Problem) -> String {
        try resolve(reference, in: try library(), kind: .place, what: "place").id
    }

    /// The fractional key that puts an item at 1-based `position` among `items` (already in
    /// list order, without the item being placed). nil or past-the-end = append.
    func positionKey(at position: Int?, among items: [Store.EntityRecord]) throws(Problem) -> String {
        if let position, position < 1 || position > items.count + 1 {
            throw Problem.invalid("position", "position \(position) is out of range: use 1 to \(items.count + 1)")
        }
        let index = (position ?? items.count + 1) - 1
        let lower = index > 0 ? items[index - 1].position : nil
        // Equal keys can come from concurrent inserts: look for the next strictly greater one.
        let upper = items[index...].lazy.compactMap(\.position).first { lower == nil || $0 > lower! }
        return FractionalIndex.between(lower, upper)
    }
}
