import Foundation
import PlacesAPI
import PlacesCrypto
import PlacesModel
import PlacesStore

/// Posts and the feed (`Protocol/sync.md` §7.3): a post is written into its author's journal
/// (their outbox to themselves) and into the outbox of every reader in its audience at that
/// moment, so the audience is fixed when posting, a group never leaves this device, and a
/// friend outside the audience holds no byte of the post.
extension Engine {
    static let maxPostCharacters = 2_000
    static let maxFeedPage = 100

    /// This person's journal: every post they wrote, created on first use.
    func journal() throws -> Store.DocumentRecord {
        guard let identity else { throw ServiceError.loggedOut }
        return try ensureOutbox(to: me ?? identity.publicKey, identity: identity)
    }

    /// `POST /v1/posts`.
    func createPost(_ body: [String: JSONValue]) throws -> Post {
        guard let identity, let me else { throw ServiceError.loggedOut }
        let allowed: Set<String> = ["text", "audience", "placeId", "latitude", "longitude", "photos"]
        if let unknown = body.keys.sorted().first(where: { !allowed.contains($0) }) {
            throw ServiceError.invalid(
                unknown,
                "unknown field '\(unknown)': the fields are text, audience, placeId, latitude, longitude, photos")
        }
        var text = ""
        if let value = body["text"], !value.isNull {
            guard let s = value.stringValue else { throw ServiceError.invalid("text", "'text' must be a string") }
            text = s.trimmingCharacters(in: .whitespacesAndNewlines)
        }
        guard text.utf8.count <= 64 * Self.maxPostCharacters, text.count <= Self.maxPostCharacters else {
            throw ServiceError.invalid("text", "a post's text is at most \(Self.maxPostCharacters) characters")
        }
        let photos = try postPhotos(body["photos"])
        guard !text.isEmpty || !photos.isEmpty else {
            throw ServiceError.invalid("text", "a post needs text, photos, or both")
        }
        let (audience, audienceNow) = try postAudience(body["audience"])
        // Nothing new is written to a person this person blocked.
        let readers = audienceNow.filter { !isBlocked($0) }
        let place = try postPlace(body)

        let id = HexCoding.encode(SecureRandom.bytes(16))
        let postedAt = RFC3339.string(ms: RFC3339.nowMs())
        func changes(audience: String) -> [Change] {
            var write = EntityWrite<PostFields>.create(id)
            if !text.isEmpty { write.set(PostFields.text, to: text) }
            write.set(PostFields.audience, to: audience)
            if let place {
                if let name = place.name { write.set(PostFields.placeName, to: name) }
                if let latitude = place.latitude { write.set(PostFields.placeLatitude, to: latitude) }
                if let longitude = place.longitude { write.set(PostFields.placeLongitude, to: longitude) }
                if let address = place.address { write.set(PostFields.placeAddress, to: address) }
                if let gid = place.gazetteerId { write.set(PostFields.gazetteerID, to: gid) }
            }
            if !photos.isEmpty { write.set(PostFields.photos.name, to: Self.photosJSON(photos)) }
            write.set(PostFields.postedAt, to: postedAt)
            return write.changes
        }
        let journal = try journal()
        // Readers see "friends" or "group" (never which group); the journal keeps the group id
        // in the readers table, not in the post.
        let shown = audience.hasPrefix("group:") ? "group" : audience
        var edits = [Store.Edit(doc: journal.id, changes: changes(audience: shown), timeMs: RFC3339.nowMs())]
        for reader in readers.sorted(by: { $0.hex < $1.hex }) {
            let outbox = try ensureOutbox(to: reader, identity: identity)
            edits.append(Store.Edit(doc: outbox.id, changes: changes(audience: shown), timeMs: RFC3339.nowMs()))
        }
        try storeCall { () throws(StoreError) in try store.setReaders(of: id, readers.map(\.bytes)) }
        if case .some(let group) = audience.split(separator: ":").dropFirst().first {
            try? store.setPreference("post.group.\(id)", String(group))
        }
        try commitEdits(edits, summary: "posted")
        logger.info("posted", metadata: ["readers": "\(readers.count)"])
        events.publish(
            Event(
                type: "post", time: postedAt, doc: journal.id.hex, docKind: "outbox", author: me.humanID,
                summary: "you posted to \(audienceWords(shown, readers: readers.count))"))
        return try postView(try postRecord(PostRef(author: me, id: id)))
    }

