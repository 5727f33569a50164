import Foundation
import Testing

@testable import PlacesModel

/// JSON text as a register value (numbers as JSONValue decodes them: whole → int).
func json(_ text: String) -> JSONValue {
    (try? JSONDecoder().decode(JSONValue.self, from: Data(text.utf8))) ?? .string("unparsable test JSON: \(text)")
}

/// The stored form of `terms` and of a trip's `rates`: what every device writes and what a
/// peer must send byte for byte (a value in any other form is refused, so two devices never
/// hold two spellings of one expense).
@Suite struct ExpenseTermsJSONTests {
    static let ana = String(repeating: "a", count: 64)
    static let bruno = String(repeating: "b", count: 64)
    static let carla = String(repeating: "c", count: 32)
    var ana: String { Self.ana }
    var bruno: String { Self.bruno }
    var carla: String { Self.carla }

    /// 100.00 USD paid by Ana and Bruno, split 50/30/20 %, settled in EUR at 0.92.
    static let storedText = """
        {"kind": "expense",
         "amount": {"amountMinor": 10000, "currency": "USD"},
         "paidBy": [{"traveller": "\(ana)", "amountMinor": 6000}, {"traveller": "\(bruno)", "amountMinor": 4000}],
         "split": {"mode": "percent", "among": [{"traveller": "\(ana)", "basisPoints": 5000},
                   {"traveller": "\(bruno)", "basisPoints": 3000}, {"traveller": "\(carla)", "basisPoints": 2000}]},
         "settlement": "EUR",
         "rate": "0.92"}
        """
    var stored: JSONValue { json(Self.storedText) }

    func with(_ key: String, _ value: JSONValue?) -> JSONValue {
        var o = stored.objectValue ?? [:]
        o[key] = value
        return .object(o)
    }

