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
