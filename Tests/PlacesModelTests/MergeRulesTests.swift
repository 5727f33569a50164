import Foundation
import Testing

@testable import PlacesModel

/// A deterministic generator so failures reproduce (SplitMix64).
struct SeededRandom: RandomNumberGenerator {
    var state: UInt64
    mutating func next() -> UInt64 {
        state &+= 0x9E37_79B9_7F4A_7C15
        var z = state
        z = (z ^ (z >> 30)) &* 0xBF58_476D_1CE4_E5B9
        z = (z ^ (z >> 27)) &* 0x94D0_49BB_1331_11EB
        return z ^ (z >> 31)
    }
}

struct TestOp {
    var lamport: UInt64
    var author: AuthorKey
    var changes: [Change]
}

/// Random ops by three authors over a handful of entities and fields, including deletes,
/// moves and kind conflicts, with Lamport clocks that collide across authors. (One author
/// never uses a Lamport time twice in a document: its ops form a chain, and receivers
/// reject an op whose Lamport time is not above its author's previous one.)
func randomOps(count: Int, rng: inout SeededRandom) -> [TestOp] {
    let authors = ["aa", "bb", "cc"]
    let entities = (0..<5).map { "e\($0)" }
    let fields = ["name", "notes", "position", "deleted", "rating"]
    var used = Set<String>()
    return (0..<count).map { _ in
        let author = authors.randomElement(using: &rng)!
        var lamport = UInt64.random(in: 1...6, using: &rng)
        while !used.insert("\(author)/\(lamport)").inserted { lamport += 1 }
        let changes: [Change] = (0..<Int.random(in: 1...3, using: &rng)).map { _ in
            let entity = entities.randomElement(using: &rng)!
            let kind: EntityKind = Bool.random(using: &rng) ? .stop : .favorite
            if Int.random(in: 0..<4, using: &rng) == 0 { return .create(entity: entity, kind: kind) }
            let field = fields.randomElement(using: &rng)!
            let value: JSONValue =
                switch field {
                case "deleted": .bool(Bool.random(using: &rng))
                case "position": .string(FractionalIndex.between(nil, nil) + String(Int.random(in: 1...9, using: &rng)))
                case "rating": .double(Double(Int.random(in: 0...50, using: &rng)) / 10)
                default: .string("v\(Int.random(in: 0...99, using: &rng))")
                }
            return .set(entity: entity, kind: kind, field: field, value: value, old: nil)
        }
        return TestOp(lamport: lamport, author: author, changes: changes)
    }
}

func state(of ops: [TestOp]) -> DocumentState {
    var s = DocumentState()
    for op in ops { s.apply(lamport: op.lamport, author: op.author, changes: op.changes) }
    return s
}

@Suite("Merge rules")
struct MergeRulesTests {
    @Test("the same ops in any order give the same state", arguments: 0..<200)
    func orderIndependence(seed: UInt64) {
        var rng = SeededRandom(state: seed)
        let ops = randomOps(count: Int.random(in: 1...25, using: &rng), rng: &rng)
        let reference = state(of: ops)
        for _ in 0..<5 {
            #expect(state(of: ops.shuffled(using: &rng)) == reference)
        }
        // Re-applying (duplicate delivery) changes nothing.
        #expect(state(of: ops + ops.shuffled(using: &rng)) == reference)
        // The visible list order agrees too.
        let order = reference.items(of: .stop).map(\.id)
        #expect(state(of: ops.reversed()).items(of: .stop).map(\.id) == order)
    }

    @Test("a later Lamport write wins; equal clocks are broken by author, then change index")
    func lastWriterWins() {
        var s = DocumentState()
        s.apply(
            lamport: 2, author: "bb",
            changes: [.set(entity: "x", kind: .place, field: "name", value: .string("B"), old: nil)])
        s.apply(
            lamport: 1, author: "cc",
            changes: [.set(entity: "x", kind: .place, field: "name", value: .string("C"), old: nil)])
        #expect(s.entities["x"]?.fields["name"] == .string("B"))
        s.apply(
            lamport: 2, author: "aa",
            changes: [.set(entity: "x", kind: .place, field: "name", value: .string("A"), old: nil)])
        #expect(s.entities["x"]?.fields["name"] == .string("B"))
        s.apply(
            lamport: 2, author: "bb",
            changes: [
                .set(entity: "x", kind: .place, field: "name", value: .string("B1"), old: nil),
                .set(entity: "x", kind: .place, field: "name", value: .string("B2"), old: nil),
            ])
        #expect(s.entities["x"]?.fields["name"] == .string("B2"))
    }

    @Test("a concurrent edit does not resurrect a deleted item")
    func tombstoneSurvivesEdits() {
        var s = DocumentState()
        s.apply(lamport: 1, author: "aa", changes: [.create(entity: "s", kind: .stop)])
        s.apply(
            lamport: 2, author: "aa",
            changes: [.set(entity: "s", kind: .stop, field: "deleted", value: .bool(true), old: nil)])
        s.apply(
            lamport: 3, author: "bb",
            changes: [.set(entity: "s", kind: .stop, field: "name", value: .string("n"), old: nil)])
        #expect(s.items(of: .stop).isEmpty)
    }
}

