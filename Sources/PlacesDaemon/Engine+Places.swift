import Foundation
import PlacesAPI
import PlacesCrypto
import PlacesModel
import PlacesStore

extension Engine {
    func places() throws(Problem) -> PlaceList {
        let doc = try library()
        let favorites = try favoritedPlaceIDs(doc)
        let list = try storeCall { () throws(StoreError) in try store.entities(in: doc, kind: .place) }
            .map { Views.place($0, favorite: favorites.contains($0.id)) }
            .sorted { ($0.name.lowercased(), $0.id) < ($1.name.lowercased(), $1.id) }
        return PlaceList(places: list, count: list.count)
    }

    func place(_ reference: String) throws(Problem) -> Place {
        let doc = try library()
        let record = try resolve(reference, in: doc, kind: .place, what: "place")
        return Views.place(record, favorite: try favoritedPlaceIDs(doc).contains(record.id))
    }

    func createPlace(_ body: [String: JSONValue]) throws(Problem) -> Place {
        let doc = try library()
        let fields = try FieldRule.validate(body, rules: FieldRule.place, creating: true)
        let id = newEntityID()
        var changes: [Change] = [.create(entity: id, kind: .place)]
        for (field, value) in fields where !value.isNull {
            changes.append(.set(entity: id, kind: .place, field: field, value: value, old: nil))
        }
        try commit(doc, changes, summary: "place \(fields.first { $0.0 == "name" }?.1.description ?? "") added")
        return try place(id)
    }

    func updatePlace(_ reference: String, _ body: [String: JSONValue]) throws(Problem) -> Place {
        let doc = try library()
        let record = try resolve(reference, in: doc, kind: .place, what: "place")
        let fields = try FieldRule.validate(body, rules: FieldRule.place, creating: false)
        let current = Views.fields(record)
        let changes: [Change] = fields.compactMap { field, value in
            let old = current[field] ?? .null
            guard old != value else { return nil }
            return .set(entity: record.id, kind: .place, field: field, value: value, old: old)
        }
        if !changes.isEmpty {
            try commit(doc, changes, summary: "place \(current["name"]?.description ?? record.id) edited")
        }
        return try place(record.id)
    }

    func deletePlace(_ reference: String) throws(Problem) {
        let doc = try library()
        let record = try resolve(reference, in: doc, kind: .place, what: "place")
        var changes: [Change] = [
            .set(entity: record.id, kind: .place, field: "deleted", value: .bool(true), old: .bool(false))
        ]
        // Its heart goes with it; itineraries keep their own copy of the place.
        for fav in try storeCall({ () throws(StoreError) in
            try store.entities(in: doc, kind: .favorite, referencing: record.id)
        }) {
            changes.append(
                .set(entity: fav.id, kind: .favorite, field: "deleted", value: .bool(true), old: .bool(false)))
        }
        try commit(doc, changes, summary: "place \(Views.fields(record)["name"]?.description ?? record.id) removed")
    }

    // MARK: Favorites

    /// The body of `GET /v1/favorites`, cached until the library next changes (every change
    /// goes through `commit`, which drops the cache).
    func favoritesJSON() throws(Problem) -> [UInt8] {
        let doc = try library()
        if let cached = responseCache["favorites"], cached.doc == doc { return cached.bytes }
        let bytes = try favorites().jsonBytes()
        responseCache["favorites"] = (doc, bytes)
        return bytes
    }

    func favorites() throws(Problem) -> FavoriteList {
        let doc = try library()
        let rows = try storeCall { () throws(StoreError) in try store.favoriteRows(in: doc) }
        let list = rows.enumerated().map { i, row in
            Favorite(
                id: row.id, placeId: row.placeID, name: row.name, latitude: row.latitude, longitude: row.longitude,
                position: i + 1, addedAt: RFC3339.string(ms: row.createdMs))
        }
        return FavoriteList(favorites: list, count: list.count)
    }

    func addFavorite(_ request: AddFavoriteRequest) throws(Problem) -> Favorite {
        let doc = try library()
        let placeRecord = try resolve(request.placeId, in: doc, kind: .place, what: "place")
        let existing = try favoriteRecords(doc)
        if let already = existing.first(where: { $0.ref == placeRecord.id }) {
            throw Problem.conflict(
                "already-favorite", "the place is already a favorite (favorite \(already.id.prefix(8)))")
        }
        let key = try positionKey(at: request.position, among: existing)
        let id = newEntityID()
        try commit(
            doc,
            [
                .create(entity: id, kind: .favorite),
                .set(entity: id, kind: .favorite, field: "placeId", value: .string(placeRecord.id), old: nil),
                .set(entity: id, kind: .favorite, field: "position", value: .string(key), old: nil),
            ], summary: "\(Views.fields(placeRecord)["name"]?.description ?? "place") hearted")
        guard let favorite = try favorites().favorites.first(where: { $0.id == id }) else {
            throw Problem.notFound("the favorite vanished")
        }
        return favorite
    }

    func moveFavorite(_ reference: String, to position: Int) throws(Problem) -> FavoriteList {
        let doc = try library()
        let record = try resolve(reference, in: doc, kind: .favorite, alsoBy: "placeId", what: "favorite")
        let others = try favoriteRecords(doc).filter { $0.id != record.id }
        let key = try positionKey(at: position, among: others)
        try commit(
            doc,
            [
                .set(
                    entity: record.id, kind: .favorite, field: "position", value: .string(key),
                    old: record.position.map(JSONValue.string))
            ],
            summary: "favorite moved to \(position)")
        return try favorites()
    }

    func removeFavorite(_ reference: String) throws(Problem) {
        let doc = try library()
        let record = try resolve(reference, in: doc, kind: .favorite, alsoBy: "placeId", what: "favorite")
        try commit(
            doc, [.set(entity: record.id, kind: .favorite, field: "deleted", value: .bool(true), old: .bool(false))],
            summary: "favorite removed")
    }

    /// Live favorites whose place is live too: exactly the list `GET /v1/favorites` shows,
    /// so that positions given by the user count the same items.
    func favoriteRecords(_ doc: DocumentID) throws(Problem) -> [Store.EntityRecord] {
        try storeCall { () throws(StoreError) in try store.entitiesWithLiveReference(in: doc, kind: .favorite) }
    }

    private func favoritedPlaceIDs(_ doc: DocumentID) throws(Problem) -> Set<String> {
        Set(try storeCall { () throws(StoreError) in try store.favoriteRows(in: doc) }.map(\.placeID))
    }

    func newEntityID() -> String { HexCoding.encode(SecureRandomBytes.make(16)) }
}

enum SecureRandomBytes {
    static func make(_ n: Int) -> [UInt8] { SecureRandom.bytes(n) }
}
