extension FieldRule {
    /// The most entries a trip's rate table holds.
    public static let maxRates = 200

    /// `.currency`: a string that is a code of `CurrencyTable` with a minor unit.
    static func validateCurrency(_ field: String, _ value: JSONValue) throws(FieldError) -> JSONValue {
        guard let code = value.stringValue else {
            throw FieldError(field, "'\(field)' must be an ISO 4217 currency code such as EUR")
        }
        guard CurrencyTable.minorDigits(code) != nil else {
            throw FieldError(field, ExpenseTerms.currencyProblem(code, what: "'\(field)'"))
        }
        return value
    }

    /// `.rateTable`: an object of at most `maxRates` entries, currency → rate text; returns it
    /// with every rate in canonical text (so a peer must send the canonical text).
    static func validateRateTable(_ field: String, _ value: JSONValue) throws(FieldError) -> JSONValue {
        guard let table = value.objectValue else {
            throw FieldError(
                field, "'\(field)' must be an object of currency codes to rates, such as {\"USD\": \"0.92\"}")
        }
        guard table.count <= maxRates else {
            throw FieldError(field, "a rate table has at most \(maxRates) currencies; this one has \(table.count)")
        }
        var out = [String: JSONValue]()
        for code in table.keys.sorted() {
            guard CurrencyTable.minorDigits(code) != nil else {
                throw FieldError(field, ExpenseTerms.currencyProblem(code, what: "the rate table's currency"))
            }
            guard let text = table[code]?.stringValue else {
                throw FieldError(
                    field, "the rate of \(code) must be a decimal number written as a string, such as \"0.92\"")
            }
            do throws(FieldError) {
                out[code] = .string(try ExchangeRate(text).description)
            } catch {
                throw FieldError(field, "the rate of \(code): \(error.message)")
            }
        }
        return .object(out)
    }
}
