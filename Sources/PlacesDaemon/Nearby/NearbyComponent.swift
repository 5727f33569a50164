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
        var hours: [OpeningHours?]
        /// The documents it was read from.
        var docs: Set<DocumentID>

        init(_ places: [Engine.SavedPlace], docs: Set<DocumentID>) {
            self.places = places.sorted { $0.point.latitude < $1.point.latitude }
            latitudes = self.places.map(\.point.latitude)
            hours = self.places.map { $0.hours.map { OpeningHours($0) } }
            self.docs = docs
        }

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

    private(set) var index: Index?

    mutating func keep(_ index: Index) { self.index = index }

    mutating func didStore(_ change: StoreChange) {
        guard let held = index else { return }
        switch change {
        case .ops(let ops, let membership):
            if !membership.isEmpty || ops.contains(where: { held.docs.contains($0.header.doc) }) { index = nil }
        case .grant: break
        case .friendship, .documents: index = nil
        }
    }

    mutating func didChangeIdentity() { index = nil }
}
