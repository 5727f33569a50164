import Foundation
import PlacesAPI
import PlacesCrypto
import PlacesModel
import PlacesStore
import PlacesTrips

/// The engine's side of explore (`ExploreComponent`): the component's context, the login
/// checks of its routes, and what reads a trip's snapshot or writes saves.
extension Engine {
    /// What explore reads of the rest of the daemon.
    var exploreContext: ExploreComponent.Context {
        ExploreComponent.Context(
            store: store, me: me, friends: { self.currentFriends() }, coMembers: { self.coMembers() },
            contacts: { self.contactKeys() }, publications: { self.publicationsByDoc() },
            gazetteer: { try? self.catalog().gazetteer })
    }

    /// The keys of this identity's contacts (with friends and co-members, `knownPeople`).
    func contactKeys() -> Set<PublicKey> {
        Set(((try? store.contacts()) ?? []).compactMap { try? PublicKey(bytes: $0.key) })
    }

    /// `GET /v1/explore?q=&country=&sort=likes|newest&limit=N`.
    func exploreList(query: [String: String]) throws -> JSONValue {
        try requireLogin()
        return try exploreComponent.list(query: query, exploreContext)
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
        let context = exploreContext
        let entries = exploreComponent.entries(context)
        let people = exploreComponent.people(context)
        let saved = (try storeCall { () throws(StoreError) in try store.savedTrips() })
        let savedSet = Set(saved.map(\.doc))
        let trips = saved.compactMap { entries[$0.doc] }.map {
            ExploreComponent.summary($0, known: people.known, mine: people.mine, saved: savedSet, me: me)
        }
        return .object(["trips": .array(trips)])
    }

    /// The trips `author` published that this identity may see (a friend's profile).
    func tripsPublished(by author: PublicKey) -> [JSONValue] {
        let context = exploreContext
        let people = exploreComponent.people(context)
        return exploreComponent.visibleEntries(context).filter { $0.author == author.bytes }
            .sorted { $0.publishedMs > $1.publishedMs }
            .map { exploreComponent.summary($0, people, me: me) }
    }

    /// `PUT|DELETE /v1/explore/{id}/save`.
    func saveTrip(_ reference: String, saved: Bool) throws -> JSONValue {
        // A saved trip its author withdrew can still be unsaved.
        let ref = reference.lowercased()
        let savedDocs = (try storeCall { () throws(StoreError) in try store.savedTrips() }).map(\.doc)
        let withdrawn = ref.utf8.count >= 4 ? savedDocs.filter { $0.hex.hasPrefix(ref) } : []
        let entry: ExploreIndex.Entry
        if !saved, withdrawn.count == 1, let doc = withdrawn.first,
            let held = exploreComponent.entries(exploreContext)[doc], held.withdrawn
        {
            entry = held
        } else {
            entry = try visibleTrip(reference)
        }
        try storeCall { () throws(StoreError) in try store.setSaved(entry.doc, saved, timeMs: RFC3339.nowMs()) }
        return summary(entry)
    }

    /// A trip by id or unique prefix (4+ characters) among those visible; 404 otherwise.
    func visibleTrip(_ reference: String) throws -> ExploreIndex.Entry {
        try requireLogin()
        return try exploreComponent.visibleTrip(reference, exploreContext)
    }

    func publishedRecord(_ doc: DocumentID) throws -> Store.DocumentRecord {
        guard let record = try storeCall({ () throws(StoreError) in try store.document(doc) }) else {
            throw ServiceError.notFound("no published trip '\(doc.hex)'")
        }
        return record
    }

    /// A trip's summary as explore lists it.
    func summary(_ entry: ExploreIndex.Entry) -> JSONValue {
        exploreComponent.summary(entry, exploreComponent.people(exploreContext), me: me)
    }

    /// A dry run's summary: what explore would show of the copy.
    func draftSummary(_ doc: DocumentID, copy: PublishService.Copy) -> JSONValue {
        let entry = exploreComponent.describe(
            doc, author: me?.bytes ?? [], snapshot: PublishService.snapshot(of: copy, as: doc), exploreContext)
        return ExploreComponent.summary(entry, known: [], mine: [:], saved: [], me: me)
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
