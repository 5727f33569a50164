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
/// generation, after the first search loaded the gazetteer).
struct DiscoverPopularity {
    /// Result id → how many distinct people (not this one) saved it; absent = 0.
    var counts: [String: Int] = [:]
    /// Result ids this person has a favorite of.
    var favorites: Set<String> = []

    init(people: DiscoverPeople, catalog: DiscoverCatalog) {
        let index = catalog.index
        var persons = [String: Set<String>]()
        /// The gazetteer entries a saved place is: its id, else same folded name within 100 m.
        func entries(_ saved: DiscoverPeople.Saved) -> [String] {
            if let id = saved.gazetteerID { return [id] }
            return index.entries(named: saved.name, within: 100, ofLatitude: saved.latitude, longitude: saved.longitude)
                .map { catalog.gazetteer.id($0) }
        }
        for saved in people.saved {
            for id in entries(saved) { persons[id, default: []].insert(saved.person) }
        }
        for favorite in people.favorites { favorites.formUnion(entries(favorite)) }
        // Candidates (library places, contacts' favorites): matched against what others saved.
        var byName = [String: [DiscoverPeople.Saved]]()
        var byID = [String: [DiscoverPeople.Saved]]()
        for saved in people.saved {
            byName[saved.folded, default: []].append(saved)
            if let id = saved.gazetteerID { byID[id, default: []].append(saved) }
        }
        for (i, candidate) in people.candidateSaved.enumerated() {
            let id = people.candidates[i].id
            var who = Set<String>()
            let pool = (candidate.gazetteerID.flatMap { byID[$0] } ?? []) + (byName[candidate.folded] ?? [])
            for other in pool where DiscoverPeople.same(candidate, other) { who.insert(other.person) }
            if let gid = candidate.gazetteerID { who.formUnion(persons[gid] ?? []) }
            if !who.isEmpty { persons[id] = who }
            if people.favorites.contains(where: { DiscoverPeople.same($0, candidate) }) { favorites.insert(id) }
        }
        counts = persons.mapValues(\.count)
    }
}
