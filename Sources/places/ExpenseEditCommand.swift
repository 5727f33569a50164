import ArgumentParser
import PlacesModel

extension ExpenseGroup {
    /// `places expense edit`.
    struct Edit: ParsableCommand {
        /// Fields `--clear` can empty.
        enum ClearableField: String, ExpressibleByArgument, CaseIterable {
            case category, item, rate

            var key: String {
                switch self {
                case .category: "category"
                case .item: "itemId"
                case .rate: "rate"
                }
            }
        }

        static let configuration = CommandConfiguration(
            abstract: "Change some fields of an expense.",
            discussion: """
                Only the options given are sent. The money fields are checked as a whole: a new \
                --amount keeps a single payer (who then paid all of it) and an equal, shares or \
                percent split; several payers or an exact split must be given again. --among \
                without --split keeps the split's mode. --clear empties category, item or rate.
                """)

        @OptionGroup var global: GlobalOptions
        @OptionGroup var reference: ExpenseReference

        @Option(help: "New title.")
        var title: String?

        @Option(help: ArgumentHelp("New amount, in --currency or the expense's currency.", valueName: "amount"))
        var amount: String?

        @Option(help: "New currency (ISO 4217).")
        var currency: String?

        @OptionGroup var split: ExpenseSplitOptions
        @OptionGroup var details: ExpenseDetailOptions

        @Option(help: ArgumentHelp("Clear this field (repeatable).", valueName: "field"))
        var clear: [ClearableField] = []

        func validate() throws {
            if let currency { _ = try AmountText.currency(currency, what: "--currency") }
            if let amount { _ = try AmountText.minor(amount, currency: try code(), what: "--amount") }
            _ = try TravellerEntry.parse(split.paidBy, option: "--paid-by")
            _ = try TravellerEntry.parse(split.among, option: "--among")
        }

        /// The currency `--amount` is read in before the expense is fetched (EUR when unknown:
        /// only the syntax is checked then).
        private func code() throws -> String {
            try currency.map { try AmountText.currency($0, what: "--currency") } ?? "EUR"
        }

        func run() throws {
            let session = try ExpenseSession(global, itinerary: reference.itinerary)
            let target = session.target("expenses", reference.expense)
            var body = JSONBody()
            if let title { body["title"] = .string(title) }
            try details.fill(&body)
            for field in clear {
                guard body[field.key] == nil else {
                    throw ValidationError("--clear \(field.rawValue) conflicts with a new value for it")
                }
                body[field.key] = .null
            }
            if amount != nil || currency != nil || !split.isEmpty {
                let current = try session.request("GET", target).decode(ExpenseAPI.Expense.self)
                try fillMoney(&body, current: current, session: session)
            }
            guard !body.fields.isEmpty else {
                throw ValidationError("nothing to change: give at least one field option or --clear FIELD")
            }
            let reply = try session.request("PATCH", target, body)
            if global.json { return printRaw(reply) }
            print(ExpenseFormat.fields(try reply.decode(ExpenseAPI.Expense.self)))
        }

        /// The amount, payers and split that change, completed from `current` where the
        /// whole must be sent again.
        private func fillMoney(_ body: inout JSONBody, current: ExpenseAPI.Expense, session: ExpenseSession) throws {
            let code = try currency.map { try AmountText.currency($0, what: "--currency") } ?? current.amount.currency
            // A new currency alone re-reads the same figure in it (a wrong currency fixed).
            let text = amount ?? current.amount.decimalText
            let minor = try AmountText.minor(text, currency: code, what: "--amount")
            let amountChanged = minor != current.amount.amountMinor || code != current.amount.currency
            let currentIDs = Set(current.paidBy.map(\.traveller) + current.split.among.map(\.traveller))
            // Travellers kept from the expense are sent as the ids it holds.
            let resolve: (String) throws -> String = { name in
                currentIDs.contains(name) ? name : try session.travellerID(name)
            }
            var money = ExpenseMoney(amountMinor: minor, currency: code, payers: [], mode: .equal, among: [])
            if amountChanged { body["amount"] = Money(amountMinor: minor, currency: code).jsonValue }

            let payerEntries = try TravellerEntry.parse(split.paidBy, option: "--paid-by")
            if !payerEntries.isEmpty {
                money.payers = try ExpenseMoney.payers(payerEntries, minor, code)
            } else if amountChanged {
                guard current.paidBy.count == 1 else {
                    throw ValidationError(
                        "this expense has \(current.paidBy.count) payers: give --paid-by with their new amounts")
                }
                money.payers = [(current.paidBy[0].traveller, current.isTransfer ? minor : nil)]
            }
            if !money.payers.isEmpty { try money.fillPaidBy(&body, resolve: resolve) }

            let amongEntries = try TravellerEntry.parse(split.among, option: "--among")
            let currentMode = SplitMode(rawValue: current.split.mode) ?? .equal
            if split.split != nil || !amongEntries.isEmpty {
                money.mode = split.split ?? currentMode
                money.among = try ExpenseMoney.among(amongEntries, mode: money.mode, minor, code)
                try money.fillSplit(&body, resolve: resolve)
            } else if amountChanged && current.isTransfer {
                money.mode = .exact
                money.among = current.split.among.map { ($0.traveller, minor) }
                try money.fillSplit(&body, resolve: resolve)
            } else if amountChanged && currentMode == .exact {
                throw ValidationError("the split has exact amounts: give --among with the new amounts")
            }
        }
    }
}
