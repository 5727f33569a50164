import Foundation
import PlacesAPI
import PlacesCrypto
import PlacesGazetteer
import PlacesModel
import PlacesStore
import PlacesSync
import PlacesTrips

/// Reads through the itinerary views (days, a day, routes) of a published trip: set by the
/// explore routes, after they checked the trip may be seen (`ItineraryService.document`).
enum TripReading {
    @TaskLocal static var published = false
}

/// What explore lists: one entry per published trip held, made from its document when its
/// ops change (`noteStored` marks it), so a search over thousands reads no document.
struct ExploreIndex {
    struct Entry {
        var doc: DocumentID
        /// `doc` in hex (the sorts' last key, made once).
        var hex: String
        var author: [UInt8]
        var authorName: String?
        var name: String
        /// The name, the author's name, the cities and the countries, folded (what `q` matches).
        var folded: [UInt8]
        var startDate: String?
        var endDate: String?
        var days: Int
        var countries: [String]
        var cities: [String]
        var publishedMs: Int64
        var updatedMs: Int64
        var audience: String
        var withdrawn: Bool
        /// Keys (hex) of the likers whose like holds and whose signature verifies.
        var likers: Set<String>
    }

    /// Nil until first read.
    var entries: [DocumentID: Entry]?
    /// Documents whose ops changed since.
    var dirty: Set<DocumentID> = []
    /// Likes whose signature was checked, by `doc/liker/at/liked/signature`.
    var verified: [String: Bool] = [:]
    /// Likes taken per peer in the current minute.
    var likeBudget: [PublicKey: (minute: Int64, count: Int)] = [:]
    var cities: CityGrid?
    /// Who this identity knows, its likes and saves, read once per store generation.
    var context: Context?
    /// The visible trips in each sort's order, with the generation they were ranked at.
    var ranked: [String: (generation: UInt64, entries: [Entry])] = [:]

    struct Context {
        var generation: UInt64
        /// Friends, contacts, co-members and this identity, in hex.
        var known: Set<String>
        /// This identity's own likes of others' trips, by trip.
        var mine: [DocumentID: Bool]
        var saved: Set<DocumentID>
    }
}

/// Explore (issue 17): the published trips this daemon may show, their likes and saves, and
/// this person's likes of others' trips on their way to the authors.
extension Engine {
    static let exploreDefaultLimit = 50
    static let exploreMaxLimit = 500

    // MARK: Listing

    /// `GET /v1/explore?q=&country=&sort=likes|newest&limit=N`.
    func exploreList(query: [String: String]) throws -> JSONValue {
        try requireLogin()
        let sort = query["sort"] ?? "newest"
        guard sort == "likes" || sort == "newest" else {
            throw ServiceError.invalid("sort", "sort must be likes or newest")
        }
        var limit = Self.exploreDefaultLimit
        if let text = query["limit"] {
            // `Int(String)` parses (nil on anything but a number in range): it cannot trap.
            guard let n = Int(text), (1...Self.exploreMaxLimit).contains(n) else {
                throw ServiceError.invalid("limit", "limit must be a whole number from 1 to \(Self.exploreMaxLimit)")
            }
            limit = n
        }
        var country: String?
        if let text = query["country"], !text.isEmpty {
            guard text.utf8.count == 2, text.utf8.allSatisfy({ (65...90).contains($0) || (97...122).contains($0) })
            else {
                throw ServiceError.invalid("country", "country must be a two-letter ISO 3166 code, such as PT")
            }
            country = text.uppercased()
        }
        let q = Array(NameFolding.fold(String((query["q"] ?? "").prefix(200))).utf8)
        let context = exploreContext()
        // The visible trips in this order, ranked once per store generation: a request walks
        // them and stops at `limit` matches.
        var trips = [JSONValue]()
        for entry in ranked(by: sort, context) {
            if let country, !entry.countries.contains(country) { continue }
            if !q.isEmpty, !Self.contains(entry.folded, q) { continue }
            trips.append(summary(entry, known: context.known, mine: context.mine, saved: context.saved))
            if trips.count == limit { break }
        }
        return .object(["trips": .array(trips)])
    }