    /// Commits several edits in one transaction (a post to hundreds of outboxes), then pushes
    /// each document's op to its participants.
    func commitEdits(_ edits: [Store.Edit], summary: String) throws {
        guard let identity else { throw ServiceError.loggedOut }
        let ops: [SignedOp]
        do {
            ops = try store.append(edits, identity: identity, keyring: account.keyring)
        } catch {
            logger.error("append failed", metadata: ["error": "\(error)"])
            throw ServiceError.store("Could not save", error.message, cause: error)
        }
        didStore(.ops(ops, membership: []))
        for op in ops { pushLocal([op], doc: op.header.doc) }
    }

    func audienceWords(_ audience: String, readers: Int) -> String {
        switch audience {
        case "only-me": "only you"
        case "friends": "your friends (\(readers))"
        default: "a group (\(readers))"
        }
    }

    /// The audience named by a request (`only-me`, `friends` or a group id) and the readers it
    /// holds now. A group must hold only friends.
    func postAudience(_ value: JSONValue?) throws -> (String, Set<PublicKey>) {
        guard let text = value?.stringValue else {
            throw ServiceError.invalid("audience", "'audience' must be \"only-me\", \"friends\" or a group id")
        }
        switch text {
        case "only-me": return ("only-me", [])
        case "friends": return ("friends", currentFriends())
        default:
            let group: Store.EntityRecord
            do { group = try groupRecord(text) } catch {
                throw ServiceError.invalid(
                    "audience", "no group '\(text.prefix(80))': the audience is only-me, friends or a group id")
            }
            let friends = currentFriends()
            var readers = Set<PublicKey>()
            for hex in Views.fields(group)[GroupFields.members] ?? [] {
                guard let key = Engine.publicKey(hex: hex) else { continue }
                guard friends.contains(key) else {
                    throw ServiceError.invalid(
                        "audience",
                        "the group “\(Views.fields(group)[GroupFields.name] ?? "")” holds \(displayName(of: key)) "
                            + "(\(key.humanID.prefix(7))), who is not your friend: remove them from the group first")
                }
                readers.insert(key)
            }
            return ("group:\(group.id)", readers)
        }
    }

    /// Where a post was written: a library place, a discover result (`placeId`), or
    /// coordinates.
    func postPlace(_ body: [String: JSONValue]) throws -> PostPlace? {
        let latitude = body["latitude"].flatMap { $0.isNull ? nil : $0 }
        let longitude = body["longitude"].flatMap { $0.isNull ? nil : $0 }
        if let reference = body["placeId"], !reference.isNull {
            guard let text = reference.stringValue else {
                throw ServiceError.invalid("placeId", "'placeId' must be a place id or a discover result id")
            }
            guard latitude == nil, longitude == nil else {
                throw ServiceError.invalid("latitude", "give a placeId or coordinates, not both")
            }
            if FieldRule.isGazetteerID(text) || text.hasPrefix("place:") {
                let result = try discoverResult(text)
                return PostPlace(
                    name: result.name, latitude: result.latitude, longitude: result.longitude, address: nil,
                    gazetteerId: result.id)
            }
            let record: Store.EntityRecord
            do { record = try libraryService().placeRecord(text) } catch {
                throw ServiceError.invalid(
                    "placeId", "no place '\(text.prefix(80))' in your library or among discover's results")
            }
            let f = Views.fields(record)
            return PostPlace(
                name: f[PlaceFields.name], latitude: f[PlaceFields.latitude], longitude: f[PlaceFields.longitude],
                address: f[PlaceFields.address], gazetteerId: f[PlaceFields.gazetteerID])
        }
        guard latitude != nil || longitude != nil else { return nil }
        guard let lat = latitude?.doubleValue, let lon = longitude?.doubleValue,
            (-90...90).contains(lat), (-180...180).contains(lon)
        else {
            throw ServiceError.invalid(
                "latitude", "a place by coordinates needs latitude (−90…90) and longitude (−180…180), both numbers")
        }
        return PostPlace(name: nil, latitude: lat, longitude: lon, address: nil, gazetteerId: nil)
    }

    /// The photos a post names: ids of photos added on this device (`POST /v1/photos`).
    func postPhotos(_ value: JSONValue?) throws -> [Store.PhotoRecord] {
        guard let value, !value.isNull else { return [] }
        guard case .array(let items) = value, items.count <= FieldRule.maxPhotosPerPost else {
            throw ServiceError.invalid(
                "photos", "'photos' is a list of at most \(FieldRule.maxPhotosPerPost) photo ids")
        }
        var out = [Store.PhotoRecord]()
        for item in items {
            guard let id = item.stringValue, FieldRule.isLowerHex(id, count: 64) else {
                throw ServiceError.invalid("photos", "'photos' must hold photo ids (64 lowercase hex characters)")
            }
            guard !out.contains(where: { $0.id == id }) else {
                throw ServiceError.invalid("photos", "'photos' names photo \(id.prefix(12)) twice")
            }
            guard let photo = try storeCall({ () throws(StoreError) in try store.photo(id) }), hasBlob(id) else {
                throw ServiceError.invalid(
                    "photos", "no photo \(id.prefix(12)) on this device: add it with POST /v1/photos")
            }
            out.append(photo)
        }
        // Photos this person posts are theirs to keep, whoever gave them first: one received
        // with a friend's post stays while this person's own post names it (`collectPhotos`).
        if let me, !out.isEmpty {
            try storeCall { () throws(StoreError) in try store.claimPhotos(out.map(\.id), source: me.bytes) }
        }
        return out
    }

