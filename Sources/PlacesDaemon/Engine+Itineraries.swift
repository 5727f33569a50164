import Foundation
import PlacesAPI
import PlacesCrypto
import PlacesModel
import PlacesStore

extension Engine {
    func itineraries(scope: String?) throws(Problem) -> ItineraryList {
        try requireLogin()
        let scope = scope ?? "all"
        guard ["mine", "shared", "all"].contains(scope) else {
            throw Problem.invalid("scope", "scope must be mine, shared or all")
        }
        let me = self.me!.bytes
        var out = [ItinerarySummary]()
        for doc in try storeCall({ () throws(StoreError) in try store.documents(kind: .itinerary) }) {
            let mine = doc.owner == me
            guard scope == "all" || (scope == "mine") == mine else { continue }
            guard let it = try? itinerary(doc.id.hex) else { continue }
            out.append(
                ItinerarySummary(
                    id: it.id, name: it.name, startDate: it.startDate, endDate: it.endDate, placeCount: it.places.count,
                    totalCost: it.totalCost, owner: it.owner, role: it.role))
        }
        out.sort {
            ($0.startDate ?? "9999", $0.name.lowercased(), $0.id) < (
                $1.startDate ?? "9999", $1.name.lowercased(), $1.id
            )
        }
        return ItineraryList(itineraries: out, count: out.count)
    }

    /// Resolves an itinerary id or unique prefix to its (live) document.
    func itineraryDoc(_ reference: String) throws(Problem) -> Store.DocumentRecord {
        try requireLogin()
        let ref = reference.lowercased()
        guard ref.utf8.count >= 4 else {
            throw Problem.invalid("id", "'\(reference)' is not an itinerary id: give at least 4 hex characters")
        }
        let docs = try storeCall { () throws(StoreError) in try store.documents(kind: .itinerary) }.filter {
            $0.id.hex.hasPrefix(ref)
        }
        // Live itineraries this identity owns or is a member of (left or removed ones stay
        // on disk, out of sight).
        let live = docs.filter {
            (try? store.entity(in: $0.id, id: $0.id.hex))?.deleted == false
                && ($0.owner == me?.bytes || Store.activeRoles.contains(role(in: $0)))
        }
        guard !live.isEmpty else { throw Problem.notFound("no itinerary with id '\(reference)'") }
        guard live.count == 1 else {
            throw Problem.invalid("id", "'\(reference)' matches \(live.count) itineraries: give more characters")
        }
        return live[0]
    }

    func itinerary(_ reference: String) throws(Problem) -> Itinerary {
        let doc = try itineraryDoc(reference)
        guard let root = try storeCall({ () throws(StoreError) in try store.entity(in: doc.id, id: doc.id.hex) }) else {
            throw Problem.notFound("no itinerary with id '\(reference)'")
        }
        let stops = try storeCall { () throws(StoreError) in try store.entities(in: doc.id, kind: .stop) }
        return Views.itinerary(root: root, stops: stops, owner: doc.owner, role: role(in: doc))
    }

    func createItinerary(_ body: [String: JSONValue]) throws(Problem) -> Itinerary {
        try requireLogin()
        var object = body
        let placeRefs = try placeReferences(object.removeValue(forKey: "places"))
        let fields = try itineraryFields(object, creating: true, current: [:])
        let places = try placeRefs.map { ref throws(Problem) in
            try resolve(ref, in: try library(), kind: .place, what: "place")
        }
        let id = DocumentID(bytes: SecureRandom.bytes(16))!
        do {
            let key = try SecretBox.randomKey()
            try store.createDocument(
                id, kind: .itinerary, owner: me!, sealedKey: try SealedBox.seal(key, to: me!), timeMs: RFC3339.nowMs())
            try addKey(key, doc: id)
        } catch {
            throw Problem(status: 500, code: "store", title: "Could not create the itinerary", detail: "\(error)")
        }
        var changes: [Change] = [.create(entity: id.hex, kind: .itinerary)]
        for (field, value) in fields where !value.isNull {
            changes.append(.set(entity: id.hex, kind: .itinerary, field: field, value: value, old: nil))
        }
        for (place, key) in zip(places, FractionalIndex.spread(places.count)) {
            changes += stopChanges(for: place, position: key)
        }
        try commit(id, changes, summary: "itinerary \(fields.first { $0.0 == "name" }?.1.description ?? "") created")
        return try itinerary(id.hex)
    }

    func updateItinerary(_ reference: String, _ body: [String: JSONValue]) throws(Problem) -> Itinerary {
        let doc = try itineraryDoc(reference)
        try requireEditor(doc)
        guard let root = try storeCall({ () throws(StoreError) in try store.entity(in: doc.id, id: doc.id.hex) }) else {
            throw Problem.notFound("no itinerary with id '\(reference)'")
        }
        guard body["places"] == nil else {
            throw Problem.invalid("places", "change places to go with the /places routes (add, remove, move)")
        }
        let current = Views.fields(root)
        let fields = try itineraryFields(body, creating: false, current: current)
        let changes: [Change] = fields.compactMap { field, value in
            let old = current[field] ?? .null
            guard old != value else { return nil }
            return .set(entity: root.id, kind: .itinerary, field: field, value: value, old: old)
        }
        if !changes.isEmpty {
            try commit(doc.id, changes, summary: "itinerary \(current["name"]?.description ?? "") edited")
        }
        return try itinerary(doc.id.hex)
    }

