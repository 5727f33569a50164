import PlacesCrypto
import PlacesGazetteer
import PlacesModel

/// Reads through the itinerary views (days, a day, routes) of a published trip: set by the
/// explore routes, after they checked the trip may be seen (`ItineraryService.document`).
enum TripReading {
    @TaskLocal static var published = false
}

/// What explore lists: one entry per published trip held, made from its document when its
/// ops change (`ExploreComponent.didStore` marks it), so a search over thousands reads no
/// document.
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
    /// Whether a write outside ops (a purge, a join, a rebuild) may have added or dropped
    /// published documents: the next read compares the held ones with the store's.
    var recheck = false
    var cities: CityGrid?
    /// Who this identity knows, its likes and saves, read once per store generation.
    var context: Context?
    /// Co-members of this identity's itineraries, kept until a change that may move a
    /// membership (the changes that drop `SyncComponent`'s participants): reading them
    /// walks every itinerary.
    var coMembers: Set<PublicKey>?
    /// The visible trips in each sort's order, kept in place as trips change.
    var rankings: [String: Ranking] = [:]

    /// One sort's order of the visible trips. Only the trips that changed (`stale`) move;
    /// what decides every trip's place or visibility (the people known, friends, this
    /// identity's publications) is kept with it, and a change there ranks every trip again.
    struct Ranking {
        var known: Set<String>
        var friends: Set<[UInt8]>
        var publications: Int
        /// This identity's own likes of others' trips the order counted.
        var mine: [DocumentID: Bool]
        /// Best first.
        var order: [Rank]
        /// Each ranked trip's key, to find it in `order`.
        var ranks: [DocumentID: Rank]
        /// Trips indexed again since the order was made.
        var stale: Set<DocumentID> = []
    }

    /// What a sort orders a trip by.
    struct Rank {
        var doc: DocumentID
        var knownLikes: Int
        var likes: Int
        var publishedMs: Int64
        var hex: String

        /// Whether `self` comes before `other` in `sort` (`likes`: likes known, then all,
        /// then newest; `newest`: by first publication; the id last, so no two tie).
        func precedes(_ other: Rank, by sort: String) -> Bool {
            if sort == "likes" {
                return (knownLikes, likes, publishedMs, hex) > (
                    other.knownLikes, other.likes, other.publishedMs, other.hex
                )
            }
            return (publishedMs, hex) > (other.publishedMs, other.hex)
        }
    }

    struct Context {
        var generation: UInt64
        /// Friends, contacts, co-members and this identity, in hex.
        var known: Set<String>
        /// This identity's own likes of others' trips, by trip.
        var mine: [DocumentID: Bool]
        var saved: Set<DocumentID>
    }
}