    /// The trips this identity may see, sorted (`likes`: likes known, then all, then newest;
    /// `newest`: by first publication), kept while the store does not change.
    private func ranked(by sort: String, _ context: ExploreIndex.Context) -> [ExploreIndex.Entry] {
        if let cached = explore.ranked[sort], cached.generation == context.generation { return cached.entries }
        var hits = [(entry: ExploreIndex.Entry, likes: Int, knownLikes: Int)]()
        for entry in visibleEntries() {
            let (likes, known) = likeCounts(entry, context)
            hits.append((entry, likes, known))
        }
        if sort == "likes" {
            hits.sort {
                ($0.knownLikes, $0.likes, $0.entry.publishedMs, $0.entry.hex)
                    > ($1.knownLikes, $1.likes, $1.entry.publishedMs, $1.entry.hex)
            }
        } else {
            hits.sort { ($0.entry.publishedMs, $0.entry.hex) > ($1.entry.publishedMs, $1.entry.hex) }
        }
        let entries = hits.map(\.entry)
        explore.ranked[sort] = (context.generation, entries)
        return entries
    }

    /// `GET /v1/explore/{id}`: the trip with its items, places to go, days and costs.
    func exploreTrip(_ reference: String) throws -> JSONValue {
        let entry = try visibleTrip(reference)
        let snapshot = try tripSnapshot(try publishedRecord(entry.doc))
        return try exploreDetail(snapshot: snapshot, summary: summary(entry))
    }

    /// `GET /v1/saved`: saved trips, newest save first, withdrawn ones included (marked).
    func savedTrips() throws -> JSONValue {
        try requireLogin()
        let entries = exploreEntries()
        let known = knownHex()
        let mine = myLikes()
        let saved = (try storeCall { () throws(StoreError) in try store.savedTrips() })
        let savedSet = Set(saved.map(\.doc))
        let trips = saved.compactMap { entries[$0.doc] }.map { summary($0, known: known, mine: mine, saved: savedSet) }
        return .object(["trips": .array(trips)])
    }

    /// The trips `author` published that this identity may see (a friend's profile).
    func tripsPublished(by author: PublicKey) -> [JSONValue] {
        let known = knownHex()
        let mine = myLikes()
        let saved = savedSet()
        return visibleEntries().filter { $0.author == author.bytes }.sorted { $0.publishedMs > $1.publishedMs }
            .map { summary($0, known: known, mine: mine, saved: saved) }
    }

    // MARK: Saves

    /// `PUT|DELETE /v1/explore/{id}/save`.
    func saveTrip(_ reference: String, saved: Bool) throws -> JSONValue {
        // A saved trip its author withdrew can still be unsaved.
        let ref = reference.lowercased()
        let savedDocs = (try storeCall { () throws(StoreError) in try store.savedTrips() }).map(\.doc)
        let withdrawn = ref.utf8.count >= 4 ? savedDocs.filter { $0.hex.hasPrefix(ref) } : []
        let entry: ExploreIndex.Entry
        if !saved, withdrawn.count == 1, let doc = withdrawn.first, let held = exploreEntries()[doc], held.withdrawn {
            entry = held
        } else {
            entry = try visibleTrip(reference)
        }
        try storeCall { () throws(StoreError) in try store.setSaved(entry.doc, saved, timeMs: RFC3339.nowMs()) }
        return summary(entry)
    }

    // MARK: The index

    /// Every published trip held, current.
    func exploreEntries() -> [DocumentID: ExploreIndex.Entry] {
        if explore.entries == nil {
            explore.entries = [:]
            explore.dirty = Set(((try? store.documents(kind: .published)) ?? []).map(\.id))
        }
        let dirty = explore.dirty
        explore.dirty = []
        for doc in dirty {
            // Updated in place: a copy of thousands of entries per change would cost more.
            // Made first: making it reads and writes `explore` (verified likes, the city grid).
            let entry = (try? store.document(doc)).flatMap { record in
                record.kind == .published ? indexEntry(record) : nil
            }
            explore.entries?[doc] = entry
        }
        return explore.entries ?? [:]
    }

