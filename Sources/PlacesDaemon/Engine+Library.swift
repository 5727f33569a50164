import PlacesAPI
import PlacesCrypto
import PlacesModel
import PlacesStore

/// Places and favorites routes: `LibraryService` reads and decides, the engine commits.
extension Engine {
    /// The library of the logged-in identity.
    func libraryService() throws -> LibraryService { LibraryService(store: store, doc: try library()) }

    /// Entity lookups by id or prefix (place ids resolve in the library).
    var lookup: EntityLookup { EntityLookup(store: store, library: account.libraryDoc) }

    func places() throws -> PlaceList { try libraryService().places() }

    func place(_ reference: String) throws -> Place { try libraryService().place(reference) }

    func createPlace(_ body: [String: JSONValue]) throws -> Place {
        let library = try libraryService()
        let (edit, id) = try library.createPlace(try filledFromGazetteer(try filledFromFriends(body)))
        try commit(edit)
        return try library.place(id)
    }

    func updatePlace(_ reference: String, _ body: [String: JSONValue]) throws -> Place {
        let library = try libraryService()
        let record = try library.placeRecord(reference)
        if let edit = try library.updatePlace(record, body) { try commit(edit) }
        return try library.place(record.id)
    }

    func deletePlace(_ reference: String) throws { try commit(try libraryService().deletePlace(reference)) }

    /// The body of `GET /v1/favorites`, cached while the store's commit generation stays
    /// where it was when the body was read (any committed write moves it, whoever made it).
    func favoritesJSON() throws -> [UInt8] {
        let doc = try library()
        let generation = store.generations.current
        if let cached = responseCache["favorites"], cached.doc == doc, cached.generation == generation {
            keptFavorites.keep(cached.bytes, generation: generation)
            return cached.bytes
        }
        let bytes = try libraryService().favorites().jsonBytes()
        responseCache["favorites"] = CachedResponse(doc: doc, generation: generation, bytes: bytes)
        keptFavorites.keep(bytes, generation: generation)
        return bytes
    }

    func favorites() throws -> FavoriteList { try libraryService().favorites() }

    func addFavorite(_ request: AddFavoriteRequest) throws -> Favorite {
        let library = try libraryService()
        let (edit, id) = try library.addFavorite(request)
        try commit(edit)
        guard let favorite = try library.favorites().favorites.first(where: { $0.id == id }) else {
            throw ServiceError.notFound("the favorite vanished")
        }
        return favorite
    }

    func moveFavorite(_ reference: String, to position: Int) throws -> FavoriteList {
        let library = try libraryService()
        try commit(try library.moveFavorite(reference, to: position))
        return try library.favorites()
    }

    func removeFavorite(_ reference: String) throws { try commit(try libraryService().removeFavorite(reference)) }
}

enum SecureRandomBytes {
    static func make(_ n: Int) -> [UInt8] { SecureRandom.bytes(n) }
}
