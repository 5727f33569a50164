import ArgumentParser
import PlacesModel

extension ExpenseGroup {
    /// `places expense balances`.
    struct BalancesCommand: ParsableCommand {
        static let configuration = CommandConfiguration(
            commandName: "balances",
            abstract: "Each traveller's total paid, share and balance in the settlement currency.",
            discussion: """
                balance = paid − share: a positive balance is owed money, a negative one owes it. \
                The balances always sum to exactly zero. --by-category adds each traveller's \
                share of spending per category.
                """)

        @OptionGroup var global: GlobalOptions

        @Argument(help: "The itinerary: its id, its name or a unique start of either.")
        var itinerary: String

        @Flag(name: .customLong("by-category"), help: "Also show each traveller's spending by category.")
        var byCategory = false

        func run() throws {
            let session = try ExpenseSession(global, itinerary: itinerary)
            let reply = try session.request("GET", session.target("balances"))
            if global.json { return printRaw(reply) }
            let answer = try reply.decode(ExpenseAPI.Balances.self)
            let nothing =
                answer.balances.allSatisfy { $0.paidMinor == 0 && $0.shareMinor == 0 }
                && (answer.unconverted ?? []).isEmpty
            guard answer.currency != nil, !nothing else {
                return print("no expenses yet: `places expense add \(itinerary) TITLE AMOUNT CURRENCY`")
            }
            print(ExpenseFormat.balances(answer, byCategory: byCategory))
        }
    }

    /// `places expense settle`.
    struct Settle: ParsableCommand {
        static let configuration = CommandConfiguration(
            abstract: "Suggest the fewest payments that settle every balance.",
            discussion: """
                Exact (proven to be the fewest) for up to 20-odd travellers with open balances; \
                beyond that a good plan, and the answer says it is not proven. Paying one \
                suggestion exactly (`places expense pay`) leaves the others as they were.
                """,
            aliases: ["settlement", "settle-up"])

        @OptionGroup var global: GlobalOptions

        @Argument(help: "The itinerary: its id, its name or a unique start of either.")
        var itinerary: String

        func run() throws {
            let session = try ExpenseSession(global, itinerary: itinerary)
            let reply = try session.request("GET", session.target("settlement"))
            if global.json { return printRaw(reply) }
            print(ExpenseFormat.settlement(try reply.decode(ExpenseAPI.Settlement.self)))
        }
    }

    /// `places expense debts`.
    struct Debts: ParsableCommand {
        static let configuration = CommandConfiguration(
            abstract: "Who owes whom, pair by pair, without simplification (to check by hand).")

        @OptionGroup var global: GlobalOptions

        @Argument(help: "The itinerary: its id, its name or a unique start of either.")
        var itinerary: String

        func run() throws {
            let session = try ExpenseSession(global, itinerary: itinerary)
            let reply = try session.request("GET", session.target("debts"))
            if global.json { return printRaw(reply) }
            print(ExpenseFormat.debts(try reply.decode(ExpenseAPI.Debts.self)))
        }
    }

    /// `places expense pay`.
    struct Pay: ParsableCommand {
        static let configuration = CommandConfiguration(
            abstract: "Record a payment between travellers (Bruno paid Ana 41.20 EUR).",
            discussion: """
                A payment is a transfer: it counts as paid by --from and received by --to, so \
                balances and suggestions update. CURRENCY defaults to the settlement currency.
                Example: places expense pay ITIN --from bruno --to ana 41.20 EUR
                """)

        @OptionGroup var global: GlobalOptions

        @Argument(help: "The itinerary: its id, its name or a unique start of either.")
        var itinerary: String

        @Argument(help: "The amount paid, e.g. 41.20.")
        var amount: String

        @Argument(help: "Its ISO 4217 currency (default: the settlement currency).")
        var currency: String?

        @Option(help: ArgumentHelp("Who paid (default: me).", valueName: "name"))
        var from: String = "me"

        @Option(help: ArgumentHelp("Who received it.", valueName: "name"))
        var to: String

        @Option(help: "A title (default: \"Bruno paid Ana\").")
        var title: String?

        @OptionGroup var details: ExpenseDetailOptions

        func validate() throws {
            if let currency {
                let code = try AmountText.currency(currency)
                _ = try AmountText.minor(amount, currency: code, what: "AMOUNT")
            } else {
                // Only the form can be checked before the settlement currency is known.
                _ = try AmountText.minor(amount, currency: "BHD", what: "AMOUNT")
            }
            if TravellerNames.folded(from) == TravellerNames.folded(to) {
                throw ValidationError("--from and --to are the same traveller")
            }
        }

        func run() throws {
            let session = try ExpenseSession(global, itinerary: itinerary)
            let code: String
            if let currency {
                code = try AmountText.currency(currency)
            } else {
                let rates = try session.request("GET", session.target("rates")).decode(ExpenseAPI.Rates.self)
                guard let settlement = rates.currency else {
                    throw CLIExit.fail(
                        "the trip has no settlement currency yet: give the payment's CURRENCY", CLIExit.usage)
                }
                code = settlement
            }
            let minor = try AmountText.minor(amount, currency: code, what: "AMOUNT")
            let payer = try session.traveller(from)
            let payee = try session.traveller(to)
            guard payer.id != payee.id else {
                throw CLIExit.fail("--from and --to are both \(payer.name)", CLIExit.usage)
            }
            var body = JSONBody()
            body["kind"] = .string("transfer")
            body["title"] = .string(title ?? "\(payer.name) paid \(payee.name)")
            let money = ExpenseMoney(
                amountMinor: minor, currency: code, payers: [(payer.id, minor)], mode: .exact,
                among: [(payee.id, minor)])
            try money.fill(&body, resolve: { $0 })
            try details.fill(&body)
            let reply = try session.request("POST", session.target("expenses"), body)
            if global.json { return printRaw(reply) }
            let expense = try reply.decode(ExpenseAPI.Expense.self)
            print(
                "recorded \(Format.shortID(expense.id)): \(payer.name) paid \(payee.name) \(ExpenseFormat.amount(expense))"
            )
        }
    }

    /// `places expense export`.
    struct Export: ParsableCommand {
        static let configuration = CommandConfiguration(
            abstract: "Write the expenses (or, with --balances, the balances) as CSV.",
            discussion: """
                RFC 4180 CSV in UTF-8, for a spreadsheet. Expenses: date, title, kind, category, \
                amount, currency, rate, settlement amount, settlement currency, paid by, split. \
                Balances: traveller, paid, share, balance, currency.
                """)

        @OptionGroup var global: GlobalOptions

        @Argument(help: "The itinerary: its id, its name or a unique start of either.")
        var itinerary: String

        @Flag(help: "The balances instead of the expenses.")
        var balances = false

        @Option(name: [.short, .customLong("output")], help: ArgumentHelp("Write to this file.", valueName: "file"))
        var output: String?

        func run() throws {
            let session = try ExpenseSession(global, itinerary: itinerary)
            let reply = try session.request("GET", session.target(balances ? "balances.csv" : "expenses.csv"))
            try emit(reply.response.body, output: output)
        }
    }
}