    /// The trips this identity may see now: its own live ones; others' live ones published to
    /// the network, or by someone who is a friend now.
    func visibleEntries() -> [ExploreIndex.Entry] {
        guard let me else { return [] }
        let friends = Set(currentFriends().map(\.bytes))
        return exploreEntries().values.filter { entry in
            guard !entry.withdrawn else { return false }
            if entry.author == me.bytes { return publicationsByDoc()[entry.doc] != nil }
            return entry.audience == "network" || friends.contains(entry.author)
        }
    }

    /// A trip by id or unique prefix (4+ characters) among those visible; 404 otherwise.
    func visibleTrip(_ reference: String) throws -> ExploreIndex.Entry {
        try requireLogin()
        let ref = reference.lowercased()
        let matches = ref.utf8.count >= 4 ? visibleEntries().filter { $0.doc.hex.hasPrefix(ref) } : []
        guard matches.count == 1, let entry = matches.first else {
            if matches.count > 1 {
                throw ServiceError.invalid(
                    "id", "'\(reference.prefix(40))' matches \(matches.count) trips: give more characters")
            }
            throw ServiceError.notFound("no published trip '\(reference.prefix(40))' you can see")
        }
        return entry
    }

    func publishedRecord(_ doc: DocumentID) throws -> Store.DocumentRecord {
        guard let record = try storeCall({ () throws(StoreError) in try store.document(doc) }) else {
            throw ServiceError.notFound("no published trip '\(doc.hex)'")
        }
        return record
    }

    private func indexEntry(_ record: Store.DocumentRecord) -> ExploreIndex.Entry? {
        guard let root = try? store.entity(in: record.id, id: record.id.hex), root.kind == .publishedTrip else {
            return nil
        }
        let f = Views.fields(root)
        let snapshot = try? TripSnapshot(doc: record.id, store: store)
        var entry =
            snapshot.map { describe(record.id, author: record.owner, snapshot: $0) }
            ?? ExploreIndex.Entry(
                doc: record.id, hex: record.id.hex, author: record.owner, authorName: nil,
                name: f[PublishedTripFields.name] ?? "",
                folded: [], startDate: nil, endDate: nil, days: 0, countries: [], cities: [], publishedMs: 0,
                updatedMs: 0, audience: "network", withdrawn: false, likers: [])
        entry.withdrawn = f[PublishedTripFields.withdrawn] == true
        for like in (try? store.entities(in: record.id, kind: .tripLike)) ?? [] where !like.deleted {
            if verifiedLike(like, in: record.id) { entry.likers.insert(like.id) }
        }
        return entry
    }

    /// What explore shows of a trip, read from its snapshot (a held trip's, or a dry run's).
    func describe(_ doc: DocumentID, author: [UInt8], snapshot: TripSnapshot) -> ExploreIndex.Entry {
        let f = Views.fields(snapshot.root)
        let name = f[PublishedTripFields.name] ?? ""
        let authorName = f[PublishedTripFields.authorName]
        let (countries, cities) = placesVisited(snapshot)
        let folded = Array(
            NameFolding.fold(([name, authorName ?? ""] + cities + countries).joined(separator: " ")).utf8)
        return ExploreIndex.Entry(
            doc: doc, hex: doc.hex, author: author, authorName: authorName, name: name, folded: folded,
            startDate: f[PublishedTripFields.startDate], endDate: f[PublishedTripFields.endDate],
            days: snapshot.schedule.days.count, countries: countries, cities: cities,
            publishedMs: f[PublishedTripFields.publishedAt].flatMap(RFC3339.parse) ?? 0,
            updatedMs: f[PublishedTripFields.updatedAt].flatMap(RFC3339.parse) ?? 0,
            audience: f[PublishedTripFields.audience] ?? "network", withdrawn: f[PublishedTripFields.withdrawn] == true,
            likers: [])
    }