    static func photosJSON(_ photos: [Store.PhotoRecord]) -> JSONValue {
        .array(
            photos.map {
                .object([
                    "id": .string($0.id), "contentType": .string($0.contentType), "bytes": .int($0.bytes),
                    "width": .int(Int64($0.width)), "height": .int(Int64($0.height)),
                ])
            })
    }

    static func photos(from value: JSONValue?) -> [Photo] {
        guard case .array(let items)? = value else { return [] }
        return items.compactMap { item in
            guard let o = item.objectValue, let id = o["id"]?.stringValue, let type = o["contentType"]?.stringValue,
                let bytes = o["bytes"]?.intValue, let width = o["width"]?.intValue, let height = o["height"]?.intValue,
                let w = Int(exactly: width), let h = Int(exactly: height)
            else { return nil }
            return Photo(id: id, contentType: type, bytes: bytes, width: w, height: h)
        }
    }

    // MARK: Reading

    /// The documents a feed reads: the journal and the outboxes of friends to this person.
    func feedDocuments() -> [DocumentID] {
        guard let me else { return [] }
        var docs = [Outboxes.documentID(author: me.bytes, reader: me.bytes)]
        for friend in currentFriends().sorted(by: { $0.hex < $1.hex }) {
            docs.append(Outboxes.documentID(author: friend.bytes, reader: me.bytes))
        }
        return docs
    }

    /// `GET /v1/feed?limit=N&before=CURSOR`.
    func feed(_ query: [String: String]) throws -> Feed {
        try requireLogin()
        var limit = 20
        if let text = query["limit"] {
            guard let n = Int(text), (1...Self.maxFeedPage).contains(n) else {
                throw ServiceError.invalid("limit", "'limit' must be a whole number from 1 to \(Self.maxFeedPage)")
            }
            limit = n
        }
        var cursor: (ms: Int64, id: String)?
        if let text = query["before"] {
            let parts = text.split(separator: ".", maxSplits: 1).map(String.init)
            guard parts.count == 2, let ms = Int64(parts[0]), FieldRule.isLowerHex(parts[1], count: 32) else {
                throw ServiceError.invalid("before", "'before' must be a cursor from a feed page's 'next'")
            }
            cursor = (ms, parts[1])
        }
        return try feedPage(docs: feedDocuments(), before: cursor, limit: limit)
    }

    func feedPage(docs: [DocumentID], before cursor: (ms: Int64, id: String)?, limit: Int) throws -> Feed {
        let records = try storeCall { () throws(StoreError) in
            try store.posts(in: docs, before: cursor, limit: limit + 1)
        }
        let page = Array(records.prefix(limit))
        let posts = try postViews(page)
        var next: String?
        if records.count > limit, let last = page.last { next = "\(last.createdMs ?? 0).\(last.id)" }
        return Feed(posts: posts, next: next)
    }

    /// `GET /v1/posts/{id}`: a post this person can see (their own, or a friend's to them).
    func post(_ routeID: String) throws -> Post {
        try requireLogin()
        return try postView(try postRecord(routeID))
    }

    func postView(_ record: Store.EntityRecord) throws -> Post {
        guard let view = try postViews([record]).first else {
            throw ServiceError.notFound("no post '\(record.id)' that you can see")
        }
        return view
    }

    /// The post a route names (`Protocol/control-api.yaml`, `PostId`): its route id (entity id
    /// and author, `PostRef.routeID`), or — as clients before route ids sent — a bare entity id
    /// that exactly one post this person can see has. A bare id several authors' posts share
    /// (a friend may reuse any id) is refused rather than guessed: 409 `ambiguous-post`.
    func postRecord(_ text: String) throws -> Store.EntityRecord {
        if let ref = PostRef(routeID: text) { return try postRecord(ref) }
        guard FieldRule.isLowerHex(text, count: 32) else {
            throw ServiceError.notFound(
                "no post '\(text.prefix(40))': a post id is the 96 hex characters of a feed's post 'id'")
        }
        var found = [Store.EntityRecord]()
        for doc in feedDocuments() {
            if let record = try storeCall({ () throws(StoreError) in try store.entity(in: doc, id: text) }),
                record.kind == .post, !record.deleted
            {
                found.append(record)
            }
        }
        guard let first = found.first else { throw ServiceError.notFound("no post '\(text)' that you can see") }
        guard found.count == 1 else {
            throw ServiceError.conflict(
                "ambiguous-post",
                "\(found.count) people's posts have the id \(text): name the post by the 96-character id the feed shows"
            )
        }
        return first
    }

