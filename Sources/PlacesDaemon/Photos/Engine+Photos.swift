import Foundation
import PlacesAPI
import PlacesBlobs
import PlacesControl
import PlacesCrypto
import PlacesMedia
import PlacesModel
import PlacesStore

/// Photos: recognized by their bytes, their metadata (EXIF location, camera serials, maker
/// notes) removed when added, stored once under `DATA_DIR/blobs` content-addressed by
/// BLAKE2b-256 of the stripped bytes and encrypted at rest (`PlacesBlobs`). The id names the
/// same bytes on every device.
extension Engine {
    /// The blob store, opened on first use.
    func blobStore() throws -> BlobStore { try photos.blobStore(directory: paths.dataDir + "/blobs") }

    /// Whether the photo `id` is held whole here.
    func hasBlob(_ id: String) -> Bool {
        guard let blob = BlobID(hex: id), let store = try? blobStore() else { return false }
        return store.contains(blob)
    }

    /// `POST /v1/photos[?keepLocation=true]`: the image is the body.
    func addPhoto(_ body: [UInt8], mediaType: String?, query: [String: String]) throws -> Photo {
        try requireLogin()
        var keepLocation = false
        if let text = query["keepLocation"] {
            guard ["true", "false"].contains(text) else {
                throw ServiceError.invalid("keepLocation", "'keepLocation' must be true or false")
            }
            keepLocation = text == "true"
        }
        if let mediaType, !(mediaType.hasPrefix("image/") || mediaType == "application/octet-stream") {
            throw ServiceError(
                .unsupportedMediaType,
                "a photo is sent as image/jpeg, image/png, image/webp or image/heic, not \(mediaType)")
        }
        guard Int64(body.count) <= FieldRule.maxPhotoBytes else {
            throw ServiceError(.tooLarge, "a photo is at most \(FieldRule.maxPhotoBytes >> 20) MiB")
        }
        let info: ImageInfo
        let stripped: [UInt8]
        do {
            info = try ImageInfo.inspect(body)
            stripped = try MetadataStripper.strip(body, keepLocation: keepLocation)
        } catch {
            throw ServiceError(.unsupportedMediaType, error.message)
        }
        let blobs = try blobStore()
        let id: BlobID
        do { id = try blobs.put(stripped) } catch {
            if error.code == .quotaExceeded || error.code == .tooLarge {
                throw ServiceError(.tooLarge, error.message)
            }
            throw ServiceError.store("Could not keep the photo", error.message, cause: error)
        }
        let record = Store.PhotoRecord(
            id: id.hex, contentType: info.mediaType.rawValue, bytes: Int64(stripped.count), width: info.width,
            height: info.height)
        guard let me else { throw ServiceError.loggedOut }
        try storeCall { () throws(StoreError) in
            try store.savePhoto(record, source: me.bytes, timeMs: RFC3339.nowMs())
        }
        return Photo(
            id: record.id, contentType: record.contentType, bytes: record.bytes, width: record.width,
            height: record.height)
    }

    /// `GET /v1/photos/{id}`: the stored bytes, 404 while not (yet) held.
    func photoBytes(_ id: String) throws -> ControlResponse {
        try requireLogin()
        guard let blob = BlobID(hex: id) else {
            throw ServiceError.notFound("no photo '\(id.prefix(80))': a photo id is 64 lowercase hex characters")
        }
        let store = try blobStore()
        guard store.contains(blob) else {
            throw ServiceError.notFound("photo \(id.prefix(12)) is not on this device (yet)")
        }
        let bytes: [UInt8]
        do { bytes = try store.readAll(blob) } catch {
            throw ServiceError.store("Could not read the photo", error.message, cause: error)
        }
        let type = (try? ImageInfo.inspect(bytes))?.mediaType.rawValue ?? "application/octet-stream"
        return .raw(status: 200, contentType: type, body: bytes)
    }
}

extension Engine {
    /// How long a photo added here and named by no post or card is kept (it is about to be
    /// posted).
    static let unpostedPhotoGraceMs: Int64 = 24 * 3_600_000

