import Foundation
import PlacesModel
import PlacesRoutes
import Testing

@testable import PlacesDaemon

@Suite("Reading entity data without JSONDecoder")
struct FlatJSONObjectTests {
    func decoded(_ text: String) -> [String: JSONValue]? {
        try? JSONDecoder().decode([String: JSONValue].self, from: Data(text.utf8))
    }

    @Test("entity data as SQLite writes it is read fast, and exactly as JSONDecoder reads it")
    func commonShapes() {
        for text in [
            #"{}"#,
            #"{"name":"Belém Tower","latitude":38.6916,"longitude":-9.216,"placeId":"0250b61c","position":"a0"}"#,
            #"{"deleted":false,"priceLevel":3,"rating":4.5,"notes":null,"count":-12,"zero":0}"#,
            #"{"name":"東京 🗼","address":"a, b; c"}"#,
        ] {
            let fast = FlatJSONObject.parse(text)
            #expect(fast != nil, "\(text)")
            #expect(fast == decoded(text), "\(text)")
        }
    }

    @Test("a price nested one level is read as JSONDecoder reads it")
    func nestedPrice() throws {
        let text = #"{"price":{"amountMinor":1250,"currency":"EUR"},"title":"Casa"}"#
        let decoded = try JSONDecoder().decode([String: JSONValue].self, from: Data(text.utf8))
        #expect(FlatJSONObject.parse(text) == decoded)
        #expect(FlatJSONObject.parse(#"{"p":{}}"#) == ["p": .object([:])])
    }

    @Test("anything else is left to JSONDecoder")
    func otherShapes() {
        for text in [
            #"{"categories":["a","b"]}"#, #"{"p":{"q":{"r":1}}}"#, #"{"p":{"a":[1]}}"#, #"{"s":"a\"b"}"#,
            #"{"s":"\u00e9"}"#, #"{"x":5.0}"#, #"{"x":1.0e+15}"#, #"{"x":01}"#, #"{"x":-0}"#, #"{"a":1,"a":2}"#,
            #"{"x":1} "#, #"{"x":1"#, #"["x"]"#, #"{"x":tru}"#, #""#,
        ] {
            #expect(FlatJSONObject.parse(text) == nil, "\(text)")
        }
    }

    @Test("random flat objects: when the fast reader answers, it agrees with JSONDecoder")
    func randomObjects() {
        var rng = SplitMix64(seed: 0x5EED)
        let alphabet = Array("ab é\"\\/\u{1}7.-:,{}[]😀")
        var answered = 0
        for _ in 0..<3_000 {
            var object = [String: JSONValue]()
            for k in 0..<Int(rng.next() % 6) {
                let value: JSONValue =
                    switch rng.next() % 6 {
                    case 0: .int(Int64(bitPattern: rng.next()) >> Int64(rng.next() % 60))
                    case 1: .double(Double(Int64(bitPattern: rng.next() % 2_000_000) - 1_000_000) / 997)
                    case 2: .bool(rng.next() % 2 == 0)
                    case 3: .null
                    default:
                        .string(
                            String(
                                (0..<Int(rng.next() % 8)).map { _ in alphabet[Int(rng.next() % UInt64(alphabet.count))]
                                }))
                    }
                object["k\(k)"] = value
            }
            let text = JSONValue.object(object).jsonText
            if let fast = FlatJSONObject.parse(text) {
                answered += 1
                #expect(fast == decoded(text), "\(text)")
            }
        }
        #expect(answered > 500)
    }
}
