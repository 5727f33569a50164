import Foundation
import PlacesAPI
import PlacesCrypto
import PlacesModel
import PlacesTestSupport
import Testing

/// Issue 14, "Bad input": each bad expense, traveller or rate-table request gets a precise
/// problem (400 naming the field, 404 for an unknown id, 409 saying what is in the way), and
/// changes nothing: the expense list, the balances, the travellers, the rates and the op
/// count are as before, and the daemon keeps serving.
@Suite("Expense bad input", .serialized)
struct ExpenseBadInputTests {
    struct Case: CustomTestStringConvertible, Sendable {
        var what: String
        var method: String
        /// Placeholders replaced by the fixture's ids: `TRIP`, `OTHER` (another itinerary),
        /// `ME` (the owner's traveller id), `BRUNO`, `CARLA` (named travellers), `DINNER` (an
        /// equal split), `TAXI` (an exact split), `PAYMENT` (a transfer), `OTHERTRAVELLER`,
        /// `OTHEREXPENSE` (of `OTHER`), `STRANGER` (a human id of no member), `NOBODY` (a
        /// 32-hex id of nothing).
        var path: String
        var body: String?
        var status: Int = 400
        var code: String = "invalid-field"
        var field: String?
        var mentions: String
        var testDescription: String { "\(what): \(method) \(path) → \(status) \(code) \(field ?? "")" }
    }

    static let expenses = "/v1/itineraries/TRIP/expenses"

    /// A POST of an expense: `title`, and `fields` (JSON members) after it.
    static func post(_ what: String, _ fields: String, field: String?, mentions: String) -> Case {
        Case(
            what: what, method: "POST", path: expenses, body: #"{"title":"Lunch",\#(fields)}"#, field: field,
            mentions: mentions)
    }

    static let eur8450 = #""amount":{"amountMinor":8450,"currency":"EUR"}"#
    static let paidByMe = #""paidBy":[{"traveller":"ME"}]"#