    /// The owner's delete removes the itinerary for everyone; a member's only leaves it.
    func deleteItinerary(_ reference: String) throws(Problem) {
        let doc = try itineraryDoc(reference)
        guard doc.owner == me?.bytes else { return try leave(doc) }
        try commit(
            doc.id,
            [.set(entity: doc.id.hex, kind: .itinerary, field: "deleted", value: .bool(true), old: .bool(false))],
            summary: "itinerary deleted")
    }

    func addStop(_ reference: String, _ request: AddStopRequest) throws(Problem) -> Itinerary {
        let doc = try itineraryDoc(reference)
        try requireEditor(doc)
        let place = try resolve(request.placeId, in: try library(), kind: .place, what: "place")
        let stops = try storeCall { () throws(StoreError) in try store.entities(in: doc.id, kind: .stop) }
        let key = try positionKey(at: request.position, among: stops)
        try commit(doc.id, stopChanges(for: place, position: key), summary: "place to go added")
        return try itinerary(doc.id.hex)
    }

    func removeStop(_ reference: String, stop: String) throws(Problem) -> Itinerary {
        let doc = try itineraryDoc(reference)
        try requireEditor(doc)
        let record = try resolve(stop, in: doc.id, kind: .stop, alsoBy: "placeId", what: "place to go")
        try commit(
            doc.id, [.set(entity: record.id, kind: .stop, field: "deleted", value: .bool(true), old: .bool(false))],
            summary: "place to go removed")
        return try itinerary(doc.id.hex)
    }

    func moveStop(_ reference: String, stop: String, to position: Int) throws(Problem) -> Itinerary {
        let doc = try itineraryDoc(reference)
        try requireEditor(doc)
        let record = try resolve(stop, in: doc.id, kind: .stop, alsoBy: "placeId", what: "place to go")
        let others = try storeCall { () throws(StoreError) in try store.entities(in: doc.id, kind: .stop) }
            .filter { $0.id != record.id }
        let key = try positionKey(at: position, among: others)
        try commit(
            doc.id,
            [
                .set(
                    entity: record.id, kind: .stop, field: "position", value: .string(key),
                    old: record.position.map(JSONValue.string))
            ],
            summary: "place to go moved")
        return try itinerary(doc.id.hex)
    }

    /// Reorders every place to go at once (used by route --apply): one op, one move per
    /// stop whose key changes.
    func reorderStops(_ doc: DocumentID, order stopIDs: [String]) throws(Problem) {
        let stops = try storeCall { () throws(StoreError) in try store.entities(in: doc, kind: .stop) }
        guard Set(stopIDs) == Set(stops.map(\.id)), stopIDs.count == stops.count else {
            throw Problem.invalid("order", "the order must list every place to go once")
        }
        let byID = Dictionary(uniqueKeysWithValues: stops.map { ($0.id, $0) })
        let changes: [Change] = zip(stopIDs, FractionalIndex.spread(stopIDs.count)).compactMap { id, key in
            let old = byID[id]?.position
            guard old != key else { return nil }
            return .set(entity: id, kind: .stop, field: "position", value: .string(key), old: old.map(JSONValue.string))
        }
        if !changes.isEmpty { try commit(doc, changes, summary: "places to go reordered by route") }
    }

