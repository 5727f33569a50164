import Foundation
import Testing

@testable import PlacesModel

/// `OpBody(canonicalJSON:)` must read exactly what `JSONDecoder` reads, or give up.
@Suite("Op body: the canonical reader agrees with JSONDecoder")
struct BodyDecodingTests {
    /// Numbers the canonical reader hands over, read as inside a body (what the store does).
    static func number(_ text: [UInt8]) -> JSONValue? {
        try? JSONDecoder().decode([JSONValue].self, from: Data([0x5B] + text + [0x5D])).first
    }

    static func reference(_ bytes: [UInt8]) -> OpBody? {
        try? JSONDecoder().decode(OpBody.self, from: Data(bytes))
    }

    static func randomString(_ rng: inout SeededRandom) -> String {
        let pieces = ["a", "Zz", "0", " ", "é", "日本", "🚐", "\"", "\\", "/", "\n", "\u{01}", "\u{7f}", "-", "{}", "[1]"]
        return (0..<Int.random(in: 0...4, using: &rng)).map { _ in pieces.randomElement(using: &rng)! }.joined()
    }

    static func randomValue(_ rng: inout SeededRandom, depth: Int = 0) -> JSONValue {
        switch Int.random(in: 0..<(depth > 1 ? 7 : 9), using: &rng) {
        case 0: return .null
        case 1: return .bool(Bool.random(using: &rng))
        case 2: return .int(Int64.random(in: -1_000_000...1_000_000, using: &rng))
        case 3: return .int([Int64.max, Int64.min, 0, -1, 999_999_999_999_999_999].randomElement(using: &rng)!)
        case 4: return .double([4.5, -0.25, 38.722_3, 1e300, -9.1e-7, 0.1].randomElement(using: &rng)!)
        case 5, 6: return .string(randomString(&rng))
        case 7: return .array((0..<Int.random(in: 0...3, using: &rng)).map { _ in randomValue(&rng, depth: depth + 1) })
        default:
            return .object(
                Dictionary(
                    (0..<Int.random(in: 0...3, using: &rng)).map { _ in
                        (randomString(&rng), randomValue(&rng, depth: depth + 1))
                    }, uniquingKeysWith: { a, _ in a }))
        }
    }

    static func randomBody(_ rng: inout SeededRandom) -> OpBody {
        let changes: [Change] = (0..<Int.random(in: 0...4, using: &rng)).map { _ in
            let entity = Bool.random(using: &rng) ? "0123456789abcdef0123456789abcdef" : randomString(&rng)
            let kind = EntityKind.allCases.randomElement(using: &rng)!
            if Int.random(in: 0..<3, using: &rng) == 0 { return .create(entity: entity, kind: kind) }
            let old: JSONValue? = Bool.random(using: &rng) ? nil : randomValue(&rng)
            return .set(
                entity: entity, kind: kind, field: Bool.random(using: &rng) ? "name" : randomString(&rng),
                value: randomValue(&rng), old: old)
        }
        return OpBody(timeMs: Int64.random(in: -5...1_800_000_000_000, using: &rng), changes: changes)
    }

    @Test("bodies placesd writes read the same, and the common ones without JSONDecoder")
    func canonicalBodies() throws {
        var rng = SeededRandom(state: 7)
        var fastCount = 0
        for _ in 0..<3_000 {
            let bytes = Self.randomBody(&rng).jsonBytes()
            let expected = Self.reference(bytes)
            let fast = OpBody(canonicalJSON: bytes, number: Self.number)
            if let fast {
                #expect(fast == expected, "\(String(decoding: bytes, as: UTF8.self))")
                fastCount += 1
            }
        }
        #expect(fastCount > 300)
        let typical = OpBody(
            timeMs: 1_775_808_000_000,
            changes: [
                .create(entity: "0123456789abcdef0123456789abcdef", kind: .stop),
                .set(
                    entity: "0123456789abcdef0123456789abcdef", kind: .stop, field: "name", value: .string("Café"),
                    old: nil),
                .set(
                    entity: "0123456789abcdef0123456789abcdef", kind: .stop, field: "latitude", value: .double(38.7),
                    old: .null),
                .set(
                    entity: "0123456789abcdef0123456789abcdef", kind: .stop, field: "deleted", value: .bool(true),
                    old: .int(-3)),
            ])
        #expect(OpBody(canonicalJSON: typical.jsonBytes(), number: Self.number) == typical)
        #expect(OpBody(canonicalJSON: OpBody(timeMs: 0, changes: []).jsonBytes()) == OpBody(timeMs: 0, changes: []))
    }