@Suite("Fractional indexes")
struct FractionalIndexTests {
    @Test("keys generated between neighbours sort between them and stay valid", arguments: 0..<50)
    func betweenIsBetween(seed: UInt64) {
        var rng = SeededRandom(state: seed)
        var keys = [String]()
        for _ in 0..<200 {
            let slot = Int.random(in: 0...keys.count, using: &rng)
            let lower = slot > 0 ? keys[slot - 1] : nil
            let upper = slot < keys.count ? keys[slot] : nil
            let k = FractionalIndex.between(lower, upper)
            #expect(FractionalIndex.isValid(k), "invalid key \(k)")
            if let lower { #expect(lower < k) }
            if let upper { #expect(k < upper) }
            keys.insert(k, at: slot)
        }
        #expect(keys == keys.sorted())
    }

    @Test("appending 100,000 items one after the other keeps keys valid and at most 7 characters")
    func appendStaysShort() {
        var keys = [String]()
        var previous: String? = nil
        for _ in 0..<100_000 {
            let k = FractionalIndex.between(previous, nil)
            if let previous { #expect(previous < k, "\(k) does not sort after \(previous)") }
            keys.append(k)
            previous = k
        }
        #expect(keys.allSatisfy(FractionalIndex.isValid))
        #expect(keys.prefix(17).allSatisfy { $0.count == 1 })
        #expect(keys.map(\.count).max() == 7)
        #expect(Array(keys[15...18]) == ["x", "y", "z01", "z02"])
    }

    @Test(
        "a whole list's keys are evenly spread, short, and leave room between neighbours",
        arguments: [1, 2, 17, 18, 1_000, 46_000])
    func spreadIsEven(count: Int) {
        let keys = FractionalIndex.spread(count)
        #expect(keys.count == count)
        #expect(keys.allSatisfy(FractionalIndex.isValid))
        #expect(zip(keys, keys.dropFirst()).allSatisfy { $0 < $1 })
        // The fewest digits with at least one free value between neighbours: 36^n >= 2(count + 1).
        let digits = count <= 17 ? 1 : count <= 647 ? 2 : count <= 23_327 ? 3 : 4
        #expect(keys.map(\.count).max() == digits)
        for (a, b) in zip(keys, keys.dropFirst()) {
            #expect(FractionalIndex.between(a, b).count <= digits + 1)
        }
    }

    @Test("appending after a long key made by the old generator stays within the length limit")
    func appendAfterLegacyKey() {
        // The old generator grew keys by one `z` per ~35 appends.
        let z = { (n: Int) in String(repeating: "z", count: n) }
        for key in ["zzzi", z(140) + "c", z(200), z(254) + "y"] {
            let next = FractionalIndex.between(key, nil)
            #expect(key < next)
            #expect(FractionalIndex.isValid(next), "\(next.count) characters after a key of \(key.count)")
        }
        #expect(FractionalIndex.between("zzzi", nil) == "zzzi001")
        #expect(FractionalIndex.between(z(140) + "c", nil) == z(140) + "d")
        #expect(FractionalIndex.between(z(200), nil) == z(200) + "1")
    }
}

@Suite("Op encoding")
struct OpEncodingTests {
    func sample() -> SignedOp {
        let header = OpHeader(
            doc: DocumentID(bytes: Array(0..<16))!, author: Array(repeating: 7, count: 32), seq: 3,
            deps: [Array(repeating: 1, count: 32)], lamport: 9, epoch: 0)
        let signed = SignedOp.encodeSignedBytes(header: header, ciphertext: [1, 2, 3])
        return SignedOp(
            header: header, ciphertext: [1, 2, 3], signature: Array(repeating: 9, count: 64), signedBytes: signed)
    }

    @Test("an encoded op decodes to the same header, ciphertext and signature")
    func roundTrip() throws {
        let op = sample()
        let decoded = try SignedOp(decoding: op.encoded)
        #expect(decoded == op)
    }

    @Test("op bodies survive a JSON round trip exactly, including an explicit null old value")
    func bodyRoundTrip() throws {
        let body = OpBody(
            timeMs: 1_700_000_000_000,
            changes: [
                .create(entity: "e", kind: .stop),
                .set(entity: "e", kind: .stop, field: "notes", value: .string("n"), old: .null),
                .set(entity: "e", kind: .stop, field: "rating", value: .double(4.5), old: nil),
                .set(entity: "e", kind: .stop, field: "latitude", value: .number(45.0), old: .number(-9.25)),
                .set(
                    entity: "e", kind: .stop, field: "price",
                    value: Money(amountMinor: 1250, currency: "EUR").jsonValue, old: .int(3)),
            ])
        let decoded = try JSONDecoder().decode(OpBody.self, from: try JSONEncoder().encode(body))
        #expect(decoded == body)
        let fast = try JSONDecoder().decode(OpBody.self, from: Data(body.jsonBytes()))
        #expect(fast == body)
    }

    @Test("every truncation and any trailing byte is rejected")
    func truncationRejected() {
        let bytes = sample().encoded
        for n in 0..<bytes.count {
            #expect(throws: OpFormatError.self) { try SignedOp(decoding: Array(bytes[..<n])) }
        }
        #expect(throws: OpFormatError.self) { try SignedOp(decoding: bytes + [0]) }
    }
}
