import PlacesAPI
import PlacesCrypto
import PlacesModel

/// Explore's listing: searching and ranking the visible trips, and the summary each shows
/// (likes from everyone and from people this identity knows, its own like at once, saves).
extension ExploreComponent {
    /// `GET /v1/explore?q=&country=&sort=likes|newest&limit=N`.
    mutating func list(query: [String: String], _ context: Context) throws -> JSONValue {
        let sort = query["sort"] ?? "newest"
        guard sort == "likes" || sort == "newest" else {
            throw ServiceError.invalid("sort", "sort must be likes or newest")
        }
        var limit = Self.defaultLimit
        if let text = query["limit"] {
            // `Int(String)` parses (nil on anything but a number in range): it cannot trap.
            guard let n = Int(text), (1...Self.maxLimit).contains(n) else {
                throw ServiceError.invalid("limit", "limit must be a whole number from 1 to \(Self.maxLimit)")
            }
            limit = n
        }
        var country: String?
        if let text = query["country"], !text.isEmpty {
            guard text.utf8.count == 2, text.utf8.allSatisfy({ (65...90).contains($0) || (97...122).contains($0) })
            else {
                throw ServiceError.invalid("country", "country must be a two-letter ISO 3166 code, such as PT")
            }
            country = text.uppercased()
        }
        let q = Array(NameFolding.fold(String((query["q"] ?? "").prefix(200))).utf8)
        let people = people(context)
        // The visible trips in this order, ranked once per store generation: a request walks
        // them and stops at `limit` matches.
        var trips = [JSONValue]()
        for entry in ranked(by: sort, people, context) {
            if let country, !entry.countries.contains(country) { continue }
            if !q.isEmpty, !Self.contains(entry.folded, q) { continue }
            trips.append(summary(entry, people, me: context.me))
            if trips.count == limit { break }
        }
        return .object(["trips": .array(trips)])
    }

    /// The trips this identity may see, sorted (`likes`: likes known, then all, then newest;
    /// `newest`: by first publication), kept while the store does not change.
    private mutating func ranked(by sort: String, _ people: ExploreIndex.Context, _ context: Context)
        -> [ExploreIndex.Entry]
    {
        if let cached = index.ranked[sort], cached.generation == people.generation { return cached.entries }
        var hits = [(entry: ExploreIndex.Entry, likes: Int, knownLikes: Int)]()
        for entry in visibleEntries(context) {
            let (likes, known) = Self.likeCounts(entry, people, me: context.me)
            hits.append((entry, likes, known))
        }
        if sort == "likes" {
            hits.sort {
                ($0.knownLikes, $0.likes, $0.entry.publishedMs, $0.entry.hex)
                    > ($1.knownLikes, $1.likes, $1.entry.publishedMs, $1.entry.hex)
            }
        } else {
            hits.sort { ($0.entry.publishedMs, $0.entry.hex) > ($1.entry.publishedMs, $1.entry.hex) }
        }
        let entries = hits.map(\.entry)
        index.ranked[sort] = (people.generation, entries)
        return entries
    }

    /// What every summary reads besides the trip, once per store generation: a search over
    /// thousands of trips reads no table but the index.
    mutating func people(_ context: Context) -> ExploreIndex.Context {
        let store = context.store
        let generation = store.generations.current
        if let people = index.context, people.generation == generation { return people }
        var known = Set(context.knownPeople().map(\.hex))
        if let me = context.me { known.insert(me.hex) }
        let mine = Dictionary(
            ((try? store.myTripLikes()) ?? []).map { ($0.doc, $0.liked) }, uniquingKeysWith: { a, _ in a })
        let saved = Set(((try? store.savedTrips()) ?? []).map(\.doc))
        let people = ExploreIndex.Context(generation: generation, known: known, mine: mine, saved: saved)
        index.context = people
        return people
    }

    /// Whether `needle` occurs in `haystack` (bytes of folded text: no `String` search per trip).
    static func contains(_ haystack: [UInt8], _ needle: [UInt8]) -> Bool {
        guard let first = needle.first, needle.count <= haystack.count else { return needle.isEmpty }
        let last = haystack.count - needle.count
        var i = 0
        while i <= last {
            if haystack[i] == first {
                var j = 1
                while j < needle.count, haystack[i + j] == needle[j] { j += 1 }
                if j == needle.count { return true }
            }
            i += 1
        }
        return false
    }

    /// All likers and those this identity knows, with its own like counted at once; without
    /// copying the likers (the sorts count every trip).
    private static func likeCounts(_ entry: ExploreIndex.Entry, _ people: ExploreIndex.Context, me: PublicKey?)
        -> (all: Int, known: Int)
    {
        var all = entry.likers.count, known = 0
        for liker in entry.likers where people.known.contains(liker) { known += 1 }
        if let me, let liked = people.mine[entry.doc] {
            let counted = entry.likers.contains(me.hex)
            if liked, !counted { (all, known) = (all + 1, known + 1) }
            if !liked, counted { (all, known) = (all - 1, known - 1) }
        }
        return (all, known)
    }

    private static func likers(of entry: ExploreIndex.Entry, mine: [DocumentID: Bool], me: PublicKey?) -> Set<String> {
        guard let me, let liked = mine[entry.doc] else { return entry.likers }
        var out = entry.likers
        if liked { out.insert(me.hex) } else { out.remove(me.hex) }
        return out
    }

    /// A trip's summary as explore lists it.
    func summary(_ entry: ExploreIndex.Entry, _ people: ExploreIndex.Context, me: PublicKey?) -> JSONValue {
        Self.summary(entry, known: people.known, mine: people.mine, saved: people.saved, me: me)
    }

    static func summary(
        _ entry: ExploreIndex.Entry, known: Set<String>, mine: [DocumentID: Bool], saved: Set<DocumentID>,
        me: PublicKey?
    ) -> JSONValue {
        let likers = likers(of: entry, mine: mine, me: me)
        let isMine = entry.author == me?.bytes
        var out: [String: JSONValue] = [
            "id": .string(entry.doc.hex), "name": .string(entry.name), "author": .string(Views.ownerID(entry.author)),
            "days": .int(Int64(entry.days)), "countries": .array(entry.countries.map(JSONValue.string)),
            "cities": .array(entry.cities.map(JSONValue.string)), "likes": .int(Int64(likers.count)),
            "likesKnown": .int(Int64(likers.intersection(known).count)),
            "liked": .bool(me.map { likers.contains($0.hex) } ?? false), "saved": .bool(saved.contains(entry.doc)),
            "publishedAt": .string(RFC3339.string(ms: entry.publishedMs)),
            "updatedAt": .string(RFC3339.string(ms: entry.updatedMs)), "mine": .bool(isMine),
            "audience": .string(entry.audience), "withdrawn": .bool(entry.withdrawn),
        ]
        if let name = entry.authorName, !name.isEmpty { out["authorName"] = .string(name) }
        if let start = entry.startDate { out["startDate"] = .string(start) }
        if let end = entry.endDate { out["endDate"] = .string(end) }
        return .object(out)
    }
}
