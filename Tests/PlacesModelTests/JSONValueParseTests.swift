import Foundation
import PlacesModel
import Testing

@Suite("JSONValue.parse: the same values as JSONDecoder, strict JSON only")
struct JSONValueParseTests {
    static func decoded(_ text: String) -> JSONValue? {
        try? JSONDecoder().decode(JSONValue.self, from: Data(text.utf8))
    }

    @Test(
        "hand-picked texts read as JSONDecoder reads them",
        arguments: [
            #"{"a":1,"b":-2.5,"c":"x","d":[true,false,null],"e":{"f":[]}}"#,
            #"[3.0, 1e2, -0, 0.1, 1E-3, 123456789012345678, 9223372036854775807, 9223372036854775808]"#,
            #"[-9223372036854775808, 1e300, 2.5e-10, 100000000000000000000]"#,
            #""caf\u00e9 \ud83d\ude00 \"q\" \\ \/ \b\f\n\r\t""#,
            #"  { "spaced" :  [ 1 , 2 ] , "empty":{} }  "#,
            #"{"dup":1,"dup":2}"#,
            #""plain text, no escape""#,
            #""é and 😀 as UTF-8""#,
        ])
    func sameAsDecoder(_ text: String) throws {
        let expected = try #require(Self.decoded(text))
        #expect(JSONValue.parse(text) == expected)
    }

    @Test(
        "what is not strict JSON reads as nil",
        arguments: [
            "", "01", "1.", ".5", "-", "1e", "[1,]", "{\"a\":1,}", "{a:1}", "[1 2]", "\"\u{01}\"", "\"\\ud800\"",
            "\"\\ud800\\u0041\"", "\"\\x\"", "\"open", "[1]x", "tru", "nul", "NaN", "Infinity", "{\"a\"1}",
        ])
    func refusesWhatIsNotJSON(_ text: String) {
        #expect(JSONValue.parse(text) == nil)
    }

    @Test("nesting deeper than the bound is left to JSONDecoder")
    func deepNesting() {
        let deep = String(repeating: "[", count: 300) + String(repeating: "]", count: 300)
        #expect(JSONValue.parse(deep) == nil)
        let fine = String(repeating: "[", count: 200) + String(repeating: "]", count: 200)
        #expect(JSONValue.parse(fine) == Self.decoded(fine))
    }

    @Test("random values, written by JSONEncoder, read back alike", arguments: 0..<4)
    func randomValues(seed: Int) throws {
        var rng = SplitMix(seed: UInt64(seed))
        for _ in 0..<300 {
            let value = Self.random(&rng, depth: 0)
            let text = String(decoding: try JSONEncoder().encode(value), as: UTF8.self)
            #expect(JSONValue.parse(text) == Self.decoded(text), "\(text)")
        }
    }

    static func random(_ rng: inout SplitMix, depth: Int) -> JSONValue {
        switch rng.next() % (depth > 3 ? 5 : 7) {
        case 0: return .null
        case 1: return .bool(rng.next() % 2 == 0)
        case 2: return .int(Int64(bitPattern: rng.next()) >> (rng.next() % 64))
        case 3: return .double(Double(Int64(bitPattern: rng.next()) % 1_000_000) / 1_000 + 0.5)
        case 4:
            let pool: [String] = ["", "a", "é", "😀", "\"", "\\", "\n", "\u{1}", "tab\there", "<>&", "ÿ/"]
            return .string((0..<(rng.next() % 4)).map { _ in pool[Int(rng.next() % UInt64(pool.count))] }.joined())
        case 5: return .array((0..<(rng.next() % 4)).map { _ in random(&rng, depth: depth + 1) })
        default:
            var object = [String: JSONValue]()
            for i in 0..<(rng.next() % 4) { object["k\(i)"] = random(&rng, depth: depth + 1) }
            return .object(object)
        }
    }
}

/// A small seeded generator (SplitMix64): the same values on every run.
struct SplitMix {
    var state: UInt64
    init(seed: UInt64) { state = seed }
    mutating func next() -> UInt64 {
        state &+= 0x9E37_79B9_7F4A_7C15
        var z = state
        z = (z ^ (z >> 30)) &* 0xBF58_476D_1CE4_E5B9
        z = (z ^ (z >> 27)) &* 0x94D0_49BB_1331_11EB
        return z ^ (z >> 31)
    }
}
