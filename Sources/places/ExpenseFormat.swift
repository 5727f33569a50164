import PlacesModel

/// Human renderings of expenses, balances and settle-up suggestions (issue 14).
enum ExpenseFormat {
    /// "84.50 EUR"; a bare number when there is no currency yet.
    static func money(_ minor: Int64, _ currency: String?) -> String {
        guard let currency else { return String(minor) }
        return AmountText.money(minor, currency)
    }

    /// "100.00 USD (92.00 EUR)" for a foreign-currency expense, else "84.50 EUR".
    static func amount(_ expense: ExpenseAPI.Expense) -> String {
        var text = expense.amount.description
        if let settled = expense.settlementAmount, settled.currency != expense.amount.currency {
            text += " (\(settled.description))"
        }
        return text
    }

    /// "Ana" or "Ana 50.00, Bruno 34.50".
    static func payers(_ expense: ExpenseAPI.Expense) -> String {
        if expense.paidBy.count == 1 { return name(expense.paidBy[0].name, expense.paidBy[0].traveller) }
        return expense.paidBy.map {
            "\(name($0.name, $0.traveller)) \(Money(amountMinor: $0.amountMinor, currency: expense.amount.currency).decimalText)"
        }.joined(separator: ", ")
    }

    /// "equal: Ana, Bruno, Carla", "shares: Ana 2, Bruno 1", "exact: Ana 30.00, Bruno 54.50",
    /// "percent: Ana 50%, Bruno 50%"; a transfer: "to Ana".
    static func split(_ expense: ExpenseAPI.Expense) -> String {
        let among = expense.split.among
        if expense.isTransfer { return "to " + among.map { name($0.name, $0.traveller) }.joined(separator: ", ") }
        let parts = among.map { part -> String in
            let who = name(part.name, part.traveller)
            switch expense.split.mode {
            case "shares": return "\(who) \(part.shares.map(String.init) ?? "?")"
            case "exact":
                let minor = part.amountMinor ?? part.shareMinor ?? 0
                return "\(who) \(Money(amountMinor: minor, currency: expense.amount.currency).decimalText)"
            case "percent": return "\(who) \(part.percent.map(percent) ?? "?")%"
            default: return who
            }
        }
        return "\(expense.split.mode): " + parts.joined(separator: ", ")
    }

    /// 33.33 → "33.33", 50 → "50".
    static func percent(_ value: Double) -> String {
        // The daemon's number, not trusted: out of range or not finite prints as sent.
        guard let basisPoints = Int64(exactly: (value * 100).rounded()), basisPoints >= 0 else { return "\(value)" }
        return ExpenseMoney.percentText(basisPoints)
    }

    /// The size of an amount, without its sign ("28.17 EUR" for -2817); never traps, even
    /// on `Int64.min` from a confused daemon.
    static func unsigned(_ minor: Int64, _ currency: String?) -> String {
        let text = money(minor, currency)
        return text.hasPrefix("-") ? String(text.dropFirst()) : text
    }

    static func name(_ name: String?, _ id: String) -> String {
        if let name, !name.isEmpty { return name }
        return Format.shortID(id)
    }

    /// The table of `places expense list`.
    static func table(_ expenses: [ExpenseAPI.Expense]) -> String {
        var table = Table(
            "ID", "DATE", "TITLE", "AMOUNT", "PAID BY", "SPLIT", alignments: [.left, .left, .left, .right])
        for expense in expenses {
            let title = expense.isTransfer ? "↔ \(expense.title)" : expense.title
            table.append(
                Format.shortID(expense.id), expense.date ?? "", title, amount(expense), payers(expense),
                split(expense))
        }
        return table.render()
    }

    /// Every field of one expense, then each traveller's share.
    static func fields(_ expense: ExpenseAPI.Expense) -> String {
        var fields = Fields()
        fields["id"] = expense.id
        fields["title"] = expense.title
        fields["kind"] = expense.isTransfer ? "transfer (a payment between travellers)" : "expense"
        fields["amount"] = expense.amount.description
        if let rate = expense.rate, let settled = expense.settlementAmount {
            fields["rate"] = "1 \(expense.amount.currency) = \(rate) \(settled.currency)"
            fields["settles as"] = settled.description
        }
        fields["date"] = expense.date
        fields["category"] = expense.category
        fields["item"] = expense.itemId.map(Format.shortID)
        fields["paid by"] = payers(expense)
        fields["split"] = split(expense)
        fields["added by"] = expense.createdByName ?? expense.createdBy.map(Format.shortID)
        fields["created"] = expense.createdAt.map(Format.time)
        fields["updated"] = expense.updatedAt.map(Format.time)
        var out = fields.render()
        let shares = expense.split.among.filter { $0.shareMinor != nil }
        if !shares.isEmpty && !expense.isTransfer {
            var table = Table("TRAVELLER", "SHARE", alignments: [.left, .right])
            for part in shares {
                table.append(
                    name(part.name, part.traveller),
                    Money(amountMinor: part.shareMinor ?? 0, currency: expense.amount.currency).description)
            }
            out += "\n\n" + table.render()
        }
        return out
    }