    /// Deletes the photos nothing names any more (`Protocol/sync.md` §7.4): kept are those of
    /// live posts and cards **of the person who gave the photo** (its author for one received,
    /// this person for one added here), of the library and the profile, downloads in progress
    /// of those, and photos added in the last day that no deleted post named. A friend who
    /// names another's photo in its own post keeps nothing alive once its author deleted it.
    /// Returns how many were removed.
    @discardableResult
    func collectPhotos() -> Int {
        guard let blobs = try? blobStore(), let lists = try? store.postPhotoLists() else { return 0 }
        // Photos kept before givers were recorded have none: any live post keeps them.
        let sources = (try? store.photoSources()) ?? [:]
        func givenBy(_ id: BlobID, _ author: [UInt8]) -> Bool { sources[id.hex].map { $0 == author } ?? true }
        var live = Set<BlobID>(), dropped = Set<BlobID>()
        for (text, deleted, author) in lists {
            guard let value = try? JSONDecoder().decode(JSONValue.self, from: Data(text.utf8)) else { continue }
            for photo in Self.photos(from: value) {
                guard let id = BlobID(hex: photo.id) else { continue }
                if deleted { dropped.insert(id) } else if givenBy(id, author) { live.insert(id) }
            }
        }
        for card in (try? store.documents(kind: .card)) ?? [] {
            live.formUnion(photoIDs(namedIn: card).filter { givenBy($0, card.owner) })
        }
        if let library = try? library() {
            for place in (try? store.entities(in: library, kind: .place)) ?? [] {
                for photo in Self.photos(from: Views.fields(place)[PlaceFields.photos.name]) {
                    if let id = BlobID(hex: photo.id) { live.insert(id) }
                }
            }
        }
        if let picture = account.profile(in: store)?.picture, let id = BlobID(hex: picture) { live.insert(id) }
        let recent = (try? store.photoIDs(addedSince: RFC3339.nowMs() - Self.unpostedPhotoGraceMs)) ?? []
        var keep = live
        for hex in recent {
            guard let id = BlobID(hex: hex), !dropped.contains(id) else { continue }
            keep.insert(id)
        }
        guard let result = try? blobs.collect(keeping: keep) else { return 0 }
        if result.removed > 0 {
            logger.info(
                "collected photos nothing names any more",
                metadata: ["photos": "\(result.removed)", "bytes": "\(result.freedBytes)"])
        }
        return result.removed
    }
}

extension Engine {
    /// `POST /v1/places/{id}/photos` (`{"photo": PHOTO_ID}`): adds a photo added with
    /// `POST /v1/photos` to a library place (a pin); friends who see the place on this
    /// person's card see it too.
    func addPlacePhoto(_ reference: String, _ body: [String: JSONValue]) throws -> Place {
        if let unknown = body.keys.sorted().first(where: { $0 != "photo" }) {
            throw ServiceError.invalid(unknown, "unknown field '\(unknown)': the field is photo")
        }
        let library = try libraryService()
        let record = try library.placeRecord(reference)
        let current = Views.fields(record)[PlaceFields.photos.name]
        var photos = Self.photos(from: current)
        let added = try postPhotos(.array([body["photo"] ?? .null]))
        guard let photo = added.first else { throw ServiceError.invalid("photo", "'photo' (a photo id) is required") }
        guard !photos.contains(where: { $0.id == photo.id }) else { return try library.place(record.id) }
        guard photos.count < FieldRule.maxPhotosPerPost else {
            throw ServiceError.invalid("photo", "a place holds at most \(FieldRule.maxPhotosPerPost) photos")
        }
        photos.append(
            Photo(
                id: photo.id, contentType: photo.contentType, bytes: photo.bytes, width: photo.width,
                height: photo.height))
        try setPlacePhotos(record, photos, old: current)
        return try library.place(record.id)
    }

    /// `DELETE /v1/places/{id}/photos/{photoId}`.
    func removePlacePhoto(_ reference: String, photo: String) throws -> Place {
        let library = try libraryService()
        let record = try library.placeRecord(reference)
        let current = Views.fields(record)[PlaceFields.photos.name]
        let photos = Self.photos(from: current)
        guard photos.contains(where: { $0.id == photo }) else {
            throw ServiceError.notFound("place \(record.id.prefix(8)) has no photo '\(photo.prefix(80))'")
        }
        try setPlacePhotos(record, photos.filter { $0.id != photo }, old: current)
        return try library.place(record.id)
    }

    private func setPlacePhotos(_ record: Store.EntityRecord, _ photos: [Photo], old: JSONValue?) throws {
        let value: JSONValue =
            photos.isEmpty
            ? .null
            : Self.photosJSON(
                photos.map {
                    Store.PhotoRecord(
                        id: $0.id, contentType: $0.contentType, bytes: $0.bytes, width: $0.width, height: $0.height)
                })
        var write = EntityWrite<PlaceFields>.update(record.id)
        write.set(PlaceFields.photos.name, to: value, old: old)
        try commit(try library(), write.changes, summary: "place photos changed")
    }
}
