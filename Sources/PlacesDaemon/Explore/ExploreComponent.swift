import Foundation
import Logging
import PlacesAPI
import PlacesCrypto
import PlacesGazetteer
import PlacesModel
import PlacesStore
import PlacesSync

/// Explore (issue 17): the published trips this daemon may show, their likes and saves.
///
/// A component of the engine (docs/devices-design.md §1): it owns the index of published
/// trips, its rankings and the per-peer like budget; it learns of stored ops through
/// `didStore`, and reads what other features hold only through its `Context`.
struct ExploreComponent: EngineComponent {
    static let defaultLimit = 50
    static let maxLimit = 500

    /// What explore reads of the rest of the daemon.
    struct Context {
        let store: Store
        /// The logged-in identity; nil while logged out.
        let me: PublicKey?
        /// Friends now (the friends feature's query).
        let friends: () -> Set<PublicKey>
        /// Co-members of this identity's itineraries (kept in the index: `coMembers`).
        let coMembers: () -> Set<PublicKey>
        /// Contacts (with friends and co-members, the people known: `Engine.knownPeople`).
        let contacts: () -> Set<PublicKey>
        /// This identity's publications, by published document (publishing's query).
        let publications: () -> [DocumentID: Store.PublicationRecord]
        /// The gazetteer, once it loads (discover's query).
        let gazetteer: () -> Gazetteer?
    }

    /// The index and what it keeps.
    var index = ExploreIndex()

    /// Ops were stored: the published trips among their documents are read again on the next
    /// request. Co-members are read again after what may change a membership (as
    /// `SyncComponent` drops participants); documents changed outside ops are compared with
    /// the store's on the next request.
    mutating func didStore(_ change: StoreChange) {
        switch change {
        case .ops(let ops, let membership):
            if !membership.isEmpty { index.coMembers = nil }
            guard index.entries != nil else { return }
            for op in ops { index.dirty.insert(op.header.doc) }
        case .grant, .friendship:
            index.coMembers = nil
        case .documents:
            index.coMembers = nil
            index.recheck = true
        }
    }

    /// What was kept for the previous identity goes (the trips themselves stay).
    mutating func didChangeIdentity() {
        index.context = nil
        index.coMembers = nil
        index.rankings = [:]
    }

    /// Takes one like from `peer` in the current minute; false past the bound.
    mutating func takeLike(from peer: PublicKey, minute: Int64) -> Bool {
        var budget = index.likeBudget[peer] ?? (minute, 0)
        if budget.minute != minute { budget = (minute, 0) }
        guard budget.count < PublishedBounds.likesPerMinute else { return false }
        budget.count += 1
        if index.likeBudget.count > 4_096 { index.likeBudget.removeAll() }
        index.likeBudget[peer] = budget
        return true
    }

    // MARK: The index

    /// Every published trip held, current.
    mutating func entries(_ context: Context) -> [DocumentID: ExploreIndex.Entry] {
        if index.entries == nil {
            index.entries = [:]
            index.dirty = Set(((try? context.store.documents(kind: .published)) ?? []).map(\.id))
            index.recheck = false
        }
        if index.recheck {
            // Documents added or dropped outside ops: those not held, and those gone.
            index.recheck = false
            let held = Set(((try? context.store.documents(kind: .published)) ?? []).map(\.id))
            let kept = Set((index.entries ?? [:]).keys)
            index.dirty.formUnion(held.symmetricDifference(kept))
        }
        let dirty = index.dirty
        index.dirty = []
        for sort in index.rankings.keys { index.rankings[sort]?.stale.formUnion(dirty) }
        for doc in dirty {
            // Updated in place: a copy of thousands of entries per change would cost more.
            // Made first: making it reads and writes the index (verified likes, the city grid).
            let entry = (try? context.store.document(doc)).flatMap { record in
                record.kind == .published ? indexEntry(record, context) : nil
            }
            index.entries?[doc] = entry
        }
        return index.entries ?? [:]
    }