    @Test func readsAndWritesTheStoredForm() throws {
        let terms = try ExpenseTerms(json: stored)
        #expect(terms.kind == .expense && terms.mode == .percent)
        #expect(terms.amount == Money(amountMinor: 10_000, currency: "USD"))
        #expect(
            terms.paidBy == [.init(traveller: ana, amountMinor: 6_000), .init(traveller: bruno, amountMinor: 4_000)])
        #expect(terms.among.map(\.weight) == [5_000, 3_000, 2_000])
        #expect(terms.settledMinor == 9_200)
        #expect(terms.json == stored)
        #expect(try FieldRule.expenseTerms.validate("terms", stored) == stored)
    }

    @Test func eachModeHasItsOwnWeightKey() throws {
        let modes: [(ExpenseTerms.Mode, String?, Int64)] = [
            (.equal, nil, 1), (.shares, "shares", 2), (.exact, "amountMinor", 5_000), (.percent, "basisPoints", 5_000),
        ]
        for (mode, key, weight) in modes {
            let terms = try ExpenseTerms(
                kind: .expense, amount: Money(amountMinor: 10_000, currency: "EUR"),
                paidBy: [.init(traveller: ana, amountMinor: 10_000)], mode: mode,
                among: [.init(traveller: ana, weight: weight), .init(traveller: carla, weight: weight)],
                settlement: "EUR", rate: nil)
            let value = terms.json
            let first = value.objectValue?["split"]?.objectValue?["among"]?.arrayValue?.first?.objectValue
            #expect(first?.keys.sorted() == (["traveller"] + (key.map { [$0] } ?? [])).sorted())
            #expect(value.objectValue?["rate"] == nil, "no rate key at all when the currencies agree")
            #expect(try ExpenseTerms(json: value) == terms)
        }
    }

    @Test func nonCanonicalFormsAreRefusedNamingTheField() {
        let rateText = "'rate' must be a decimal number written as a string, such as \"1.0834\""
        let cases: [(JSONValue, String, String)] = [
            (with("note", .string("hi")), "terms", "unknown key 'note' in the terms of an expense"),
            (with("settlement", nil), "terms", "'settlement' is missing from the terms of an expense"),
            (with("rate", .null), "rate", rateText),
            (with("rate", .double(0.92)), "rate", rateText),
            (with("rate", .string("0.920")), "rate", "the rate '0.920' must be written 0.92"),
            (with("rate", .string("00.92")), "rate", "the rate '00.92' must be written 0.92"),
            (with("kind", .string("gift")), "kind", "'kind' must be \"expense\" or \"transfer\""),
            (with("kind", nil), "terms", "'kind' is missing from the terms of an expense"),
            (
                with("amount", json(#"{"amountMinor": 10000.5, "currency": "USD"}"#)), "amount",
                "the amount must be {\"amountMinor\": <whole number>, \"currency\": \"EUR\"}"
            ),
            (
                with("amount", json(#"{"amountMinor": 10000, "currency": "USD", "note": 1}"#)), "amount",
                "unknown key 'note' in the amount ({\"amountMinor\": N, \"currency\": \"EUR\"})"
            ),
            (with("paidBy", .string("ana")), "paidBy", "'paidBy' must be a list of 1 to 100 payers"),
            (
                with("paidBy", json(#"[{"traveller": "\#(ana)", "amountMinor": "100.00"}]"#)), "paidBy",
                "a payer is {\"traveller\": ID, \"amountMinor\": <whole number>}"
            ),
            (
                with("split", json(#"{"mode": "ratio", "among": []}"#)), "split",
                "the split's mode must be equal, shares, exact or percent"
            ),
            (
                with("split", json(#"{"mode": "equal", "among": [{"traveller": "\#(ana)", "shares": 1}]}"#)), "split",
                "unknown key 'shares' in a traveller of a split by equal (keys: traveller)"
            ),
            (
                with("split", json(#"{"mode": "exact", "among": [{"traveller": "\#(ana)", "basisPoints": 10000}]}"#)),
                "split", "unknown key 'basisPoints' in a traveller of a split by exact (keys: amountMinor, traveller)"
            ),
            (
                with("split", json(#"{"mode": "shares", "among": [{"traveller": "\#(ana)"}]}"#)), "split",
                "'shares' is missing from a traveller of a split by shares (keys: shares, traveller)"
            ),
            (
                with("split", json(#"{"mode": "percent", "among": [{"traveller": "\#(ana)", "basisPoints": 99.99}]}"#)),
                "split", "'basisPoints' of the traveller \(ana) must be a whole number"
            ),
            (.array([]), "terms", "the terms of an expense must be a JSON object"),
            (.string("{}"), "terms", "the terms of an expense must be a JSON object"),
        ]
        for (value, field, message) in cases {
            #expect(throws: FieldError(field, message)) { try ExpenseTerms(json: value) }
            #expect(throws: FieldError.self) { try FieldRule.expenseTerms.validate("terms", value) }
        }
        #expect(throws: FieldError("terms", "'terms' is required and cannot be cleared")) {
            try FieldRule.expenseTerms.validate("terms", .null)
        }
    }

    @Test func rulesAreCheckedOnPeersValuesToo() {
        // The same rules as a local write: a peer's 99.99 % split is refused.
        let off = with(
            "split",
            json(
                #"{"mode": "percent", "among": [{"traveller": "\#(ana)", "basisPoints": 5000}, "#
                    + #"{"traveller": "\#(bruno)", "basisPoints": 4999}]}"#))
        #expect(throws: FieldError("split", "the percentages sum to 99.99 % but must sum to exactly 100 %")) {
            try FieldRule.expenseTerms.validate("terms", off)
        }
        let payer = json(#"{"traveller": "\#(ana)", "amountMinor": 1}"#)
        let huge = with("paidBy", .array(Array(repeating: payer, count: 10_000)))
        #expect(throws: FieldError("paidBy", "'paidBy' must be a list of 1 to 100 payers")) {
            try ExpenseTerms(json: huge)
        }
    }

    @Test func rateTables() throws {
        let table = json(#"{"USD": "0.92", "JPY": "0.0061", "BHD": "2.43"}"#)
        #expect(try FieldRule.rateTable.validate("rates", table) == table)
        #expect(try FieldRule.rateTable.validate("rates", .object([:])) == .object([:]))
        #expect(try FieldRule.rateTable.validate("rates", .null) == .null)
        // A local write stores the canonical text; a peer's other spelling is therefore refused
        // by the store's check (validate(value) != value).
        #expect(try FieldRule.rateTable.validate("rates", json(#"{"USD": "0.920"}"#)) == json(#"{"USD": "0.92"}"#))
        let full = JSONValue.object(
            Dictionary(uniqueKeysWithValues: CurrencyTable.codes.prefix(200).map { ($0, JSONValue.string("1")) }))
        #expect(throws: Never.self) { try FieldRule.rateTable.validate("rates", full) }
        let cases: [(String, String)] = [
            (
                #"{"usd": "0.92"}"#,
                "the rate table's currency 'usd' is not an ISO 4217 currency code such as EUR or JPY"
            ),
            (#"{"XAU": "1800"}"#, "the rate table's currency XAU has no minor unit: money cannot be kept in it"),
            (#"{"USD": 0.92}"#, "the rate of USD must be a decimal number written as a string, such as \"0.92\""),
            (#"{"USD": "0"}"#, "the rate of USD: a rate must be greater than 0"),
            (
                #"{"USD": "-0.92"}"#,
                "the rate of USD: a rate is written without a sign: '-0.92' is not a rate; write e.g. 1.0834"
            ),
            ("[]", "'rates' must be an object of currency codes to rates, such as {\"USD\": \"0.92\"}"),
        ]
        for (text, message) in cases {
            #expect(throws: FieldError("rates", message)) { try FieldRule.rateTable.validate("rates", json(text)) }
        }
        var tooMany = [String: JSONValue]()
        for i in 0..<201 { tooMany["Q\(i)"] = .string("1") }
        #expect(throws: FieldError("rates", "a rate table has at most 200 currencies; this one has 201")) {
            try FieldRule.rateTable.validate("rates", .object(tooMany))
        }
    }
}
