import PlacesModel

/// The control API's expense answers as the CLI reads them (issue 14; design-14.md,
/// "Control API"). Fields the CLI only prints are optional, so a daemon that adds or omits
/// one still prints; `--json` shows the body verbatim anyway.
enum ExpenseAPI {
    /// `GET …/travellers`: members first, then named travellers.
    struct TravellerList: Decodable {
        var travellers: [Traveller]
    }

    /// A traveller: a member (`id` is their public id) or a named traveller (32-hex id).
    struct Traveller: Decodable {
        var id: String
        var name: String
        var member: Bool?
        var removed: Bool?
        var left: Bool?
        var expenseCount: Int?

        /// Whether new expenses can name them: not removed, not a former member.
        var isCurrent: Bool { removed != true && left != true }
    }

    /// `GET …/expenses`.
    struct ExpenseList: Decodable {
        var expenses: [Expense]
        var count: Int?
    }

    /// One expense or transfer.
    struct Expense: Decodable {
        var id: String
        var title: String
        var kind: String?
        var amount: Money
        var date: String?
        var category: String?
        var itemId: String?
        var paidBy: [Payer]
        var split: Split
        var rate: String?
        var settlementAmount: Money?
        var createdBy: String?
        var createdByName: String?
        var createdAt: String?
        var updatedAt: String?

        var isTransfer: Bool { kind == "transfer" }
    }

    /// Who paid how much (in the expense's currency).
    struct Payer: Decodable {
        var traveller: String
        var name: String?
        var amountMinor: Int64
    }

    /// How an expense is shared.
    struct Split: Decodable {
        var mode: String
        var among: [Part]
    }

    /// One sharer: their weight as entered and their computed share (expense currency).
    struct Part: Decodable {
        var traveller: String
        var name: String?
        var shares: Int64?
        var amountMinor: Int64?
        var percent: Double?
        var shareMinor: Int64?
    }

    /// `GET …/balances`.
    struct Balances: Decodable {
        var currency: String?
        var balances: [Balance]
        var unconverted: [String]?
    }

    /// One traveller's totals in the settlement currency.
    struct Balance: Decodable {
        var traveller: String
        var name: String?
        var paidMinor: Int64
        var shareMinor: Int64
        var balanceMinor: Int64
        var byCategory: [String: Int64]?
    }

    /// `GET …/settlement`.
    struct Settlement: Decodable {
        var currency: String?
        var transfers: [Transfer]
        var optimal: Bool
    }

    /// `GET …/debts`.
    struct Debts: Decodable {
        var currency: String?
        var debts: [Transfer]
    }

    /// `from` pays (or owes) `to`.
    struct Transfer: Decodable {
        var from: String
        var fromName: String?
        var to: String
        var toName: String?
        var amountMinor: Int64
    }

    /// `GET|PUT …/rates`: 1 unit of each key = that many units of `currency`.
    struct Rates: Decodable {
        var currency: String?
        var rates: [String: String]
    }
}