    func activity(_ reference: String) throws(Problem) -> ActivityList {
        let doc = try itineraryDoc(reference)
        let records = try storeCall { () throws(StoreError) in try store.activity(of: doc.id) }
        let myName = (try? profile())?.name
        let myHex = me?.hex
        var names = [String: String]()
        var people = [String: String]()
        let entries = records.map { r -> ActivityEntry in
            let authorKey = try? PublicKey(bytes: HexCoding.decode(r.author) ?? [])
            let author = authorKey.map(\.humanID) ?? r.author
            if people[r.author] == nil, let authorKey { people[r.author] = displayName(of: authorKey) }
            let authorName = r.author == myHex ? myName : people[r.author]
            let old = r.oldJSON.flatMap(Engine.parseJSON)
            let new = r.newJSON.flatMap(Engine.parseJSON)
            let who = authorName ?? String(author.prefix(7))
            let subject =
                Engine.publicKey(hex: r.entity).map(displayName(of:))
                ?? String(r.entity.prefix(8))
            let entityName: String = {
                if let cached = names[r.entity] { return cached }
                let n =
                    self.entityName(in: doc.id, r.entity)
                    ?? ""
                names[r.entity] = n
                return n
            }()
            let summary: String
            switch (r.action, r.kind) {
            case ("joined", _) where r.entity == r.author:
                summary = "\(who) joined through a link as \(new?.stringValue ?? "member")"
            case ("joined", _):
                summary = "\(subject) joined through a link as \(new?.stringValue ?? "member") (let in by \(who))"
            case ("shared", "link"):
                let role = new?.stringValue ?? "share"
                summary = "\(who) made \(role == "editor" ? "an" : "a") \(role) link (\(r.entity.prefix(8)))"
            case ("shared", _):
                summary = "\(who) shared the itinerary with \(subject) as \(new?.stringValue ?? "member")"
            case ("unshared", "link"): summary = "\(who) revoked link \(r.entity.prefix(8))"
            case ("unshared", _): summary = "\(who) removed \(subject) from the itinerary"
            case ("left", _): summary = "\(who) left the itinerary"
            case ("viewed", _): summary = "\(who) viewed the itinerary"
            case ("edited", "member") where r.field == "role":
                summary = "\(who) made \(subject) \(new?.stringValue ?? "a member")"
            case ("created", "itinerary"): summary = "\(who) created the itinerary “\(new?.stringValue ?? entityName)”"
            case ("created", _): summary = "\(who) added “\(new?.stringValue ?? entityName)” to the places to go"
            case ("deleted", "itinerary"): summary = "\(who) deleted the itinerary"
            case ("deleted", _): summary = "\(who) removed “\(entityName)” from the places to go"
            case ("moved", _): summary = "\(who) moved “\(entityName)” in the places to go"
            case ("restored", _): summary = "\(who) restored “\(entityName)”"
            default:
                let field = r.field ?? "a field"
                switch (old, new) {
                case (let o?, let n?) where !o.isNull && !n.isNull:
                    summary = "\(who) changed \(field) from “\(o)” to “\(n)”"
                case (_, let n?) where !n.isNull: summary = "\(who) set \(field) to “\(n)”"
                default: summary = "\(who) cleared \(field)"
                }
            }
            return ActivityEntry(
                time: RFC3339.string(ms: r.timeMs), author: author, authorName: authorName, action: r.action,
                kind: r.kind,
                entity: r.entity, field: r.field, old: old, new: new, summary: summary)
        }
        return ActivityList(activity: entries, count: entries.count)
    }

    // MARK: Helpers

    private func stopChanges(for place: Store.EntityRecord, position: String) -> [Change] {
        let f = Views.fields(place)
        let id = newEntityID()
        var changes: [Change] = [
            .create(entity: id, kind: .stop),
            .set(entity: id, kind: .stop, field: "placeId", value: .string(place.id), old: nil),
            .set(entity: id, kind: .stop, field: "position", value: .string(position), old: nil),
        ]
        for field in ["name", "latitude", "longitude", "address"] {
            if let v = f[field], !v.isNull {
                changes.append(.set(entity: id, kind: .stop, field: field, value: v, old: nil))
            }
        }
        return changes
    }

    private func placeReferences(_ value: JSONValue?) throws(Problem) -> [String] {
        guard let value, !value.isNull else { return [] }
        guard case .array(let items) = value, items.count <= 500 else {
            throw Problem.invalid("places", "'places' must be a list of at most 500 place ids")
        }
        var out = [String]()
        for item in items {
            guard let s = item.stringValue else {
                throw Problem.invalid("places", "'places' must be a list of place ids")
            }
            out.append(s)
        }
        return out
    }

    /// Flattens `lodging` into `lodging.*`, validates, and checks date order against the
    /// values the itinerary will have after the change.
    private func itineraryFields(
        _ body: [String: JSONValue], creating: Bool, current: [String: JSONValue]
    ) throws(Problem) -> [(String, JSONValue)] {
        var flat = body
        if let lodging = flat.removeValue(forKey: "lodging") {
            switch lodging {
            case .null:
                for k in ["name", "address", "checkIn", "checkOut"] { flat["lodging.\(k)"] = .null }
            case .object(let o):
                for (k, v) in o {
                    guard ["name", "address", "checkIn", "checkOut"].contains(k) else {
                        throw Problem.invalid(
                            "lodging.\(k)",
                            "unknown lodging field '\(k)'; the fields are: name, address, checkIn, checkOut")
                    }
                    flat["lodging.\(k)"] = v
                }
            default:
                throw Problem.invalid("lodging", "'lodging' must be an object {name, address, checkIn, checkOut}")
            }
        }
        let fields = try FieldRule.validate(flat, rules: FieldRule.itinerary, creating: creating)
        var after = current
        for (k, v) in fields { after[k] = v }
        for (start, end) in [("startDate", "endDate"), ("lodging.checkIn", "lodging.checkOut")] {
            if let s = after[start]?.stringValue, let e = after[end]?.stringValue, e < s {
                throw Problem.invalid(end, "'\(end)' \(e) is before '\(start)' \(s)")
            }
        }
        return fields
    }

    private func addKey(_ key: [UInt8], doc: DocumentID) throws {
        var ring = keyringCopy()
        ring.insert(key, doc: doc, epoch: 0)
        setKeyring(ring)
    }

    static func parseJSON(_ text: String) -> JSONValue? {
        try? JSONDecoder().decode(JSONValue.self, from: Data(text.utf8))
    }
}
