import PlacesAPI
import PlacesModel
import PlacesStore

/// Finds entities by the ids (or unique prefixes) users type, and places new items in
/// ordered lists (favorites, places to go).
struct EntityLookup {
    let store: Store
    /// The library, where place ids are looked up when a reference is not an entity's own.
    let library: DocumentID?

    /// Finds the entity of `kind` whose id is `reference` or starts with it (≥ 4 hex
    /// characters, unique), or whose field `alsoBy` equals it (e.g. a favorite by place id).
    func resolve(
        _ reference: String, in doc: DocumentID, kind: EntityKind, alsoBy field: String? = nil, what: String
    ) throws -> Store.EntityRecord {
        let ref = reference.lowercased()
        guard ref.utf8.count >= 4, HexCoding.decode(ref.count % 2 == 0 ? ref : ref + "0") != nil else {
            throw ServiceError.invalid("id", "'\(reference)' is not an id: ids are hex, give at least 4 characters")
        }
        var matches = try ServiceError.storing { () throws(StoreError) in
            try store.entities(in: doc, kind: kind, idPrefix: ref)
        }
        if let exact = matches.first(where: { $0.id == ref }) { return exact }
        if matches.isEmpty, field != nil {
            let target = (try? resolveAnyPlaceID(ref)) ?? ref
            matches = try ServiceError.storing { () throws(StoreError) in
                try store.entities(in: doc, kind: kind, referencing: target)
            }
        }
        guard !matches.isEmpty else { throw ServiceError.notFound("no \(what) with id '\(reference)'") }
        guard matches.count == 1 else {
            throw ServiceError.invalid("id", "'\(reference)' matches \(matches.count) \(what)s: give more characters")
        }
        return matches[0]
    }

    /// A place id from a full id or unique prefix in the library.
    func resolveAnyPlaceID(_ reference: String) throws -> String {
        guard let library else {
            throw ServiceError(
                .stillSyncing,
                "this device is still receiving your library from your other device: try again in a few seconds")
        }
        return try resolve(reference, in: library, kind: .place, what: "place").id
    }

    /// The fractional key that puts an item at 1-based `position` among `items` (already in
    /// list order, without the item being placed). nil or past-the-end = append.
    static func positionKey(at position: Int?, among items: [Store.EntityRecord]) throws -> String {
        if let position, position < 1 || position > items.count + 1 {
            throw ServiceError.invalid("position", "position \(position) is out of range: use 1 to \(items.count + 1)")
        }
        let index = (position ?? items.count + 1) - 1
        let lower = index > 0 ? items[index - 1].position : nil
        // Equal keys can come from concurrent inserts: look for the next strictly greater one.
        let upper = items[index...].lazy.compactMap(\.position).first { lower == nil || $0 > lower! }
        let key = FractionalIndex.between(lower, upper)
        if FractionalIndex.isValid(key) { return key }
        // A peer may hold the last key there is (256 'z's, op-format §6.4): a key after it is
        // longer than peers accept, and an op with it would be refused with every later op of
        // this daemon in the document. At the end, the new entry goes just before it.
        if index == items.count { return try ItemService.keyAtEnd(of: items.compactMap(\.position)) }
        return try ItemService.valid(key, at: position)
    }

    /// A fresh entity id.
    static func newID() -> String { HexCoding.encode(SecureRandomBytes.make(16)) }
}
