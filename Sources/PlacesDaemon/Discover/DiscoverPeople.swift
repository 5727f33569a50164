import Foundation
import PlacesGazetteer
import PlacesModel

/// Who saved what, as popularity counts it (issue 15; `Protocol/control-api.yaml`,
/// "Popularity"): the places other people put in the itineraries this daemon holds and the
/// favorites contacts share on their cards, each with the person who saved it; and this
/// person's own favorites (for `favorite`). Read from the store once per store generation.
struct DiscoverPeople {
    /// One saved place.
    struct Saved {
        var person: String
        var name: String
        var folded: String
        var latitude: Double
        var longitude: Double
        var gazetteerID: String?
    }

    /// Places others saved (never this person's own).
    var saved: [Saved] = []
    /// This person's favorites.
    var favorites: [Saved] = []
    /// Library places and contacts' shared favorites, as discover candidates.
    var candidates: [DiscoverCandidate] = []
    /// For each candidate: its owner's public id (nil for this person's own), and whether it
    /// is hearted (own places) — parallel to `candidates`.
    var candidateOwners: [String?] = []
    var candidateSaved: [Saved] = []

    /// The same place, as popularity and `favorite` decide it: the same gazetteer id, or the
    /// same folded name within 100 m.
    static func same(_ a: Saved, _ b: Saved) -> Bool {
        if let x = a.gazetteerID, let y = b.gazetteerID { return x == y }
        return a.folded == b.folded && DiscoverPeople.meters(a, b) <= 100
    }

    /// Great-circle distance in metres.
    static func meters(_ a: Saved, _ b: Saved) -> Double {
        meters(a.latitude, a.longitude, b.latitude, b.longitude)
    }

    static func meters(_ lat1: Double, _ lon1: Double, _ lat2: Double, _ lon2: Double) -> Double {
        let r = 6_371_008.8
        let p1 = lat1 * .pi / 180, p2 = lat2 * .pi / 180
        let dp = p2 - p1, dl = (lon2 - lon1) * .pi / 180
        let h = sin(dp / 2) * sin(dp / 2) + cos(p1) * cos(p2) * sin(dl / 2) * sin(dl / 2)
        return 2 * r * asin(min(1, h.squareRoot()))
    }
}

/// Popularity and hearts, computed from `DiscoverPeople` over the gazetteer (once per store
/// generation, after the first search loaded the gazetteer). Linear in what was saved: a
/// saved place is reduced to one per person, gazetteer id and ~100 m cell of its folded name
/// before anything is matched, so 10,000 copies of one place from one person cost as one,
/// and a place is compared only with those of its own name in its own and the neighbouring
/// cells.
struct DiscoverPopularity {
    /// Result id → how many distinct people (not this one) saved it; absent = 0.
    var counts: [String: Int] = [:]
    /// Result ids this person has a favorite of.
    var favorites: Set<String> = []

    /// Saved places by folded name and cell, each with the people who saved one there.
    private struct NameCells {
        var cells: [String: [Cell: [(person: String, latitude: Double, longitude: Double)]]] = [:]

        mutating func add(_ saved: DiscoverPeople.Saved) {
            let cell = Cell(saved.latitude, saved.longitude)
            var here = cells[saved.folded, default: [:]][cell, default: []]
            // One per person and cell is enough: the cell is ~100 m.
            guard !here.contains(where: { $0.person == saved.person }) else { return }
            here.append((saved.person, saved.latitude, saved.longitude))
            cells[saved.folded, default: [:]][cell] = here
        }

        /// The people who saved a place of `place`'s folded name within 100 m of it.
        func people(near place: DiscoverPeople.Saved) -> Set<String> {
            guard let byCell = cells[place.folded] else { return [] }
            var out = Set<String>()
            for cell in Cell(place.latitude, place.longitude).neighbourhood {
                for entry in byCell[cell] ?? [] where !out.contains(entry.person) {
                    if DiscoverPeople.meters(place.latitude, place.longitude, entry.latitude, entry.longitude) <= 100 {
                        out.insert(entry.person)
                    }
                }
            }
            return out
        }
    }

    /// A cell of 0.001° of latitude (~111 m) by 0.001°/cos(latitude) of longitude, clamped
    /// so that any finite coordinate has one.
    private struct Cell: Hashable {
        var row: Int
        var column: Int

        init(_ latitude: Double, _ longitude: Double) {
            let lat = latitude.isFinite ? max(-90, min(90, latitude)) : 0
            let lon = longitude.isFinite ? max(-180, min(180, longitude)) : 0
            row = Int((lat * 1_000).rounded(.down))
            let scale = max(0.01, cos(lat * .pi / 180))
            column = Int((lon * 1_000 * scale).rounded(.down))
        }

        private init(row: Int, column: Int) {
            self.row = row
            self.column = column
        }

        var neighbourhood: [Cell] {
            var out = [Cell]()
            for dr in -1...1 { for dc in -1...1 { out.append(Cell(row: row + dr, column: column + dc)) } }
            return out
        }
    }

    init(people: DiscoverPeople, catalog: DiscoverCatalog) {
        let index = catalog.index
        // Others' saves, deduplicated.
        var byID = [String: Set<String>]()
        var byName = NameCells()
        for saved in people.saved {
            if let id = saved.gazetteerID { byID[id, default: []].insert(saved.person) } else { byName.add(saved) }
        }
        var persons = byID
        // A save without an id counts for the gazetteer entries of its name within 100 m.
        for (folded, cells) in byName.cells {
            for (_, entries) in cells {
                for entry in entries {
                    for i in index.entries(
                        named: folded, within: 100, ofLatitude: entry.latitude, longitude: entry.longitude)
                    {
                        persons[catalog.gazetteer.id(i), default: []].insert(entry.person)
                    }
                }
            }
        }
        // Hearts: this person's favorites, by id and by name.
        var favoriteIDs = Set<String>()
        var favoriteNames = NameCells()
        for favorite in people.favorites {
            if let id = favorite.gazetteerID { favoriteIDs.insert(id) }
            favoriteNames.add(favorite)
            for i in index.entries(
                named: favorite.folded, within: 100, ofLatitude: favorite.latitude, longitude: favorite.longitude)
            {
                favoriteIDs.insert(catalog.gazetteer.id(i))
            }
        }
        favorites = favoriteIDs
        // Candidates (library places, contacts' favorites): the people who saved the same place.
        var byNameAll = byName
        for saved in people.saved where saved.gazetteerID != nil { byNameAll.add(saved) }
        for (i, candidate) in people.candidateSaved.enumerated() where i < people.candidates.count {
            let id = people.candidates[i].id
            var who = byNameAll.people(near: candidate)
            if let gid = candidate.gazetteerID { who.formUnion(persons[gid] ?? []) }
            if !who.isEmpty { persons[id] = who }
            if let gid = candidate.gazetteerID, favoriteIDs.contains(gid) {
                favorites.insert(id)
            } else if !favoriteNames.people(near: candidate).isEmpty {
                favorites.insert(id)
            }
        }
        counts = persons.mapValues(\.count)
    }
}