    /// The post `ref` as this person holds it: from the journal (their own), or from its
    /// author's outbox to this person while they are friends; 404 when it is neither (never
    /// seen, not in its audience, deleted, or its author is not a friend).
    func postRecord(_ ref: PostRef) throws -> Store.EntityRecord {
        guard let me else { throw ServiceError.loggedOut }
        guard ref.author == me || currentFriends().contains(ref.author) else {
            throw ServiceError.notFound("no post '\(ref.id)' that you can see: its author is not your friend")
        }
        let doc = Outboxes.documentID(author: ref.author.bytes, reader: me.bytes)
        guard let record = try storeCall({ () throws(StoreError) in try store.entity(in: doc, id: ref.id) }),
            record.kind == .post, !record.deleted
        else { throw ServiceError.notFound("no post '\(ref.id)' that you can see") }
        return record
    }

    /// Who wrote the post `record` (the owner of the outbox it is in) and its id.
    func postRef(_ record: Store.EntityRecord) -> PostRef? {
        (try? store.document(record.doc)).flatMap { try? PublicKey(bytes: $0.owner) }.map {
            PostRef(author: $0, id: record.id)
        }
    }

    /// Posts as the API shows them, with their reaction counts.
    func postViews(_ records: [Store.EntityRecord]) throws -> [Post] {
        guard let me else { return [] }
        let tallies = try reactionTallies(for: records)
        var authors = [DocumentID: PublicKey]()
        var names = [PublicKey: String]()
        return records.compactMap { record in
            let f = Views.fields(record)
            if authors[record.doc] == nil { authors[record.doc] = postRef(record)?.author }
            // A record whose outbox is not held has no author to show it under.
            guard let author = authors[record.doc] else { return nil }
            let ref = PostRef(author: author, id: record.id)
            if names[author] == nil { names[author] = displayName(of: author) }
            let mine = author == me
            var audience = f[PostFields.audience] ?? "friends"
            if mine, audience == "group", let group = try? store.preference("post.group.\(record.id)") {
                audience = group
            }
            var place: PostPlace?
            if f[PostFields.placeName] != nil || f[PostFields.placeLatitude] != nil {
                place = PostPlace(
                    name: f[PostFields.placeName], latitude: f[PostFields.placeLatitude],
                    longitude: f[PostFields.placeLongitude], address: f[PostFields.placeAddress],
                    gazetteerId: f[PostFields.gazetteerID])
            }
            let tally = tallies[ref] ?? ReactionTally()
            let name = names[author] ?? ""
            return Post(
                id: ref.routeID, author: author.humanID,
                authorName: name == String(author.humanID.prefix(7)) ? nil : name,
                text: f[PostFields.text] ?? "", audience: audience, place: place,
                photos: Self.photos(from: f[PostFields.photos.name]), likes: tally.likers.count,
                liked: tally.likers.contains(me.hex), comments: tally.comments.count,
                createdAt: f[PostFields.postedAt] ?? RFC3339.string(ms: record.createdMs ?? 0), mine: mine)
        }
    }

    /// `DELETE /v1/posts/{id}`: only its author deletes a post, for everyone it went to.
    func deletePost(_ routeID: String) throws {
        guard let me else { throw ServiceError.loggedOut }
        let record = try postRecord(routeID)
        let id = record.id
        guard record.doc == Outboxes.documentID(author: me.bytes, reader: me.bytes) else {
            throw ServiceError(.forbidden, "only its author can delete a post")
        }
        var edits = [
            Store.Edit(doc: record.doc, changes: [.tombstone(entity: id, kind: .post)], timeMs: RFC3339.nowMs())
        ]
        let readers = try storeCall { () throws(StoreError) in try store.readers(of: id) }
        for reader in readers.sorted(by: { $0.lexicographicallyPrecedes($1) }) {
            let doc = Outboxes.documentID(author: me.bytes, reader: reader)
            guard let held = try? store.entity(in: doc, id: id), !held.deleted else { continue }
            edits.append(Store.Edit(doc: doc, changes: [.tombstone(entity: id, kind: .post)], timeMs: RFC3339.nowMs()))
        }
        try commitEdits(edits, summary: "deleted a post")
        collectPhotos()
    }
}
