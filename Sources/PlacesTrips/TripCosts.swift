import PlacesModel

/// What a trip costs: the sum of its items' prices per section and in total, per currency,
/// never converted (that comes with expenses). `GET …/costs` and `places itinerary show`.
public struct TripCosts: Sendable, Hashable {
    /// One section's sums.
    public struct Section: Sendable, Hashable {
        public var type: TripItemType
        /// One sum per currency, sorted by currency code; empty when no item has a price.
        public var amounts: [Money]

        /// A section from its parts.
        public init(type: TripItemType, amounts: [Money]) {
            self.type = type
            self.amounts = amounts
        }
    }

    /// Always five, in this order: lodging, transport, food, activity, place.
    public var sections: [Section]
    /// One sum per currency over every section, sorted by currency code.
    public var total: [Money]
    /// Currencies whose sum (in a section or in total) went past what an `Int64` of minor
    /// units holds: their amounts are capped at `Int64.max` (or `.min`) and are not the real
    /// sum. Sorted; empty in any real trip.
    public var cappedCurrencies: [String]

    /// Costs from their parts.
    public init(sections: [Section], total: [Money], cappedCurrencies: [String]) {
        self.sections = sections
        self.total = total
        self.cappedCurrencies = cappedCurrencies
    }

    /// The section order.
    static let order: [TripItemType] = [.lodging, .transport, .food, .activity, .place]

    /// Sums the prices of `trip`'s items (an id seen twice counts once, the first).
    public static func of(_ trip: Trip) -> TripCosts {
        var sections = [Sums](repeating: Sums(), count: order.count)
        var total = Sums()
        var seen = Set<String>(minimumCapacity: trip.items.count)
        for item in trip.items {
            guard seen.insert(item.id).inserted, let price = item.price,
                let section = order.firstIndex(of: item.type)
            else { continue }
            sections[section].add(price)
            total.add(price)
        }
        var capped = total.capped
        for sums in sections { capped.formUnion(sums.capped) }
        return TripCosts(
            sections: zip(order, sections).map { Section(type: $0, amounts: $1.amounts) }, total: total.amounts,
            cappedCurrencies: capped.sorted())
    }

    /// Sums per currency that cap instead of trapping: once a sum overflows it stays at the
    /// bound it passed, and its currency is flagged.
    private struct Sums {
        var byCurrency: [String: Int64] = [:]
        var capped: Set<String> = []

        mutating func add(_ price: Money) {
            guard !capped.contains(price.currency) else { return }
            let (sum, overflow) = byCurrency[price.currency, default: 0].addingReportingOverflow(price.amountMinor)
            if overflow {
                byCurrency[price.currency] = price.amountMinor > 0 ? Int64.max : Int64.min
                capped.insert(price.currency)
            } else {
                byCurrency[price.currency] = sum
            }
        }

        var amounts: [Money] {
            byCurrency.keys.sorted().compactMap { code in
                byCurrency[code].map { Money(amountMinor: $0, currency: code) }
            }
        }
    }
}
