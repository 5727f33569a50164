import PlacesAPI
import PlacesModel
import PlacesStore

/// Places and favorites: the library document. Reads its views from the store and turns
/// requests into edits for the engine to commit; it holds no state of its own.
struct LibraryService {
    let store: Store
    /// The library document.
    let doc: DocumentID

    var lookup: EntityLookup { EntityLookup(store: store, library: doc) }

    // MARK: Places

    /// Every live place of the library, in store order.
    func placeRecords() throws -> [Store.EntityRecord] {
        try ServiceError.storing { () throws(StoreError) in try store.entities(in: doc, kind: .place) }
    }

    func places() throws -> PlaceList {
        let favorites = try favoritedPlaceIDs()
        let list = try ServiceError.storing { () throws(StoreError) in try store.entities(in: doc, kind: .place) }
            .map { Views.place($0, favorite: favorites.contains($0.id)) }
            .sorted { ($0.name.lowercased(), $0.id) < ($1.name.lowercased(), $1.id) }
        return PlaceList(places: list, count: list.count)
    }

    func place(_ reference: String) throws -> Place {
        let record = try placeRecord(reference)
        return Views.place(record, favorite: try favoritedPlaceIDs().contains(record.id))
    }

    func placeRecord(_ reference: String) throws -> Store.EntityRecord {
        try lookup.resolve(reference, in: doc, kind: .place, what: "place")
    }

    /// A new place (`id`) with the fields given.
    func createPlace(_ body: [String: JSONValue]) throws -> (edit: Edit, id: String) {
        let fields = try FieldRule.validate(body, rules: FieldRule.place, creating: true)
        let id = EntityLookup.newID()
        var changes: [Change] = [.create(entity: id, kind: .place)]
        for (field, value) in fields where !value.isNull {
            changes.append(.set(entity: id, kind: .place, field: field, value: value, old: nil))
        }
        let summary = "place \(fields.first { $0.0 == "name" }?.1.description ?? "") added"
        return (Edit(doc: doc, changes: changes, summary: summary), id)
    }

    /// The fields that change, nil when none does.
    func updatePlace(_ record: Store.EntityRecord, _ body: [String: JSONValue]) throws -> Edit? {
        let fields = try FieldRule.validate(body, rules: FieldRule.place, creating: false)
        let current = Views.fields(record)
        let changes: [Change] = fields.compactMap { field, value in
            let old = current[field] ?? .null
            guard old != value else { return nil }
            return .set(entity: record.id, kind: .place, field: field, value: value, old: old)
        }
        guard !changes.isEmpty else { return nil }
        return Edit(doc: doc, changes: changes, summary: "place \(current["name"]?.description ?? record.id) edited")
    }

    func deletePlace(_ reference: String) throws -> Edit {
        let record = try placeRecord(reference)
        var changes: [Change] = [
            .tombstone(entity: record.id, kind: .place)
        ]
        // Its heart goes with it; itineraries keep their own copy of the place.
        for fav in try ServiceError.storing({ () throws(StoreError) in
            try store.entities(in: doc, kind: .favorite, referencing: record.id)
        }) {
            changes.append(.tombstone(entity: fav.id, kind: .favorite))
        }
        return Edit(
            doc: doc, changes: changes,
            summary: "place \(Views.fields(record)["name"]?.description ?? record.id) removed")
    }

    // MARK: Favorites

    func favorites() throws -> FavoriteList {
        let rows = try ServiceError.storing { () throws(StoreError) in try store.favoriteRows(in: doc) }
        let list = rows.enumerated().map { i, row in
            Favorite(
                id: row.id, placeId: row.placeID, name: row.name, latitude: row.latitude, longitude: row.longitude,
                position: i + 1, addedAt: RFC3339.string(ms: row.createdMs))
        }
        return FavoriteList(favorites: list, count: list.count)
    }

    /// A new favorite (`id`) of a place not a favorite yet.
    func addFavorite(_ request: AddFavoriteRequest) throws -> (edit: Edit, id: String) {
        let placeRecord = try placeRecord(request.placeId)
        let existing = try favoriteRecords()
        if let already = existing.first(where: { $0.ref == placeRecord.id }) {
            throw ServiceError.conflict(
                "already-favorite", "the place is already a favorite (favorite \(already.id.prefix(8)))")
        }
        let key = try EntityLookup.positionKey(at: request.position, among: existing)
        let id = EntityLookup.newID()
        var favorite = EntityWrite<FavoriteFields>.create(id)
        favorite.set(FavoriteFields.placeID, to: placeRecord.id)
        favorite.set(FavoriteFields.position, to: key)
        let changes = favorite.changes
        let summary = "\(Views.fields(placeRecord)["name"]?.description ?? "place") hearted"
        return (Edit(doc: doc, changes: changes, summary: summary), id)
    }

    func moveFavorite(_ reference: String, to position: Int) throws -> Edit {
        let record = try favoriteRecord(reference)
        let others = try favoriteRecords().filter { $0.id != record.id }
        let key = try EntityLookup.positionKey(at: position, among: others)
        return Edit(
            doc: doc,
            changes: [
                .set(FavoriteFields.position, of: record.id, to: key, old: record.position)
            ],
            summary: "favorite moved to \(position)")
    }

    func removeFavorite(_ reference: String) throws -> Edit {
        let record = try favoriteRecord(reference)
        return Edit(
            doc: doc,
            changes: [
                .tombstone(entity: record.id, kind: .favorite)
            ],
            summary: "favorite removed")
    }

    /// A favorite by its id or its place's.
    private func favoriteRecord(_ reference: String) throws -> Store.EntityRecord {
        try lookup.resolve(reference, in: doc, kind: .favorite, alsoBy: "placeId", what: "favorite")
    }

    /// Live favorites whose place is live too: exactly the list `GET /v1/favorites` shows,
    /// so that positions given by the user count the same items.
    func favoriteRecords() throws -> [Store.EntityRecord] {
        try ServiceError.storing { () throws(StoreError) in
            try store.entitiesWithLiveReference(in: doc, kind: .favorite)
        }
    }

    private func favoritedPlaceIDs() throws -> Set<String> {
        Set(try ServiceError.storing { () throws(StoreError) in try store.favoriteRows(in: doc) }.map(\.placeID))
    }
}
