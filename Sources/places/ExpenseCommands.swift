import ArgumentParser
import PlacesModel

/// `places expense …`: who paid what on a trip, how it is split, and how to settle up.
struct ExpenseGroup: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "expense",
        abstract: "Add and list a trip's shared expenses; see balances and how to settle up.",
        discussion: """
            Amounts are typed in the currency's units (84.50 EUR, 1200 JPY, 1.250 BHD) and \
            kept exact; more decimals than the currency has are refused. Travellers are named \
            as `places traveller list` shows them: case and accents do not matter, a unique \
            start of the name is enough, `me` is you, and ids work too. Without a \
            subcommand, lists the expenses: `places expense ITIN`.
            """,
        subcommands: [
            Add.self, List.self, Show.self, Edit.self, Remove.self, BalancesCommand.self, Settle.self, Debts.self,
            Pay.self, Export.self,
        ],
        defaultSubcommand: List.self,
        aliases: ["expenses"])
}

/// Who paid and how it is shared: the options `expense add` and `expense edit` share.
struct ExpenseSplitOptions: ParsableArguments {
    @Option(
        name: .customLong("paid-by"),
        help: ArgumentHelp(
            "Who paid (default: me); several with their amounts: ana:50,bruno:34.50 (one may omit it: the rest).",
            valueName: "name[:amount],…"))
    var paidBy: [String] = []

    @Option(help: "How it is shared: equal (default), shares, exact or percent.")
    var split: SplitMode?

    @Option(
        help: ArgumentHelp(
            "Who shares it (equal: default everyone): ana,bruno; shares: ana:2,bruno; exact: ana:30,bruno:54.50; "
                + "percent: ana:50,bruno:50.", valueName: "name[:n],…"))
    var among: [String] = []

    var isEmpty: Bool { paidBy.isEmpty && split == nil && among.isEmpty }

    func money(amount: String, currency: String) throws -> ExpenseMoney {
        try ExpenseMoney(
            amount: amount, currency: currency, paidBy: try TravellerEntry.parse(paidBy, option: "--paid-by"),
            mode: split ?? .equal, among: try TravellerEntry.parse(among, option: "--among"))
    }
}

/// Title, date, category, item and rate: the descriptive fields `add` and `edit` share.
struct ExpenseDetailOptions: ParsableArguments {
    @Option(help: ArgumentHelp("The day it was spent (default: today).", valueName: "YYYY-MM-DD"))
    var date: String?

    @Option(help: "A category such as food, lodging or transport (free text).")
    var category: String?

    @Option(help: ArgumentHelp("The item of the trip it pays for.", valueName: "item"))
    var item: String?

    @Option(
        help: ArgumentHelp(
            "Exchange rate to the settlement currency: 1 CURRENCY = R (default: the trip's rate table).",
            valueName: "R"))
    var rate: String?

    func validate() throws {
        try validateDate(date, option: "--date")
        if let rate { _ = try AmountText.rate(rate, what: "--rate") }
    }

    func fill(_ body: inout JSONBody) throws {
        if let date { body["date"] = .string(date) }
        if let category { body["category"] = .string(category) }
        if let item { body["itemId"] = .string(item) }
        if let rate { body["rate"] = .string(try AmountText.rate(rate, what: "--rate")) }
    }
}

extension ExpenseGroup {
    /// `places expense add`.
    struct Add: ParsableCommand {
        static let configuration = CommandConfiguration(
            abstract: "Add an expense.",
            discussion: """
                Examples:
                  places expense add ITIN "Dinner at Ramiro" 84.50 EUR \\
                    --paid-by ana --split equal --among ana,bruno,carla
                  places expense add ITIN Groceries 60 EUR --paid-by ana:40,bruno \\
                    --split shares --among ana:2,bruno,carla
                  places expense add ITIN Museum 45 USD --rate 0.92 \\
                    --split exact --among ana:30,bruno
                  places expense add ITIN Cash 20 EUR --paid-by ana --among bruno --transfer
                """,
            aliases: ["new"])

        @OptionGroup var global: GlobalOptions

        @Argument(help: "The itinerary: its id, its name or a unique start of either.")
        var itinerary: String

        @Argument(help: "What it was, e.g. \"Dinner at Ramiro\".")
        var title: String

        @Argument(help: "The amount, e.g. 84.50 (in CURRENCY's units; exact).")
        var amount: String

        @Argument(help: "Its ISO 4217 currency, e.g. EUR.")
        var currency: String

        @OptionGroup var split: ExpenseSplitOptions
        @OptionGroup var details: ExpenseDetailOptions

