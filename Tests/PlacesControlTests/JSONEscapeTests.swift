import Foundation
import PlacesAPI
import PlacesModel
import Testing

/// The daemon has one JSON string escaper (`JSONValue.writeString`): op bodies, whose bytes
/// are signed, materialized values and the hand-written API responses all use it.
@Suite("One JSON string escaper")
struct JSONEscapeTests {
    /// Each string with the exact literal the escaper writes for it.
    static let pinned: [(String, String)] = [
        ("plain", #""plain""#),
        ("quote \" here", #""quote \" here""#),
        (#"back\slash"#, #""back\\slash""#),
        ("line\nfeed", #""line\nfeed""#),
        ("carriage\rreturn", #""carriage\rreturn""#),
        ("tab\t", #""tab\t""#),
        ("backspace\u{8}", #""backspace\u0008""#),
        ("form\u{C}feed", #""form\u000cfeed""#),
        ("nul\u{0} soh\u{1} us\u{1F}", #""nul\u0000 soh\u0001 us\u001f""#),
        ("del\u{7F} space", "\"del\u{7F} space\""),
        ("/slash/", #""/slash/""#),
        ("Belém 🗺️ 東京", "\"Belém 🗺️ 東京\""),
    ]

    @Test("control characters, quotes, backslash, slash and non-ASCII are written as pinned")
    func pinnedBytes() throws {
        for (text, literal) in Self.pinned {
            var out = [UInt8]()
            JSONValue.writeString(text, to: &out)
            #expect(String(decoding: out, as: UTF8.self) == literal)
            // And it is JSON that reads back as the same string.
            #expect(try JSONDecoder().decode(String.self, from: Data(out)) == text)
        }
    }

    @Test("the API's hand-written responses and op bodies escape with the same bytes")
    func oneEscaper() throws {
        for (text, literal) in Self.pinned {
            var writer = FastJSONWriter()
            writer.string(text)
            #expect(String(decoding: writer.bytes, as: UTF8.self) == literal)
            let body = OpBody(
                timeMs: 0, changes: [.set(entity: "e", kind: .stop, field: "name", value: .string(text), old: nil)])
            #expect(String(decoding: body.jsonBytes(), as: UTF8.self).contains(#""value":"# + literal))
        }
    }
}