    /// The countries (ISO codes) and cities a trip goes to, from its places' gazetteer ids and
    /// the largest city within 15 km of each point (else the nearest within 30 km), in the trip's order, at most 20 cities.
    private func placesVisited(_ snapshot: TripSnapshot) -> ([String], [String]) {
        guard let gazetteer = try? catalog().gazetteer else { return ([], []) }
        if explore.cities == nil { explore.cities = CityGrid(gazetteer) }
        guard let grid = explore.cities else { return ([], []) }
        var countries = [String](), cities = [String]()
        func add(_ index: Int) {
            if let code = gazetteer.countryCode(index), !countries.contains(code) { countries.append(code) }
            if gazetteer.kind(index) == .city, cities.count < 20 {
                let name = gazetteer.name(index)
                if !cities.contains(name) { cities.append(name) }
            }
        }
        func point(_ latitude: JSONValue?, _ longitude: JSONValue?) {
            guard let lat = latitude?.doubleValue, let lon = longitude?.doubleValue,
                let index = grid.largest(latitude: lat, longitude: lon, within: 15)
                    ?? grid.nearest(latitude: lat, longitude: lon, within: 30)
            else { return }
            add(index)
        }
        for record in snapshot.itemRecords + snapshot.stops {
            let f = Views.fields(record)
            if let id = f["gazetteerID"]?.stringValue, let index = gazetteer.index(ofID: id) {
                add(index)
                continue
            }
            point(f["location.latitude"] ?? f["latitude"], f["location.longitude"] ?? f["longitude"])
            point(f["to.latitude"], f["to.longitude"])
        }
        return (countries, cities)
    }

    /// Whether a held like's signature is its liker's (checked once per value).
    private func verifiedLike(_ record: Store.EntityRecord, in doc: DocumentID) -> Bool {
        let f = Views.fields(record)
        guard f[TripLikeFields.liked] == true, let at = f[TripLikeFields.at], let sigHex = f[TripLikeFields.signature],
            let signature = HexCoding.decode(sigHex), let liker = HexCoding.decode(record.id)
        else { return false }
        let key = "\(doc.hex)/\(record.id)/\(at)/\(sigHex)"
        if let known = explore.verified[key] { return known }
        let ok = PublishedLike(doc: doc, liked: true, at: at, signature: signature).isSigned(by: liker)
        if explore.verified.count > 200_000 { explore.verified.removeAll() }
        explore.verified[key] = ok
        return ok
    }

    // MARK: Views

    /// What every summary reads besides the trip, once per store generation: a search over
    /// thousands of trips reads no table but the index.
    private func exploreContext() -> ExploreIndex.Context {
        let generation = store.generations.current
        if let context = explore.context, context.generation == generation { return context }
        var known = Set(knownPeople().map(\.hex))
        if let me { known.insert(me.hex) }
        let mine = Dictionary(
            ((try? store.myTripLikes()) ?? []).map { ($0.doc, $0.liked) }, uniquingKeysWith: { a, _ in a })
        let saved = Set(((try? store.savedTrips()) ?? []).map(\.doc))
        let context = ExploreIndex.Context(generation: generation, known: known, mine: mine, saved: saved)
        explore.context = context
        return context
    }

    /// People this identity knows (and itself), in hex: whose likes are "likes from people you know".
    private func knownHex() -> Set<String> { exploreContext().known }

    /// This identity's own likes of others' trips, by trip (shown at once, before the author has them).
    private func myLikes() -> [DocumentID: Bool] { exploreContext().mine }

    private func savedSet() -> Set<DocumentID> { exploreContext().saved }

    /// Whether `needle` occurs in `haystack` (bytes of folded text: no `String` search per trip).
    static func contains(_ haystack: [UInt8], _ needle: [UInt8]) -> Bool {
        guard let first = needle.first, needle.count <= haystack.count else { return needle.isEmpty }
        let last = haystack.count - needle.count
        var i = 0
        while i <= last {
            if haystack[i] == first {
                var j = 1
                while j < needle.count, haystack[i + j] == needle[j] { j += 1 }
                if j == needle.count { return true }
            }
            i += 1
        }
        return false
    }

    /// All likers and those this identity knows, with its own like counted at once; without
    /// copying the likers (the sorts count every trip).
    private func likeCounts(_ entry: ExploreIndex.Entry, _ context: ExploreIndex.Context) -> (all: Int, known: Int) {
        var all = entry.likers.count, known = 0
        for liker in entry.likers where context.known.contains(liker) { known += 1 }
        if let me, let liked = context.mine[entry.doc] {
            let counted = entry.likers.contains(me.hex)
            if liked, !counted { (all, known) = (all + 1, known + 1) }
            if !liked, counted { (all, known) = (all - 1, known - 1) }
        }
        return (all, known)
    }

