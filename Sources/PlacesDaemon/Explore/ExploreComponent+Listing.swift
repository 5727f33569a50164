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
        // The visible trips in this order, kept as trips change: a request walks them and
        // stops at `limit` matches.
        var trips = [JSONValue]()
        let order = ranked(by: sort, people, context)
        let entries = index.entries ?? [:]
        for rank in order {
            guard let entry = entries[rank.doc] else { continue }
            if let country, !entry.countries.contains(country) { continue }
            if !q.isEmpty, !Self.contains(entry.folded, q) { continue }
            trips.append(summary(entry, people, me: context.me))
            if trips.count == limit { break }
        }
        return .object(["trips": .array(trips)])
    }

    /// The trips this identity may see, sorted (`likes`: likes known, then all, then newest;
    /// `newest`: by first publication). The order is kept: only the trips indexed again
    /// since, and those whose like by this identity changed, are taken out and put back in
    /// place (binary search); a change of the people known, of friends or of this identity's
    /// publications sorts every trip again.
    private mutating func ranked(by sort: String, _ people: ExploreIndex.Context, _ context: Context)
        -> [ExploreIndex.Rank]
    {
        guard let me = context.me else { return [] }
        let entries = entries(context)
        let friends = Set(context.friends().map(\.bytes))
        let publications = context.publications()
        func rank(_ doc: DocumentID) -> ExploreIndex.Rank? {
            guard let entry = entries[doc],
                Self.isVisible(entry, me: me, friends: friends, publications: publications)
            else { return nil }
            let (likes, known) = Self.likeCounts(entry, people, me: me)
            return ExploreIndex.Rank(
                doc: doc, knownLikes: known, likes: likes, publishedMs: entry.publishedMs, hex: entry.hex)
        }
        guard var ranking = index.rankings.removeValue(forKey: sort), ranking.known == people.known,
            ranking.friends == friends, ranking.publications == publications.count
        else {
            let order = entries.keys.compactMap(rank).sorted { $0.precedes($1, by: sort) }
            index.rankings[sort] = ExploreIndex.Ranking(
                known: people.known, friends: friends, publications: publications.count, mine: people.mine,
                order: order, ranks: Dictionary(order.map { ($0.doc, $0) }, uniquingKeysWith: { a, _ in a }))
            return order
        }
        var stale = ranking.stale
        for (doc, liked) in people.mine where ranking.mine[doc] != liked { stale.insert(doc) }
        for doc in ranking.mine.keys where people.mine[doc] == nil { stale.insert(doc) }
        for doc in stale {
            if let old = ranking.ranks.removeValue(forKey: doc) {
                let at = Self.position(of: old, in: ranking.order, by: sort)
                if at < ranking.order.count, ranking.order[at].doc == doc {
                    ranking.order.remove(at: at)
                } else if let found = ranking.order.firstIndex(where: { $0.doc == doc }) {
                    ranking.order.remove(at: found)
                }
            }
            if let new = rank(doc) {
                ranking.order.insert(new, at: Self.position(of: new, in: ranking.order, by: sort))
                ranking.ranks[doc] = new
            }
        }
        ranking.stale = []
        ranking.mine = people.mine
        index.rankings[sort] = ranking
        return ranking.order
    }

    /// The first place in `order` whose trip does not come before `rank`.
    static func position(of rank: ExploreIndex.Rank, in order: [ExploreIndex.Rank], by sort: String) -> Int {
        var low = 0, high = order.count
        while low < high {
            let mid = low + (high - low) / 2
            if order[mid].precedes(rank, by: sort) { low = mid + 1 } else { high = mid }
        }
        return low
    }

    /// What every summary reads besides the trip, once per store generation: a search over
    /// thousands of trips reads no table but the index.
    mutating func people(_ context: Context) -> ExploreIndex.Context {
        let store = context.store
        let generation = store.generations.current
        if let people = index.context, people.generation == generation { return people }
        if index.coMembers == nil { index.coMembers = context.coMembers() }
        var known = Set(context.friends().union(context.contacts()).union(index.coMembers ?? []).map(\.hex))
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
