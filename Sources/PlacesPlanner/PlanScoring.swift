import Foundation

/// How a candidate is scored, and the words that say why (`docs/planner.md` §2). The order of
/// the signals is the order of their weight: must, favorite, interest match, the people the
/// user knows who saved it or visit it in published trips, rating.
public enum PlanScoring {
    /// A must (or a place already in the itinerary, or a booked item): far above any sum of
    /// the others, so the solver keeps it whenever it fits.
    public static let mustScore = 1_000.0
    static let favorite = 8.0
    static let interest = 5.0
    static let perPersonSaved = 3.0
    static let maxPeopleCounted = 4
    static let perPublishedTrip = 1.5
    static let maxTripsCounted = 4
    static let perRatingPointAbove = 1.2
    static let mine = 2.0
    static let base = 1.0

    /// A category's comparable form: lower-case, without accents or surrounding spaces.
    public static func fold(_ category: String) -> String {
        category.folding(options: [.caseInsensitive, .diacriticInsensitive], locale: nil)
            .trimmingCharacters(in: .whitespaces)
    }

    /// The categories that make a place a meal (a lunch stop when food is wanted; a meal
    /// estimate from its price level), folded.
    public static let foodCategories: Set<String> = [
        "food", "restaurant", "restaurants", "cafe", "cafes", "coffee", "lunch", "dinner", "eat", "eating", "bistro",
        "tapas", "tasca", "bakery", "pastry", "brunch", "street food", "market", "seafood", "pizza", "sushi",
        "brasserie", "trattoria", "taverna", "fast food", "bar", "bars", "pub", "wine bar",
    ]

    /// Whether the place is somewhere to eat.
    public static func isFood(_ categories: [String]) -> Bool {
        categories.contains { foodCategories.contains(fold($0)) }
    }

    /// The score and the reasons shown beside the stop, in the order above.
    public static func score(_ c: PlanCandidate, interests: [String: Int]) -> (score: Double, reasons: [String]) {
        var score = base
        var reasons = [String]()
        if c.fixed != nil {
            return (mustScore, ["booked in the trip"])
        }
        if c.must {
            score += mustScore
            reasons.append(c.onlyDay != nil ? "already planned for this day" : "you asked for it")
        }
        let s = c.signals
        if s.favorite {
            score += favorite
            reasons.append("your favorite")
        } else if s.mine {
            score += mine
            reasons.append("saved by you")
        }
        let matched = c.categories.filter { interests[fold($0)] != nil }
        if !matched.isEmpty {
            let weight = min(3, matched.reduce(0) { $0 + (interests[fold($1)] ?? 0) })
            score += interest * Double(weight)
            reasons.append("matches " + matched.prefix(3).joined(separator: ", "))
        }
        if !s.savedBy.isEmpty {
            score += perPersonSaved * Double(min(maxPeopleCounted, s.savedBy.count))
            reasons.append("saved by " + names(s.savedBy))
        }
        if s.publishedTrips > 0 {
            score += perPublishedTrip * Double(min(maxTripsCounted, s.publishedTrips))
            reasons.append(
                s.publishedTrips == 1 ? "in a published trip" : "in \(s.publishedTrips) published trips")
        }
        if let rating = s.rating, rating.isFinite {
            score += perRatingPointAbove * (min(5, max(0, rating)) - 2.5)
            if rating >= 4 { reasons.append("rated \(ratingText(rating))") }
        }
        return (max(0.5, score), reasons)
    }

    /// "Bruno", "Bruno and Carla", "Bruno, Carla and 2 others".
    static func names(_ list: [String]) -> String {
        switch list.count {
        case 0: ""
        case 1: list[0]
        case 2: "\(list[0]) and \(list[1])"
        case 3: "\(list[0]), \(list[1]) and \(list[2])"
        default: "\(list[0]), \(list[1]) and \(list.count - 2) others"
        }
    }

    static func ratingText(_ rating: Double) -> String {
        let tenths = (rating * 10).rounded()
        return tenths.truncatingRemainder(dividingBy: 10) == 0 ? String(Int(tenths / 10)) : String(tenths / 10)
    }

    /// Per-person estimates from a price level in euro cents (`docs/planner.md` §4): a meal at
    /// a place to eat, an entry elsewhere.
    public static func estimateEuroCents(priceLevel: Int, food: Bool) -> Int64? {
        let meals: [Int64] = [1_200, 2_500, 4_500, 8_000]
        let entries: [Int64] = [500, 1_200, 2_500, 4_500]
        guard (1...4).contains(priceLevel) else { return nil }
        return (food ? meals : entries)[priceLevel - 1]
    }

    /// Default visit lengths in minutes by category, before the pace (`docs/planner.md` §3).
    public static func defaultVisitMinutes(_ categories: [String]) -> Int {
        let folded = Set(categories.map(fold))
        let table: [(Set<String>, Int)] = [
            (["museum", "museums", "gallery", "art", "palace", "castle", "zoo", "aquarium"], 90),
            (
                ["restaurant", "restaurants", "food", "lunch", "dinner", "brasserie", "trattoria", "taverna", "tasca"],
                75
            ),
            (["market", "shopping", "shop", "park", "garden", "beach"], 60),
            (["bar", "bars", "pub", "wine bar"], 60),
            (["cafe", "cafes", "coffee", "bakery", "pastry", "view", "viewpoint", "miradouro", "church"], 30),
        ]
        for (names, minutes) in table where !folded.isDisjoint(with: names) { return minutes }
        return 45
    }
}
