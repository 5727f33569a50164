import Foundation
import PlacesAPI
import PlacesModel
import PlacesPlanner
import PlacesRoutes

/// Nearby's index (issue 32): the user's places and the places the people they know share on
/// their cards, merged into saved places, in a grid of cells about 280 m high.
///
/// The merge is a function of each folded name alone: a shared place joins the first place
/// of the same name (case, accents and punctuation ignored) within 150 m — the user's own
/// first, in library order, then shared places in card order — or is a place of its own.
/// So the index keeps its inputs by name and, when one place of the library or one card
/// changes, merges again only the names that change touched (`setOwn`, `setCard`): an edit
/// costs the places of its name, not the 60,000 others. `NearbyIndexTests` checks that any
/// sequence of such updates leaves what a fresh build of the same inputs holds.
struct NearbyIndex {
    /// One of the user's own places, as the library holds it.
    struct Own {
        var place: Engine.SavedPlace
        /// The library's order: `position`, then id (as `Store.entities(in:kind:)` lists).
        var position: String?
        var folded: String

        init(_ place: Engine.SavedPlace, position: String?) {
            self.place = place
            self.position = position
            folded = NameFolding.fold(place.name)
        }
    }

    /// The places shared on the card of one person the user knows.
    struct Card {
        var doc: DocumentID
        var person: (id: String, name: String)
        var places: [SharedFavorite]
        var folded: [String]

        init(doc: DocumentID, person: (id: String, name: String), places: [SharedFavorite]) {
            self.doc = doc
            self.person = person
            self.places = places
            folded = places.map { NameFolding.fold($0.name) }
        }
    }

    /// A saved place with what a query tests, folded and parsed once.
    struct Entry {
        var place: Engine.SavedPlace
        /// Its categories, folded.
        var categories: [String]
        var hours: OpeningHours?
        var cell: Int64
    }

    /// A shared place: its card (by person id) and its place on the card.
    private struct SharedRef: Hashable {
        var person: String
        var index: Int
    }

    /// The height (and width, in degrees of longitude) of a cell.
    static let cellDegrees = 0.0025

    /// The user (public id, name), who is first in `savedBy` of their own places.
    let me: (id: String, name: String)?
    private(set) var own: [String: Own] = [:]
    private var ownByName: [String: Set<String>] = [:]
    /// By person id.
    private(set) var cards: [String: Card] = [:]
    private var sharedByName: [String: Set<SharedRef>] = [:]
    /// The person each card held belongs to, by card.
    private var cardOwners: [DocumentID: String] = [:]
    /// The merged places; nil in a free slot.
    private(set) var entries: [Entry?] = []
    /// Each slot's point (NaN in a free slot), apart from `entries` so that a query tests a
    /// place's position without copying the place.
    private(set) var points: [GeoPoint] = []
    private var free: [Int] = []
    /// The slots of each folded name's merged places, in merge order.
    private var buckets: [String: [Int]] = [:]
    /// The slots in each cell.
    private(set) var cells: [Int64: [Int]] = [:]
    private var byID: [String: [Int]] = [:]
    /// How many places the index holds.
    private(set) var count = 0

    init(me: (id: String, name: String)?, own: [Own], cards: [Card]) {
        self.me = me
        for place in own {
            self.own[place.place.id] = place
            ownByName[place.folded, default: []].insert(place.place.id)
        }
        for card in cards { addRefs(card) }
        for name in Set(ownByName.keys).union(sharedByName.keys) { merge(name) }
    }

    // MARK: Updating

    /// Replaces (nil: removes) the user's place `id` and merges again the names it had and has.
    mutating func setOwn(_ id: String, _ place: Own?) {
        var names = Set<String>()
        if let old = own.removeValue(forKey: id) {
            names.insert(old.folded)
            ownByName[old.folded]?.remove(id)
            if ownByName[old.folded]?.isEmpty == true { ownByName[old.folded] = nil }
        }
        if let place {
            names.insert(place.folded)
            own[id] = place
            ownByName[place.folded, default: []].insert(id)
        }
        for name in names { merge(name) }
    }

    /// Replaces (nil: removes) the card of person `id` and merges again the names it had and has.
    mutating func setCard(_ id: String, _ card: Card?) {
        var names = Set<String>()
        if let old = cards.removeValue(forKey: id) {
            cardOwners[old.doc] = nil
            for (i, name) in old.folded.enumerated() {
                names.insert(name)
                sharedByName[name]?.remove(SharedRef(person: id, index: i))
                if sharedByName[name]?.isEmpty == true { sharedByName[name] = nil }
            }
        }
        if let card {
            names.formUnion(card.folded)
            addRefs(card)
        }
        for name in names { merge(name) }
    }

    /// The person whose card is `doc`, when the index holds it.
    func cardOwner(_ doc: DocumentID) -> String? { cardOwners[doc] }

    private mutating func addRefs(_ card: Card) {
        cards[card.person.id] = card
        cardOwners[card.doc] = card.person.id
        for (i, name) in card.folded.enumerated() {
            sharedByName[name, default: []].insert(SharedRef(person: card.person.id, index: i))
        }
    }

