import PlacesAPI
import PlacesModel
import PlacesPlanner
import PlacesRoutes
import PlacesStore

/// Nearby's index (issue 32): the user's places and the places shared on the cards of people
/// they know, merged and sorted by latitude with their opening hours parsed, kept until a
/// document it was read from changes (the library, a card), membership or friendships move,
/// or documents come and go. A query reads the band of latitudes its radius spans, so it
/// costs the places near it, not all of them (`docs/nearby.md`, `make bench` "nearby").
struct NearbyComponent: EngineComponent {
    struct Index {
        /// Sorted by latitude.
        var places: [Engine.SavedPlace]
        var latitudes: [Double]
        var longitudes: [Double]
        var hours: [OpeningHours?]
        /// Each place's categories, folded (`NameFolding`).
        var categories: [[String]]
        /// The first place (in this order) of each folded name.
        var byName: [String: Int]
        /// The documents it was read from.
        var docs: Set<DocumentID>

        init(_ places: [Engine.SavedPlace], docs: Set<DocumentID>) {
            self.places = places.sorted { $0.point.latitude < $1.point.latitude }
            latitudes = self.places.map(\.point.latitude)
            longitudes = self.places.map(\.point.longitude)
            hours = self.places.map { $0.hours.map { OpeningHours($0) } }
            categories = self.places.map { $0.categories.map(NameFolding.fold) }
            var names = [String: Int]()
            for (i, place) in self.places.enumerated() where names[NameFolding.fold(place.name)] == nil {
                names[NameFolding.fold(place.name)] = i
            }
            byName = names
            self.docs = docs
        }

        /// The place named `text` (case, accents and punctuation ignored).
        func named(_ text: String) -> Engine.SavedPlace? { byName[NameFolding.fold(text)].map { places[$0] } }

        /// The indices of places whose latitude lies in `low...high`.
        func band(_ low: Double, _ high: Double) -> Range<Int> {
            func first(atLeast value: Double) -> Int {
                var lo = 0, hi = latitudes.count
                while lo < hi {
                    let mid = lo + (hi - lo) / 2
                    if latitudes[mid] < value { lo = mid + 1 } else { hi = mid }
                }
                return lo
            }
            func first(above value: Double) -> Int {
                var lo = 0, hi = latitudes.count
                while lo < hi {
                    let mid = lo + (hi - lo) / 2
                    if latitudes[mid] <= value { lo = mid + 1 } else { hi = mid }
                }
                return lo
            }
            let start = first(atLeast: low)
            return start..<max(start, first(above: high))
        }
    }

    /// The places on the cards of people the user knows, with their names folded: read
    /// again only when one of those cards changes or the set of cards does, so that an edit
    /// of the user's own places does not read every friend's again.
    struct Shared {
        var entries: [(person: (id: String, name: String), place: SharedFavorite)]
        var folded: [String]
        var cards: Set<DocumentID>
    }

    private(set) var index: Index?
    private(set) var shared: Shared?

    mutating func keep(_ index: Index) { self.index = index }
    mutating func keep(_ shared: Shared) { self.shared = shared }

    mutating func didStore(_ change: StoreChange) {
        switch change {
        case .ops(let ops, let membership):
            if let held = index, !membership.isEmpty || ops.contains(where: { held.docs.contains($0.header.doc) }) {
                index = nil
            }
            if let held = shared, ops.contains(where: { held.cards.contains($0.header.doc) }) { shared = nil }
        case .grant: break
        case .friendship, .documents:
            index = nil
            shared = nil
        }
    }

    mutating func didChangeIdentity() {
        index = nil
        shared = nil
    }
}