    @Test("with nesting allowed, objects and arrays as values read the same as with JSONDecoder, damaged or not")
    func nestedValues() throws {
        var rng = SeededRandom(state: 13)
        var fastCount = 0, nestedFast = 0
        for i in 0..<3_000 {
            let body = Self.randomBody(&rng)
            var bytes = body.jsonBytes()
            if i % 2 == 1, !bytes.isEmpty {
                switch Int.random(in: 0..<3, using: &rng) {
                case 0: bytes[Int.random(in: 0..<bytes.count, using: &rng)] = UInt8.random(in: 0...255, using: &rng)
                case 1: bytes = Array(bytes.prefix(Int.random(in: 0...bytes.count, using: &rng)))
                default: bytes.remove(at: Int.random(in: 0..<bytes.count, using: &rng))
                }
            }
            guard let fast = OpBody(canonicalJSON: bytes, nesting: 13, number: Self.number) else { continue }
            #expect(fast == Self.reference(bytes), "\(String(decoding: bytes, as: UTF8.self))")
            fastCount += 1
            let nests = fast.changes.contains {
                if case .set(_, _, _, let value, let old) = $0 {
                    return [value, old].contains { v in
                        if case .object = v { true } else if case .array = v { true } else { false }
                    }
                }
                return false
            }
            if nests { nestedFast += 1 }
        }
        #expect(fastCount > 300 && nestedFast > 50, "\(fastCount) read, \(nestedFast) with nested values")
        // Nesting past the bound gives up (the store then refuses the body by its depth).
        func nested(_ levels: Int) -> [UInt8] {
            Array(
                (#"{"changes":[{"entity":"e","field":"f","kind":"stop","op":"set","value":"#
                    + String(repeating: "[", count: levels) + String(repeating: "]", count: levels)
                    + #"}],"timeMs":1}"#).utf8)
        }
        #expect(OpBody(canonicalJSON: nested(13), nesting: 13) != nil)
        #expect(OpBody(canonicalJSON: nested(14), nesting: 13) == nil)
        #expect(OpBody(canonicalJSON: nested(1)) == nil)
    }

    @Test("other spellings and damaged bytes: the canonical reader gives up or agrees")
    func otherSpellings() throws {
        var rng = SeededRandom(state: 11)
        for i in 0..<3_000 {
            let body = Self.randomBody(&rng)
            var bytes = i % 3 == 0 ? [UInt8](try JSONEncoder().encode(body)) : body.jsonBytes()
            switch Int.random(in: 0..<4, using: &rng) {
            case 0 where !bytes.isEmpty:  // one byte changed
                bytes[Int.random(in: 0..<bytes.count, using: &rng)] = UInt8.random(in: 0...255, using: &rng)
            case 1:  // cut short
                bytes = Array(bytes.prefix(Int.random(in: 0...bytes.count, using: &rng)))
            case 2 where !bytes.isEmpty:  // one byte removed
                bytes.remove(at: Int.random(in: 0..<bytes.count, using: &rng))
            default: break
            }
            if let fast = OpBody(canonicalJSON: bytes, number: Self.number) {
                #expect(fast == Self.reference(bytes), "\(String(decoding: bytes, as: UTF8.self))")
            }
        }
        for text in [
            #"{"changes":[],"timeMs":-0}"#, #"{"changes":[],"timeMs":1e3}"#, #"{"changes":[],"timeMs":01}"#,
            #"{"changes":[], "timeMs":1}"#, #"{"changes":[],"timeMs":1} "#, #"{"changes":[],"timeMs":1,"x":2}"#,
            #"{"changes":[{"entity":"e","kind":"nope","op":"create"}],"timeMs":1}"#,
            #"{"changes":[{"entity":"e\u0041","kind":"stop","op":"create"}],"timeMs":1}"#,
            #"{"changes":[{"entity":"e","field":"f","kind":"stop","op":"set","value":-0}],"timeMs":1}"#,
        ] {
            #expect(OpBody(canonicalJSON: Array(text.utf8)) == nil, "\(text)")
        }
        let invalidUTF8: [UInt8] =
            Array(#"{"changes":[{"entity":""#.utf8) + [0xC3, 0x28]
            + Array(#"","kind":"stop","op":"create"}],"timeMs":1}"#.utf8)
        #expect(OpBody(canonicalJSON: invalidUTF8) == nil)
        let numbers = OpBody(
            canonicalJSON: Array(
                #"{"changes":[{"entity":"e","field":"f","kind":"stop","old":45.0,"op":"set","value":4.5}],"timeMs":1}"#
                    .utf8),
            number: Self.number)
        #expect(
            numbers
                == OpBody(
                    timeMs: 1, changes: [.set(entity: "e", kind: .stop, field: "f", value: .double(4.5), old: .int(45))]
                ))
    }
}