    /// Merges the places of one folded name again: the user's own (each a place), then each
    /// shared one joining the first within 150 m or standing alone.
    private mutating func merge(_ name: String) {
        for slot in buckets.removeValue(forKey: name) ?? [] { remove(slot) }
        var merged = (ownByName[name] ?? []).compactMap { own[$0] }.sorted(by: Self.libraryOrder).map(\.place)
        let refs = (sharedByName[name] ?? []).sorted { ($0.person, $0.index) < ($1.person, $1.index) }
        for ref in refs {
            guard let card = cards[ref.person], card.places.indices.contains(ref.index) else { continue }
            let favorite = card.places[ref.index]
            let point = GeoPoint(latitude: favorite.latitude, longitude: favorite.longitude)
            if let i = merged.firstIndex(where: {
                $0.point.greatCircleDistanceMeters(to: point) <= Engine.samePlaceMeters
            }) {
                if !merged[i].savedBy.contains(where: { $0.id == card.person.id }) {
                    merged[i].savedBy.append(card.person)
                }
                continue
            }
            merged.append(
                Engine.SavedPlace(
                    id: favorite.id, name: favorite.name, point: point, categories: favorite.categories,
                    notes: favorite.notes, address: favorite.address, savedBy: [card.person]))
        }
        if !merged.isEmpty { buckets[name] = merged.map { insert($0) } }
    }

    /// `position` then id, as SQLite orders them (nulls first, then bytes).
    private static func libraryOrder(_ a: Own, _ b: Own) -> Bool {
        switch (a.position, b.position) {
        case (nil, .some): return true
        case (.some, nil): return false
        case (let x?, let y?) where x != y: return x.utf8.lexicographicallyPrecedes(y.utf8)
        default: return a.place.id.utf8.lexicographicallyPrecedes(b.place.id.utf8)
        }
    }

    private mutating func insert(_ place: Engine.SavedPlace) -> Int {
        let entry = Entry(
            place: place, categories: place.categories.map(NameFolding.fold),
            hours: place.hours.map { OpeningHours($0) },
            cell: Self.cell(place.point))
        let slot: Int
        if let reused = free.popLast() {
            slot = reused
            entries[slot] = entry
            points[slot] = place.point
        } else {
            slot = entries.count
            entries.append(entry)
            points.append(place.point)
        }
        cells[entry.cell, default: []].append(slot)
        byID[place.id, default: []].append(slot)
        count += 1
        return slot
    }

    private mutating func remove(_ slot: Int) {
        guard let entry = entries[slot] else { return }
        entries[slot] = nil
        points[slot] = GeoPoint(latitude: .nan, longitude: .nan)
        free.append(slot)
        count -= 1
        cells[entry.cell]?.removeAll { $0 == slot }
        if cells[entry.cell]?.isEmpty == true { cells[entry.cell] = nil }
        byID[entry.place.id]?.removeAll { $0 == slot }
        if byID[entry.place.id]?.isEmpty == true { byID[entry.place.id] = nil }
    }

    // MARK: Reading

    /// Every place, by latitude (then id).
    var places: [Engine.SavedPlace] {
        entries.compactMap { $0?.place }.sorted {
            ($0.point.latitude, $0.id) < ($1.point.latitude, $1.id)
        }
    }

    /// The place with id `id` (the southernmost of several).
    func place(id: String) -> Engine.SavedPlace? {
        (byID[id] ?? []).compactMap { entries[$0]?.place }.min { $0.point.latitude < $1.point.latitude }
    }

    /// The place named `text` (case, accents and punctuation ignored): the southernmost of
    /// that name.
    func named(_ text: String) -> Engine.SavedPlace? {
        (buckets[NameFolding.fold(text)] ?? []).compactMap { entries[$0]?.place }
            .min { $0.point.latitude < $1.point.latitude }
    }

    /// The row and column of the cell a point lies in (a point off the globe in the first).
    static func cell(_ point: GeoPoint) -> Int64 { row(point.latitude) * 1_000_000 + column(point.longitude) }

    static func row(_ latitude: Double) -> Int64 {
        guard latitude.isFinite else { return 0 }
        return Int64(((min(90, max(-90, latitude)) + 90) / cellDegrees).rounded(.down))
    }

    static func column(_ longitude: Double) -> Int64 {
        guard longitude.isFinite else { return 0 }
        return Int64(((min(180, max(-180, longitude)) + 180) / cellDegrees).rounded(.down))
    }

    /// Calls `body` with the slot of each place whose latitude lies in `latitudes` and
    /// longitude in `longitudes` (every place, for nil longitudes: a box across a pole or the
    /// antimeridian), visiting only the cells the box covers.
    func forEach(latitudes: ClosedRange<Double>, longitudes: ClosedRange<Double>?, _ body: (Int) -> Void) {
        guard let longitudes else {
            for (slot, point) in points.enumerated() where latitudes.contains(point.latitude) { body(slot) }
            return
        }
        let rows = Self.row(latitudes.lowerBound)...Self.row(latitudes.upperBound)
        let columns = Self.column(longitudes.lowerBound)...Self.column(longitudes.upperBound)
        func visit(_ slots: [Int]) {
            for slot in slots {
                let point = points[slot]
                guard latitudes.contains(point.latitude), longitudes.contains(point.longitude) else { continue }
                body(slot)
            }
        }
        if Int64(rows.count) * Int64(columns.count) > Int64(cells.count) {
            for (cell, slots) in cells where rows.contains(cell / 1_000_000) && columns.contains(cell % 1_000_000) {
                visit(slots)
            }
        } else {
            for row in rows {
                for column in columns { visit(cells[row * 1_000_000 + column] ?? []) }
            }
        }
    }
}