    private func likers(of entry: ExploreIndex.Entry, mine: [DocumentID: Bool]) -> Set<String> {
        guard let me, let liked = mine[entry.doc] else { return entry.likers }
        var out = entry.likers
        if liked { out.insert(me.hex) } else { out.remove(me.hex) }
        return out
    }

    func summary(_ entry: ExploreIndex.Entry) -> JSONValue {
        summary(
            entry, known: knownHex(), mine: myLikes(), saved: savedSet())
    }

    private func summary(
        _ entry: ExploreIndex.Entry, known: Set<String>, mine: [DocumentID: Bool], saved: Set<DocumentID>
    ) -> JSONValue {
        let likers = likers(of: entry, mine: mine)
        let isMine = entry.author == me?.bytes
        var out: [String: JSONValue] = [
            "id": .string(entry.doc.hex), "name": .string(entry.name), "author": .string(Views.ownerID(entry.author)),
            "days": .int(Int64(entry.days)), "countries": .array(entry.countries.map(JSONValue.string)),
            "cities": .array(entry.cities.map(JSONValue.string)), "likes": .int(Int64(likers.count)),
            "likesKnown": .int(Int64(likers.intersection(known).count)),
            "liked": .bool(me.map { likers.contains($0.hex) } ?? false), "saved": .bool(saved.contains(entry.doc)),
            "publishedAt": .string(RFC3339.string(ms: entry.publishedMs)),
            "updatedAt": .string(RFC3339.string(ms: entry.updatedMs)), "mine": .bool(isMine),
            "audience": .string(entry.audience), "withdrawn": .bool(entry.withdrawn),
        ]
        if let name = entry.authorName, !name.isEmpty { out["authorName"] = .string(name) }
        if let start = entry.startDate { out["startDate"] = .string(start) }
        if let end = entry.endDate { out["endDate"] = .string(end) }
        return .object(out)
    }

    /// A dry run's summary: what explore would show of the copy.
    func draftSummary(_ doc: DocumentID, copy: PublishService.Copy) -> JSONValue {
        let entry = describe(doc, author: me?.bytes ?? [], snapshot: PublishService.snapshot(of: copy, as: doc))
        return summary(entry, known: [], mine: [:], saved: [])
    }

    /// The trip read-only: its summary with its items, places to go, days and costs.
    func exploreDetail(snapshot: TripSnapshot, summary: JSONValue) throws -> JSONValue {
        var out = summary.objectValue ?? [:]
        let f = Views.fields(snapshot.root)
        if let zone = f[PublishedTripFields.timeZone] { out["timeZone"] = .string(zone) }
        if let mode = f[PublishedTripFields.travelMode] { out["travelMode"] = .string(mode) }
        let byID = Dictionary(snapshot.trip.items.map { ($0.id, $0) }, uniquingKeysWith: { a, _ in a })
        out["items"] = .array(
            snapshot.itemList.sorted { a, b in
                Self.itemOrder(
                    a.objectValue?["id"]?.stringValue.flatMap { byID[$0] },
                    b.objectValue?["id"]?.stringValue.flatMap { byID[$0] })
            })
        out["places"] = .array(snapshot.stops.compactMap { snapshot.json[$0.id] })
        let days = try JSONDecoder().decode(JSONValue.self, from: Data(snapshot.daysBody()))
        out["days"] = days.objectValue?["days"] ?? .array([])
        out["unscheduled"] = days.objectValue?["unscheduled"] ?? .array([])
        let legacy = TripItemViews.legacyItems(root: snapshot.root).map(\.item)
        let costs = TripCosts.of(
            Trip(items: legacy + snapshot.itemRecords.compactMap { TripItemViews.tripItem($0) }))
        let encoder = JSONEncoder()
        var sections = [String: JSONValue]()
        for section in costs.sections where !section.amounts.isEmpty {
            sections[section.type.rawValue] = try JSONDecoder().decode(
                JSONValue.self, from: try encoder.encode(section.amounts))
        }
        if !sections.isEmpty { out["costs"] = .object(sections) }
        out["totalCost"] = try JSONDecoder().decode(JSONValue.self, from: try encoder.encode(costs.total))
        return .object(out)
    }
}
