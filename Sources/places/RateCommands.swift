import ArgumentParser
import PlacesModel

extension ItineraryGroup {
    /// `places itinerary rates`.
    struct Rates: ParsableCommand {
        static let configuration = CommandConfiguration(
            abstract: "Show or change the trip's exchange rates to its settlement currency.",
            discussion: """
                --set USD=0.92 means 1 USD = 0.92 of the settlement currency. A new expense in \
                USD takes the rate from this table unless it gives --rate; changing the table \
                later does not change expenses already entered (each keeps its own rate). \
                Set the settlement currency with `places itinerary edit ITIN --settlement-currency EUR`.
                """)

        @OptionGroup var global: GlobalOptions

        @Argument(help: "The itinerary: its id, its name or a unique start of either.")
        var itinerary: String

        @Option(help: ArgumentHelp("Set a rate (repeatable): 1 CODE = RATE settlement units.", valueName: "CODE=RATE"))
        var set: [String] = []

        @Option(help: ArgumentHelp("Remove a currency's rate (repeatable).", valueName: "CODE"))
        var remove: [String] = []

        /// The `--set` values as code → rate.
        func changes() throws -> [(code: String, rate: String)] {
            try set.map { text in
                let parts = text.split(separator: "=", maxSplits: 1).map(String.init)
                guard parts.count == 2 else { throw ValidationError("--set '\(text)' is not like USD=0.92") }
                let code = try AmountText.currency(parts[0], what: "--set \(parts[0])")
                return (code, try AmountText.rate(parts[1], what: "--set \(code)"))
            }
        }

        func validate() throws {
            let codes = try changes().map(\.code)
            let removed = try remove.map { try AmountText.currency($0, what: "--remove") }
            if let both = codes.first(where: removed.contains) {
                throw ValidationError("\(both) is both in --set and in --remove")
            }
        }

        func run() throws {
            let session = try ExpenseSession(global, itinerary: itinerary)
            var reply = try session.request("GET", session.target("rates"))
            if !set.isEmpty || !remove.isEmpty {
                // The table is one register: the whole of it is written back.
                var rates = try reply.decode(ExpenseAPI.Rates.self).rates
                for (code, rate) in try changes() { rates[code] = rate }
                for code in try remove.map({ try AmountText.currency($0, what: "--remove") }) {
                    guard rates.removeValue(forKey: code) != nil else {
                        throw CLIExit.fail("the trip has no rate for \(code) to remove", CLIExit.usage)
                    }
                }
                var body = JSONBody()
                body["rates"] = .object(rates.mapValues(JSONValue.string))
                reply = try session.request("PUT", session.target("rates"), body)
            }
            if global.json { return printRaw(reply) }
            print(ExpenseFormat.rates(try reply.decode(ExpenseAPI.Rates.self)))
        }
    }
}

/// The itinerary's `settlementCurrency`, read from the same body as ``Itinerary``.
struct SettlementCurrencyField: Decodable {
    var settlementCurrency: String?
}