    /// Paid, share and balance per traveller, the sign said in words.
    static func balances(_ answer: ExpenseAPI.Balances, byCategory: Bool) -> String {
        let currency = answer.currency
        var table = Table(
            "TRAVELLER", "PAID", "SHARE", "BALANCE", "", alignments: [.left, .right, .right, .right, .left])
        for row in answer.balances {
            let words =
                row.balanceMinor > 0
                ? "is owed \(money(row.balanceMinor, currency))"
                : row.balanceMinor < 0 ? "owes \(unsigned(row.balanceMinor, currency))" : "settled"
            table.append(
                name(row.name, row.traveller), money(row.paidMinor, currency), money(row.shareMinor, currency),
                (row.balanceMinor > 0 ? "+" : "") + money(row.balanceMinor, currency), words)
        }
        var out = table.render()
        out += "\nbalance = paid − share: positive is owed money, negative owes it"
        if let unconverted = answer.unconverted, !unconverted.isEmpty {
            out +=
                "\nnot counted: \(unconverted.count) expense\(unconverted.count == 1 ? "" : "s") settled in another "
                + "currency than \(currency ?? "the trip's") (\(unconverted.map(Format.shortID).joined(separator: ", ")))"
        }
        if byCategory {
            let categories = Set(answer.balances.flatMap { ($0.byCategory ?? [:]).keys }).sorted()
            guard !categories.isEmpty else { return out + "\n\nno categorised spending yet" }
            var spending = Table("TRAVELLER")
            spending.headers += categories
            spending.alignments = [.left] + categories.map { _ in .right }
            for row in answer.balances {
                spending.rows.append(
                    [name(row.name, row.traveller)]
                        + categories.map { row.byCategory?[$0].map { money($0, currency) } ?? "" })
            }
            out += "\n\nSpending by category (each traveller's share):\n" + spending.render()
        }
        return out
    }

    /// "Bruno pays Ana 41.20 EUR" per suggestion, then whether the count is proven minimal.
    static func settlement(_ answer: ExpenseAPI.Settlement) -> String {
        guard !answer.transfers.isEmpty else { return "everyone is settled up: nothing to pay" }
        var lines = answer.transfers.map {
            "\(name($0.fromName, $0.from)) pays \(name($0.toName, $0.to)) \(money($0.amountMinor, answer.currency))"
        }
        let count = answer.transfers.count
        let (plural, verb) = count == 1 ? ("", "settles") : ("s", "settle")
        lines.append(
            answer.optimal
                ? "\(count) transfer\(plural) \(verb) every balance: proven to be the fewest possible"
                : "\(count) transfer\(plural) \(verb) every balance: a good plan, but not proven to be the fewest "
                    + "(too many travellers with open balances for the exact search)")
        return lines.joined(separator: "\n")
    }

    /// "Bruno owes Ana 28.17 EUR" per pair.
    static func debts(_ answer: ExpenseAPI.Debts) -> String {
        guard !answer.debts.isEmpty else { return "nobody owes anybody anything" }
        return answer.debts.map {
            "\(name($0.fromName, $0.from)) owes \(name($0.toName, $0.to)) \(money($0.amountMinor, answer.currency))"
        }.joined(separator: "\n")
    }

    /// "1 USD = 0.92 EUR" per rate.
    static func rates(_ answer: ExpenseAPI.Rates) -> String {
        let currency = answer.currency ?? "the settlement currency"
        var lines = ["settlement currency: \(answer.currency ?? "not set yet (the first expense's currency)")"]
        if answer.rates.isEmpty {
            let example = answer.currency == "USD" ? "EUR=1.08" : "USD=0.92"
            lines.append("no exchange rates: `places itinerary rates ITIN --set \(example)`")
        } else {
            lines += answer.rates.keys.sorted().map { "1 \($0) = \(answer.rates[$0] ?? "?") \(currency)" }
        }
        return lines.joined(separator: "\n")
    }
}