        @Flag(help: "A payment between travellers: --paid-by gives, --among (one) receives.")
        var transfer = false

        func validate() throws {
            let money = try split.money(amount: amount, currency: currency)
            if transfer {
                if let mode = split.split, mode != .exact { throw ValidationError("--transfer takes no --split") }
                guard money.payers.count == 1, money.among.count == 1 else {
                    throw ValidationError("--transfer needs one --paid-by (who pays) and one --among (who receives)")
                }
            }
        }

        func run() throws {
            let session = try ExpenseSession(global, itinerary: itinerary)
            var money = try split.money(amount: amount, currency: currency)
            var body = JSONBody()
            body["title"] = .string(title)
            if transfer {
                body["kind"] = .string("transfer")
                money.payers = money.payers.map { ($0.name, money.amountMinor) }
                money.mode = .exact
                money.among = money.among.map { ($0.name, money.amountMinor) }
            }
            try money.fill(&body, resolve: session.travellerID)
            try details.fill(&body)
            let reply = try session.request("POST", session.target("expenses"), body)
            if global.json { return printRaw(reply) }
            let expense = try reply.decode(ExpenseAPI.Expense.self)
            print(
                "added \(expense.isTransfer ? "transfer" : "expense") \(Format.shortID(expense.id)) "
                    + "“\(expense.title)” \(ExpenseFormat.amount(expense)): paid by \(ExpenseFormat.payers(expense)); "
                    + ExpenseFormat.split(expense))
        }
    }

    /// `places expense list`.
    struct List: ParsableCommand {
        static let configuration = CommandConfiguration(
            abstract: "List the expenses, newest first.", aliases: ["ls"])

        /// `--kind`.
        enum Kind: String, ExpressibleByArgument, CaseIterable { case expense, transfer }

        @OptionGroup var global: GlobalOptions

        @Argument(help: "The itinerary: its id, its name or a unique start of either.")
        var itinerary: String

        @Option(help: "Only expenses or only transfers (payments between travellers).")
        var kind: Kind?

        func run() throws {
            let session = try ExpenseSession(global, itinerary: itinerary)
            let reply = try session.request("GET", session.target("expenses", query: [("kind", kind?.rawValue)]))
            if global.json { return printRaw(reply) }
            let list = try reply.decode(ExpenseAPI.ExpenseList.self).expenses
            guard !list.isEmpty else {
                return print("no expenses yet: `places expense add \(itinerary) TITLE AMOUNT CURRENCY`")
            }
            print(ExpenseFormat.table(list))
            let spent = list.filter { !$0.isTransfer }
            var totals: [String: Int64] = [:]
            for expense in spent {
                let settled = expense.settlementAmount ?? expense.amount
                totals[settled.currency, default: 0] &+= settled.amountMinor
            }
            let total = totals.keys.sorted().map { AmountText.money(totals[$0] ?? 0, $0) }.joined(separator: " + ")
            var summary = "\(spent.count) expense\(spent.count == 1 ? "" : "s")"
            if !spent.isEmpty { summary += ", \(total) in all" }
            let payments = list.count - spent.count
            if payments > 0 { summary += "; \(payments) payment\(payments == 1 ? "" : "s") between travellers" }
            print(summary)
        }
    }

    /// The arguments naming one expense.
    struct ExpenseReference: ParsableArguments {
        @Argument(help: "The itinerary: its id, its name or a unique start of either.")
        var itinerary: String

        @Argument(help: "The expense id (or a unique prefix of 4+ hex digits).")
        var expense: String
    }

    /// `places expense show`.
    struct Show: ParsableCommand {
        static let configuration = CommandConfiguration(abstract: "Show an expense and each traveller's share.")

        @OptionGroup var global: GlobalOptions
        @OptionGroup var reference: ExpenseReference

        func run() throws {
            let session = try ExpenseSession(global, itinerary: reference.itinerary)
            let reply = try session.request("GET", session.target("expenses", reference.expense))
            if global.json { return printRaw(reply) }
            print(ExpenseFormat.fields(try reply.decode(ExpenseAPI.Expense.self)))
        }
    }

    /// `places expense remove`.
    struct Remove: ParsableCommand {
        static let configuration = CommandConfiguration(abstract: "Delete an expense or payment.", aliases: ["rm"])

        @OptionGroup var global: GlobalOptions
        @OptionGroup var reference: ExpenseReference

        func run() throws {
            let session = try ExpenseSession(global, itinerary: reference.itinerary)
            let reply = try session.request("DELETE", session.target("expenses", reference.expense))
            if global.json { return printRaw(reply) }
            print("removed expense \(reference.expense)")
        }
    }
}