    /// The trips this identity may see now: its own live ones; others' live ones published to
    /// the network, or by someone who is a friend now.
    mutating func visibleEntries(_ context: Context) -> [ExploreIndex.Entry] {
        guard let me = context.me else { return [] }
        let friends = Set(context.friends().map(\.bytes))
        let publications = context.publications()
        return entries(context).values.filter { entry in
            Self.isVisible(entry, me: me, friends: friends, publications: publications)
        }
    }

    static func isVisible(
        _ entry: ExploreIndex.Entry, me: PublicKey, friends: Set<[UInt8]>,
        publications: [DocumentID: Store.PublicationRecord]
    ) -> Bool {
        guard !entry.withdrawn else { return false }
        if entry.author == me.bytes { return publications[entry.doc] != nil }
        return entry.audience == "network" || friends.contains(entry.author)
    }

    /// A trip by id or unique prefix (4+ characters) among those visible; 404 otherwise.
    mutating func visibleTrip(_ reference: String, _ context: Context) throws -> ExploreIndex.Entry {
        let ref = reference.lowercased()
        // A whole id is looked up, not searched for among every visible trip (publishing
        // answers with the trip it published: a search made publishing 5,000 trips quadratic).
        if ref.utf8.count == 64, let doc = DocumentID(hex: ref), let me = context.me {
            guard let entry = entries(context)[doc],
                Self.isVisible(
                    entry, me: me, friends: Set(context.friends().map(\.bytes)), publications: context.publications())
            else { throw ServiceError.notFound("no published trip '\(reference.prefix(40))' you can see") }
            return entry
        }
        let matches = ref.utf8.count >= 4 ? visibleEntries(context).filter { $0.doc.hex.hasPrefix(ref) } : []
        guard matches.count == 1, let entry = matches.first else {
            if matches.count > 1 {
                throw ServiceError.invalid(
                    "id", "'\(reference.prefix(40))' matches \(matches.count) trips: give more characters")
            }
            throw ServiceError.notFound("no published trip '\(reference.prefix(40))' you can see")
        }
        return entry
    }

    private mutating func indexEntry(_ record: Store.DocumentRecord, _ context: Context) -> ExploreIndex.Entry? {
        let store = context.store
        guard let root = try? store.entity(in: record.id, id: record.id.hex), root.kind == .publishedTrip else {
            return nil
        }
        let f = Views.fields(root)
        let snapshot = try? TripSnapshot(doc: record.id, store: store)
        var entry =
            snapshot.map { describe(record.id, author: record.owner, snapshot: $0, context) }
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
    mutating func describe(_ doc: DocumentID, author: [UInt8], snapshot: TripSnapshot, _ context: Context)
        -> ExploreIndex.Entry
    {
        let f = Views.fields(snapshot.root)
        let name = f[PublishedTripFields.name] ?? ""
        let authorName = f[PublishedTripFields.authorName]
        let (countries, cities) = placesVisited(snapshot, context)
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
    /// the largest city within 15 km of each point (else the nearest within 30 km), in the
    /// trip's order, at most 20 cities.
    private mutating func placesVisited(_ snapshot: TripSnapshot, _ context: Context) -> ([String], [String]) {
        guard let gazetteer = context.gazetteer() else { return ([], []) }
        if index.cities == nil { index.cities = CityGrid(gazetteer) }
        guard let grid = index.cities else { return ([], []) }
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
    private mutating func verifiedLike(_ record: Store.EntityRecord, in doc: DocumentID) -> Bool {
        let f = Views.fields(record)
        guard f[TripLikeFields.liked] == true, let at = f[TripLikeFields.at], let sigHex = f[TripLikeFields.signature],
            let signature = HexCoding.decode(sigHex), let liker = HexCoding.decode(record.id)
        else { return false }
        let key = "\(doc.hex)/\(record.id)/\(at)/\(sigHex)"
        if let known = index.verified[key] { return known }
        let ok = PublishedLike(doc: doc, liked: true, at: at, signature: signature).isSigned(by: liker)
        if index.verified.count > 200_000 { index.verified.removeAll() }
        index.verified[key] = ok
        return ok
    }
}