    static let expenseCases: [Case] = [
        post(
            "payers that do not sum to the amount",
            #"\#(eur8450),"paidBy":[{"traveller":"ME","amountMinor":8000},{"traveller":"BRUNO","amountMinor":400}]"#,
            field: "paidBy", mentions: "84.00 EUR but the amount is 84.50 EUR"),
        post(
            "payers one minor unit short",
            #"\#(eur8450),"paidBy":[{"traveller":"ME","amountMinor":4225},{"traveller":"BRUNO","amountMinor":4224}]"#,
            field: "paidBy", mentions: "84.49 EUR"),
        post(
            "several payers without their amounts",
            #"\#(eur8450),"paidBy":[{"traveller":"ME"},{"traveller":"BRUNO"}]"#,
            field: "paidBy[0].amountMinor", mentions: "several payers"),
        post(
            "a payer who paid nothing",
            #"\#(eur8450),"paidBy":[{"traveller":"ME","amountMinor":8450},{"traveller":"BRUNO","amountMinor":0}]"#,
            field: "paidBy", mentions: "more than zero"),
        post(
            "a payer who paid a negative amount",
            #"\#(eur8450),"paidBy":[{"traveller":"ME","amountMinor":8460},{"traveller":"BRUNO","amountMinor":-10}]"#,
            field: "paidBy", mentions: "more than zero"),
        post(
            "the same payer twice",
            #"\#(eur8450),"paidBy":[{"traveller":"ME","amountMinor":4225},{"traveller":"ME","amountMinor":4225}]"#,
            field: "paidBy", mentions: "the traveller Ana is listed twice"),
        post(
            "101 payers",
            #"\#(eur8450),"paidBy":[\#(Array(repeating: #"{"traveller":"ME","amountMinor":1}"#, count: 101).joined(separator: ","))]"#,
            field: "paidBy", mentions: "at most 100"),
        post("no payer", #"\#(eur8450),"paidBy":[]"#, field: "paidBy", mentions: "non-empty"),
        post("paidBy as an object", #"\#(eur8450),"paidBy":{"traveller":"ME"}"#, field: "paidBy", mentions: "list"),
        post("no paidBy", eur8450, field: "paidBy", mentions: "required"),
        post(
            "a payer who is not in the trip", #"\#(eur8450),"paidBy":[{"traveller":"STRANGER"}]"#,
            field: "paidBy[0].traveller", mentions: "not a traveller of this trip"),
        post(
            "a payer of another itinerary", #"\#(eur8450),"paidBy":[{"traveller":"OTHERTRAVELLER"}]"#,
            field: "paidBy[0].traveller", mentions: "not a traveller of this trip"),
        post(
            "a payer named by a made-up id", #"\#(eur8450),"paidBy":[{"traveller":"bruno"}]"#,
            field: "paidBy[0].traveller", mentions: "not a traveller of this trip"),
        post(
            "a payer given as a number", #"\#(eur8450),"paidBy":[{"traveller":7}]"#,
            field: "paidBy[0].traveller", mentions: "traveller's id"),
        post(
            "a payer with an unknown key",
            #"\#(eur8450),"paidBy":[{"traveller":"ME","amount":8450}]"#,
            field: "paidBy[0].amount", mentions: "unknown field 'amount'"),
        post(
            "an exact split one minor unit short",
            #"\#(eur8450),\#(paidByMe),"split":{"mode":"exact","among":[{"traveller":"ME","amountMinor":2817},{"traveller":"BRUNO","amountMinor":2817},{"traveller":"CARLA","amountMinor":2815}]}"#,
            field: "split", mentions: "84.49 EUR but the amount is 84.50 EUR"),
        post(
            "an exact split one minor unit over",
            #"\#(eur8450),\#(paidByMe),"split":{"mode":"exact","among":[{"traveller":"ME","amountMinor":4226},{"traveller":"BRUNO","amountMinor":4225}]}"#,
            field: "split", mentions: "84.51 EUR"),
        post(
            "an exact split without an amount",
            #"\#(eur8450),\#(paidByMe),"split":{"mode":"exact","among":[{"traveller":"ME"}]}"#,
            field: "split.among[0].amountMinor", mentions: "required"),
        post(
            "percentages summing to 99.99",
            #"\#(eur8450),\#(paidByMe),"split":{"mode":"percent","among":[{"traveller":"ME","percent":33.33},{"traveller":"BRUNO","percent":33.33},{"traveller":"CARLA","percent":33.33}]}"#,
            field: "split", mentions: "99.99 %"),
        post(
            "percentages summing to 100.01",
            #"\#(eur8450),\#(paidByMe),"split":{"mode":"percent","among":[{"traveller":"ME","percent":50.01},{"traveller":"BRUNO","percent":50}]}"#,
            field: "split", mentions: "100.01 %"),
        post(
            "a percentage with three decimals",
            #"\#(eur8450),\#(paidByMe),"split":{"mode":"percent","among":[{"traveller":"ME","percent":33.333},{"traveller":"BRUNO","percent":66.667}]}"#,
            field: "split.among[0].percent", mentions: "more than two decimals"),
        post(
            "a percentage of 100.5",
            #"\#(eur8450),\#(paidByMe),"split":{"mode":"percent","among":[{"traveller":"ME","percent":100.5}]}"#,
            field: "split.among[0].percent", mentions: "0 to 100"),
        post(
            "a percentage written as a string",
            #"\#(eur8450),\#(paidByMe),"split":{"mode":"percent","among":[{"traveller":"ME","percent":"100"}]}"#,
            field: "split.among[0].percent", mentions: "number"),
        post(
            "a percentage of 0",
            #"\#(eur8450),\#(paidByMe),"split":{"mode":"percent","among":[{"traveller":"ME","percent":0},{"traveller":"BRUNO","percent":100}]}"#,
            field: "split", mentions: "the traveller Ana has 0 %"),
        post(
            "0 shares",
            #"\#(eur8450),\#(paidByMe),"split":{"mode":"shares","among":[{"traveller":"ME","shares":0},{"traveller":"BRUNO","shares":2}]}"#,
            field: "split", mentions: "the traveller Ana has 0 shares"),
        post(
            "1.5 shares",
            #"\#(eur8450),\#(paidByMe),"split":{"mode":"shares","among":[{"traveller":"ME","shares":1.5}]}"#,
            field: "split.among[0].shares", mentions: "whole number"),
        post(
            "a share count given in percent",
            #"\#(eur8450),\#(paidByMe),"split":{"mode":"shares","among":[{"traveller":"ME","percent":50}]}"#,
            field: "split.among[0].percent", mentions: "unknown field 'percent'"),
        post(
            "the same traveller twice in the split",
            #"\#(eur8450),\#(paidByMe),"split":{"mode":"equal","among":[{"traveller":"BRUNO"},{"traveller":"BRUNO"}]}"#,
            field: "split", mentions: "the traveller Bruno is listed twice"),
        post(
            "a split among someone not in the trip",
            #"\#(eur8450),\#(paidByMe),"split":{"mode":"equal","among":[{"traveller":"ME"},{"traveller":"STRANGER"}]}"#,
            field: "split.among[1].traveller", mentions: "not a traveller of this trip"),
        post(
            "a split among a traveller of another itinerary",
            #"\#(eur8450),\#(paidByMe),"split":{"mode":"equal","among":[{"traveller":"ME"},{"traveller":"OTHERTRAVELLER"}]}"#,
            field: "split.among[1].traveller", mentions: "not a traveller of this trip"),
        post(
            "a split among nobody", #"\#(eur8450),\#(paidByMe),"split":{"mode":"equal","among":[]}"#,
            field: "split.among", mentions: "1 to 100"),
        post(
            "a split mode that does not exist",
            #"\#(eur8450),\#(paidByMe),"split":{"mode":"thirds","among":[{"traveller":"ME"}]}"#,
            field: "split.mode", mentions: "equal, shares, exact or percent"),
        post(
            "a split given as a word", #"\#(eur8450),\#(paidByMe),"split":"equal""#, field: "split",
            mentions: "mode"),
        post(
            "a split with an unknown key",
            #"\#(eur8450),\#(paidByMe),"split":{"mode":"equal","among":[{"traveller":"ME"}],"rounding":"up"}"#,
            field: "split.rounding", mentions: "unknown field 'rounding'"),
        post(
            "a currency that is not ISO 4217",
            #""amount":{"amountMinor":100,"currency":"EURO"},\#(paidByMe)"#, field: "amount.currency",
            mentions: "ISO 4217"),
        post(
            "a currency in lower case", #""amount":{"amountMinor":100,"currency":"eur"},\#(paidByMe)"#,
            field: "amount.currency", mentions: "ISO 4217"),
        post(
            "a currency without minor units (gold)", #""amount":{"amountMinor":100,"currency":"XAU"},\#(paidByMe)"#,
            field: "amount.currency", mentions: "XAU"),
        post(
            "a zero amount", #""amount":{"amountMinor":0,"currency":"EUR"},\#(paidByMe)"#, field: "amount",
            mentions: "more than zero"),
        post(
            "a negative amount", #""amount":{"amountMinor":-8450,"currency":"EUR"},\#(paidByMe)"#, field: "amount",
            mentions: "more than zero"),
        post(
            "an amount of 10^12 + 1 minor units",
            #""amount":{"amountMinor":1000000000001,"currency":"EUR"},\#(paidByMe)"#, field: "amount",
            mentions: "at most"),
        post(
            "an amount of 10^30 minor units",
            #""amount":{"amountMinor":1000000000000000000000000000000,"currency":"EUR"},\#(paidByMe)"#,
            field: "amount", mentions: "whole number"),
        post(
            "an amount in major units", #""amount":{"amountMinor":84.5,"currency":"EUR"},\#(paidByMe)"#,
            field: "amount", mentions: "whole number"),
        post("an amount as text", #""amount":"84.50 EUR",\#(paidByMe)"#, field: "amount", mentions: "amountMinor"),
        post(
            "an amount with an extra key", #""amount":{"amountMinor":8450,"currency":"EUR","rate":"1"},\#(paidByMe)"#,
            field: "amount", mentions: "amountMinor"),
        post("no amount", paidByMe, field: "amount", mentions: "required"),
        post(
            "a foreign-currency expense without a rate (none in the trip's table)",
            #""amount":{"amountMinor":5000,"currency":"GBP"},\#(paidByMe)"#, field: "rate", mentions: "no rate from GBP"
        ),
        post(
            "a rate on an expense in the settlement currency", #"\#(eur8450),\#(paidByMe),"rate":"1.1""#,
            field: "rate", mentions: "takes no rate"),
        post(
            "a rate as a number", #""amount":{"amountMinor":5000,"currency":"GBP"},\#(paidByMe),"rate":1.17"#,
            field: "rate", mentions: "string"),
        post(
            "a negative rate", #""amount":{"amountMinor":5000,"currency":"GBP"},\#(paidByMe),"rate":"-1.17""#,
            field: "rate", mentions: "sign"),
        post(
            "a rate of 0", #""amount":{"amountMinor":5000,"currency":"GBP"},\#(paidByMe),"rate":"0""#,
            field: "rate", mentions: "greater than 0"),
        post(
            "a rate with an exponent", #""amount":{"amountMinor":5000,"currency":"GBP"},\#(paidByMe),"rate":"1e3""#,
            field: "rate", mentions: "exponent"),
        post(
            "a rate that converts to more than 10^12",
            #""amount":{"amountMinor":1000000000000,"currency":"GBP"},\#(paidByMe),"rate":"1000""#,
            field: "rate", mentions: "more than"),
        post(
            "a transfer to oneself",
            #"\#(eur8450),"kind":"transfer",\#(paidByMe),"split":{"mode":"exact","among":[{"traveller":"ME","amountMinor":8450}]}"#,
            field: "split", mentions: "other than the payer"),
        post(
            "a transfer split equally",
            #"\#(eur8450),"kind":"transfer",\#(paidByMe),"split":{"mode":"equal","among":[{"traveller":"BRUNO"},{"traveller":"CARLA"}]}"#,
            field: "split", mentions: "exactly one traveller"),
        post(
            "a transfer without a payee", #"\#(eur8450),"kind":"transfer",\#(paidByMe)"#, field: "split",
            mentions: "who was paid"),
        post(
            "a transfer from two payers",
            #"\#(eur8450),"kind":"transfer","paidBy":[{"traveller":"ME","amountMinor":4225},{"traveller":"CARLA","amountMinor":4225}],"split":{"mode":"exact","among":[{"traveller":"BRUNO","amountMinor":8450}]}"#,
            field: "paidBy", mentions: "exactly one payer"),
        post(
            "a kind that does not exist", #"\#(eur8450),\#(paidByMe),"kind":"refund""#, field: "kind",
            mentions: "transfer"),
        post(
            "the computed settlement amount",
            #"\#(eur8450),\#(paidByMe),"settlementAmount":{"amountMinor":1,"currency":"EUR"}"#,
            field: "settlementAmount", mentions: "unknown field"),
        post(
            "a settledMinor", #"\#(eur8450),\#(paidByMe),"settledMinor":1"#, field: "settledMinor",
            mentions: "unknown field"),
        post("an id", #"\#(eur8450),\#(paidByMe),"id":"NOBODY""#, field: "id", mentions: "unknown field"),
        post(
            "a date that does not exist", #"\#(eur8450),\#(paidByMe),"date":"2027-02-30""#, field: "date",
            mentions: "date"),
        post(
            "a category of 51 characters",
            #"\#(eur8450),\#(paidByMe),"category":"\#(String(repeating: "c", count: 51))""#, field: "category",
            mentions: "51"),
        post(
            "an item of another itinerary", #"\#(eur8450),\#(paidByMe),"itemId":"NOBODY""#, field: "itemId",
            mentions: "item"),
        Case(
            what: "no title", method: "POST", path: expenses, body: #"{\#(eur8450),\#(paidByMe)}"#, field: "title",
            mentions: "required"),
        Case(
            what: "a title that is a number", method: "POST", path: expenses,
            body: #"{"title":5,\#(eur8450),\#(paidByMe)}"#,
            field: "title", mentions: "string"),
        Case(
            what: "an expense that is a list", method: "POST", path: expenses, body: "[]", code: "malformed-request",
            mentions: "object"),
        Case(
            what: "an expense that is not JSON", method: "POST", path: expenses, body: "{title: Lunch",
            code: "malformed-request",
            mentions: "JSON"),
    ]

    static let editCases: [Case] = [
        Case(
            what: "an edit of the amount that leaves the exact split short", method: "PATCH", path: "\(expenses)/TAXI",
            body: #"{"amount":{"amountMinor":3100,"currency":"EUR"}}"#, field: "split",
            mentions: "30.00 EUR but the amount is 31.00 EUR"),
        Case(
            what: "an edit of the split that no longer covers the amount", method: "PATCH", path: "\(expenses)/TAXI",
            body: #"{"split":{"mode":"exact","among":[{"traveller":"ME","amountMinor":1000}]}}"#, field: "split",
            mentions: "10.00 EUR but the amount is 30.00 EUR"),
        Case(
            what: "an edit of the payers that no longer sum to the amount", method: "PATCH", path: "\(expenses)/DINNER",
            body: #"{"paidBy":[{"traveller":"ME","amountMinor":4000},{"traveller":"BRUNO","amountMinor":4000}]}"#,
            field: "paidBy", mentions: "80.00 EUR but the amount is 84.50 EUR"),
        Case(
            what: "an edit into a currency with no rate", method: "PATCH", path: "\(expenses)/DINNER",
            body: #"{"amount":{"amountMinor":8450,"currency":"GBP"}}"#, field: "rate", mentions: "no rate from GBP"),
        Case(
            what: "an edit making an expense among three a transfer", method: "PATCH", path: "\(expenses)/DINNER",
            body: #"{"kind":"transfer"}"#, field: "split", mentions: "exactly one traveller"),
        Case(
            what: "an edit of a payment to the payer themselves", method: "PATCH", path: "\(expenses)/PAYMENT",
            body: #"{"split":{"mode":"exact","among":[{"traveller":"CARLA","amountMinor":1000}]}}"#, field: "split",
            mentions: "other than the payer"),
        Case(
            what: "an edit adding a rate to an expense in the settlement currency", method: "PATCH",
            path: "\(expenses)/DINNER", body: #"{"rate":"0.5"}"#, field: "rate", mentions: "takes no rate"),
        Case(
            what: "an edit clearing the title", method: "PATCH", path: "\(expenses)/DINNER", body: #"{"title":null}"#,
            field: "title", mentions: "cannot be cleared"),
        Case(
            what: "an edit of the computed shares", method: "PATCH", path: "\(expenses)/DINNER",
            body: #"{"shareMinor":1}"#, field: "shareMinor", mentions: "unknown field"),
        Case(
            what: "an edit of an expense that does not exist", method: "PATCH", path: "\(expenses)/NOBODY",
            body: #"{"title":"Mine now"}"#, status: 404, code: "not-found", mentions: "no expense"),
        Case(
            what: "an edit of an expense of another itinerary", method: "PATCH", path: "\(expenses)/OTHEREXPENSE",
            body: #"{"title":"Mine now"}"#, status: 404, code: "not-found", mentions: "no expense"),
        Case(
            what: "reading an expense of another itinerary", method: "GET", path: "\(expenses)/OTHEREXPENSE",
            status: 404,
            code: "not-found", mentions: "no expense"),
        Case(
            what: "deleting an expense that does not exist", method: "DELETE", path: "\(expenses)/NOBODY", status: 404,
            code: "not-found", mentions: "no expense"),
        Case(
            what: "deleting an expense by a traveller's id", method: "DELETE", path: "\(expenses)/BRUNO", status: 404,
            code: "not-found", mentions: "no expense"),
        Case(
            what: "listing expenses of a kind that does not exist", method: "GET", path: "\(expenses)?kind=refund",
            field: "kind", mentions: "expense or transfer"),
    ]

    static let travellers = "/v1/itineraries/TRIP/travellers"

    static let travellerCases: [Case] = [
        Case(
            what: "a traveller without a name", method: "POST", path: travellers, body: "{}", field: "name",
            mentions: "required"),
        Case(
            what: "a traveller with an empty name", method: "POST", path: travellers, body: #"{"name":"  "}"#,
            field: "name",
            mentions: "empty"),
        Case(
            what: "a traveller named by a number", method: "POST", path: travellers, body: #"{"name":5}"#,
            field: "name",
            mentions: "string"),
        Case(
            what: "a traveller name of 101 characters", method: "POST", path: travellers,
            body: #"{"name":"\#(String(repeating: "n", count: 101))"}"#, field: "name", mentions: "101"),
        Case(
            what: "a traveller claiming to be a member", method: "POST", path: travellers,
            body: #"{"name":"Leo","member":true}"#, field: "member", mentions: "unknown field"),
        Case(
            what: "renaming a member", method: "PATCH", path: "\(travellers)/ME", body: #"{"name":"Boss"}"#,
            status: 409,
            code: "member-traveller", mentions: "member"),
        Case(
            what: "removing a member", method: "DELETE", path: "\(travellers)/ME", status: 409,
            code: "member-traveller",
            mentions: "member"),
        Case(
            what: "removing a traveller who is in expenses", method: "DELETE", path: "\(travellers)/BRUNO", status: 409,
            code: "traveller-has-expenses", mentions: "Bruno appears in 3 expenses"),
        Case(
            what: "renaming a traveller to nothing", method: "PATCH", path: "\(travellers)/BRUNO",
            body: #"{"name":null}"#,
            field: "name", mentions: "cannot be cleared"),
        Case(
            what: "removing a traveller who does not exist", method: "DELETE", path: "\(travellers)/NOBODY",
            status: 404,
            code: "not-found", mentions: "no traveller"),
        Case(
            what: "renaming a traveller who does not exist", method: "PATCH", path: "\(travellers)/NOBODY",
            body: #"{"name":"Leo"}"#, status: 404, code: "not-found", mentions: "no traveller"),
        Case(
            what: "renaming a traveller of another itinerary", method: "PATCH", path: "\(travellers)/OTHERTRAVELLER",
            body: #"{"name":"Leo"}"#, status: 404, code: "not-found", mentions: "no traveller"),
        Case(
            what: "removing a stranger", method: "DELETE", path: "\(travellers)/STRANGER", status: 404,
            code: "not-found", mentions: "no traveller"),
    ]

    static let rates = "/v1/itineraries/TRIP/rates"

    static let rateCases: [Case] = [
        Case(
            what: "a rate for a currency that is not ISO 4217", method: "PUT", path: rates,
            body: #"{"rates":{"USD":"0.92","XYZ":"1.5"}}"#, field: "rates.XYZ", mentions: "ISO 4217"),
        Case(
            what: "a rate for the settlement currency itself", method: "PUT", path: rates,
            body: #"{"rates":{"EUR":"1"}}"#, field: "rates.EUR", mentions: "settlement currency"),
        Case(
            what: "a rate as a number", method: "PUT", path: rates, body: #"{"rates":{"USD":0.92}}"#,
            field: "rates.USD",
            mentions: "string"),
        Case(
            what: "a negative rate in the table", method: "PUT", path: rates, body: #"{"rates":{"USD":"-0.92"}}"#,
            field: "rates.USD", mentions: "sign"),
        Case(
            what: "a rate of more than 10^9", method: "PUT", path: rates, body: #"{"rates":{"USD":"1000000001"}}"#,
            field: "rates.USD", mentions: "too large"),
        Case(
            what: "a rate with 13 decimals", method: "PUT", path: rates, body: #"{"rates":{"USD":"0.9200000000001"}}"#,
            field: "rates.USD", mentions: "at most 12"),
        Case(
            what: "a rate for gold", method: "PUT", path: rates, body: #"{"rates":{"XAU":"1800"}}"#, field: "rates.XAU",
            mentions: "ISO 4217"),
        Case(
            what: "a rate table that is a list", method: "PUT", path: rates, body: #"{"rates":[["USD","0.92"]]}"#,
            field: "rates", mentions: "object"),
        Case(what: "no rate table", method: "PUT", path: rates, body: "{}", field: "rates", mentions: "object"),
        Case(
            what: "a rate table with another key", method: "PUT", path: rates,
            body: #"{"rates":{"USD":"0.92"},"currency":"USD"}"#, field: "currency", mentions: "unknown field"),
        Case(
            what: "a settlement currency that is not ISO 4217", method: "PATCH", path: "/v1/itineraries/TRIP",
            body: #"{"settlementCurrency":"EURO"}"#, field: "settlementCurrency", mentions: "ISO 4217"),
        Case(
            what: "another settlement currency while expenses are settled in EUR", method: "PATCH",
            path: "/v1/itineraries/TRIP", body: #"{"settlementCurrency":"USD"}"#, status: 409, code: "expenses-exist",
            mentions: "settled in EUR"),
    ]

    static let cases = expenseCases + editCases + travellerCases + rateCases

    /// One fixture for every case of `refused` (made on first use, for the whole test run):
    /// each case sends one request that must change nothing and compares the state before
    /// and after it, so one daemon serves them all instead of a daemon, an identity (an
    /// Argon2id derivation) and the fixture's writes per case. A request that did change
    /// something still fails its own case. (Its data dir under /tmp stays when the run ends.)
    static let shared = Task { try await Fixture() }

    /// A trip with the owner and two named travellers, Bruno and Carla; a dinner of 84.50 EUR
    /// paid by the owner and split equally, a taxi of 30.00 EUR split exactly (10 + 20), a
    /// payment of 10.00 EUR from Carla to Bruno, and the rate table {USD: 0.92}. Another
    /// itinerary with a traveller and an expense of its own.
    struct Fixture {
        let t: LoggedInDaemon
        let trip: String, other: String, me: String, bruno: String, carla: String
        let dinner: String, taxi: String, payment: String, otherTraveller: String, otherExpense: String
        let stranger: String, nobody: String

        init() async throws {
            t = try await LoggedInDaemon.start()
            trip = try await t.d.call(Itinerary.self, "POST", "/v1/itineraries", json: #"{"name":"Lisbon"}"#).id
            other = try await t.d.call(Itinerary.self, "POST", "/v1/itineraries", json: #"{"name":"Porto"}"#).id
            let base = "/v1/itineraries/\(trip)"
            bruno = try await Self.id(t, "POST", "\(base)/travellers", #"{"name":"Bruno"}"#)
            carla = try await Self.id(t, "POST", "\(base)/travellers", #"{"name":"Carla"}"#)
            let list = try await t.d.call(JSONValue.self, "GET", "\(base)/travellers")
            me = list.objectValue?["travellers"]?.arrayValue?.first?.objectValue?["id"]?.stringValue ?? ""
            dinner = try await Self.id(
                t, "POST", "\(base)/expenses",
                #"{"title":"Dinner at Ramiro","amount":{"amountMinor":8450,"currency":"EUR"},"paidBy":[{"traveller":"\#(me)"}],"split":{"mode":"equal","among":[{"traveller":"\#(me)"},{"traveller":"\#(bruno)"},{"traveller":"\#(carla)"}]}}"#
            )
            taxi = try await Self.id(
                t, "POST", "\(base)/expenses",
                #"{"title":"Taxi","amount":{"amountMinor":3000,"currency":"EUR"},"paidBy":[{"traveller":"\#(me)"}],"split":{"mode":"exact","among":[{"traveller":"\#(me)","amountMinor":1000},{"traveller":"\#(bruno)","amountMinor":2000}]}}"#
            )
            payment = try await Self.id(
                t, "POST", "\(base)/expenses",
                #"{"title":"Carla pays Bruno","kind":"transfer","amount":{"amountMinor":1000,"currency":"EUR"},"paidBy":[{"traveller":"\#(carla)"}],"split":{"mode":"exact","among":[{"traveller":"\#(bruno)","amountMinor":1000}]}}"#
            )
            _ = try await t.d.call(JSONValue.self, "PUT", "\(base)/rates", json: #"{"rates":{"USD":"0.92"}}"#)
            otherTraveller = try await Self.id(t, "POST", "/v1/itineraries/\(other)/travellers", #"{"name":"Otto"}"#)
            otherExpense = try await Self.id(
                t, "POST", "/v1/itineraries/\(other)/expenses",
                #"{"title":"Port","amount":{"amountMinor":1200,"currency":"EUR"},"paidBy":[{"traveller":"\#(otherTraveller)"}]}"#
            )
            stranger = try SigningKeyPair().publicKey.humanID
            nobody = HexCoding.encode(SecureRandom.bytes(16))
        }

        static func id(_ t: LoggedInDaemon, _ method: String, _ path: String, _ body: String) async throws -> String {
            let r = try await t.d.send(method, path, json: body)
            guard (200...201).contains(r.status),
                let id = try JSONDecoder().decode(JSONValue.self, from: Data(r.body)).objectValue?["id"]?.stringValue
            else { throw HarnessError("no id from \(method) \(path): \(r.status) \(r.text)") }
            return id
        }

        func fill(_ text: String) -> String {
            // Longest placeholders first (OTHERTRAVELLER and OTHEREXPENSE before OTHER).
            let pairs: [(String, String)] = [
                ("OTHERTRAVELLER", otherTraveller), ("OTHEREXPENSE", otherExpense), ("OTHER", other), ("TRIP", trip),
                ("STRANGER", stranger), ("NOBODY", nobody), ("DINNER", dinner), ("TAXI", taxi), ("PAYMENT", payment),
                ("BRUNO", bruno), ("CARLA", carla), ("ME", me),
            ]
            var out = text
            for (placeholder, value) in pairs { out = out.replacingOccurrences(of: placeholder, with: value) }
            return out
        }

        /// What a user could see change: both itineraries, their expenses, balances,
        /// settle-up, travellers and rates, and the op count.
        func state() async throws -> [String] {
            var out = [String]()
            for it in [trip, other] {
                for part in ["", "/expenses", "/balances", "/settlement", "/travellers", "/rates"] {
                    let r = try await t.d.send("GET", "/v1/itineraries/\(it)\(part)")
                    out.append("\(r.status) \(r.text)")
                }
            }
            out.append("\(try await t.d.call(Status.self, "GET", "/v1/status").opCount ?? -1) ops")
            return out
        }
    }

    @Test("a bad expense, traveller or rate request is refused precisely and changes nothing", arguments: cases)
    func refused(_ c: Case) async throws {
        let f = try await Self.shared.value
        let before = try await f.state()
        let r = try await f.t.d.send(c.method, f.fill(c.path), json: c.body.map(f.fill))
        #expect(r.status == c.status, "\(r.text)")
        #expect(r.contentType == "application/problem+json")
        let problem = try JSONDecoder().decode(Problem.self, from: Data(r.body))
        #expect(problem.code == c.code, "\(r.text)")
        if let field = c.field { #expect(problem.field == field, "\(r.text)") }
        #expect(problem.detail.contains(f.fill(c.mentions)), "detail was: \(problem.detail)")
        #expect(try await f.state() == before, "nothing changed")
        #expect(try await f.t.d.send("GET", "/v1/status").status == 200, "the daemon keeps serving")
    }

    @Test("balances of the fixture sum to zero and match the expenses (the bad requests start from a sound trip)")
    func fixtureIsSound() async throws {
        let f = try await Self.shared.value
        let balances = try await f.t.d.call(JSONValue.self, "GET", "/v1/itineraries/\(f.trip)/balances")
        var byName = [String: Int64]()
        for b in balances.objectValue?["balances"]?.arrayValue ?? [] {
            if let o = b.objectValue, let name = o["name"]?.stringValue, let v = o["balanceMinor"]?.intValue {
                byName[name] = v
            }
        }
        #expect(byName.values.reduce(0, +) == 0, "\(byName)")
        // Dinner: 84.50 paid by the owner, 28.16/28.17/28.17; taxi: 30.00 paid by the owner, 10/20;
        // Carla paid Bruno 10.00.
        #expect(
            byName["Bruno"].map { (-(2817 + 2000 + 1000)...(-(2816 + 2000 + 1000))).contains($0) } == true, "\(byName)")
        #expect(byName.count == 3, "\(byName)")
    }
}
