import Foundation
import PlacesCrypto
import Testing

@testable import PlacesModel
@testable import PlacesStore

// Ops a hostile peer could sign (it holds a member's key and the document key): bounds at
// decode, the Lamport rule, the batch's document, the field rules of every kind and the id
// shapes that fix an entity's kind (`Protocol/op-format.md` §1, §5, §9).

/// Signs an op with any header and body: what a hostile author can make.
func forge(
    _ f: Fixture, by author: SigningKeyPair, doc: DocumentID? = nil, seq: UInt64, lamport: UInt64,
    deps: [[UInt8]], body: [UInt8]
) throws -> SignedOp {
    let header = OpHeader(
        doc: doc ?? f.doc, author: author.publicKey.bytes, seq: seq, deps: deps, lamport: lamport, epoch: 0)
    let ciphertext = try SecretBox.seal(
        body, key: f.keyring.key(f.doc, epoch: 0)!, associatedData: OpCrypto.associatedData(header))
    let signed = SignedOp.encodeSignedBytes(header: header, ciphertext: ciphertext)
    return SignedOp(header: header, ciphertext: ciphertext, signature: author.sign(signed).bytes, signedBytes: signed)
}

func body(_ changes: [Change], timeMs: Int64 = 5) -> [UInt8] { OpBody(timeMs: timeMs, changes: changes).jsonBytes() }

@Suite("Store: hostile ops are refused before anything is stored")
struct HostileOpTests {
    // MARK: Bounds and the Lamport rule

    @Test("seq and lamport outside their bounds do not decode")
    func headerBounds() throws {
        let f = try Fixture()
        for (seq, lamport, ok) in [
            (1 as UInt64, OpRules.maxLamport, true), (OpRules.maxSeq, 1, true), (OpRules.maxSeq + 1, 1, false),
            (1, OpRules.maxLamport + 1, false), (1, UInt64.max, false), (UInt64.max, 1, false),
        ] {
            let op = try forge(f, by: f.identity, seq: seq, lamport: lamport, deps: [], body: body([]))
            #expect(((try? SignedOp(decoding: op.encoded)) != nil) == ok, "seq \(seq) lamport \(lamport)")
        }
    }

    @Test("an op with a Lamport time near UInt64.max is refused, and the next local edit works")
    func hugeLamportCannotPoison() throws {
        let f = try Fixture()
        let first = try ownerWrite(f, Edits.itinerary(f), timeMs: 1)
        let editor = try SigningKeyPair()
        let add = try ownerWrite(f, Edits.add(editor.publicKey.hex, as: "editor"), timeMs: 2)
        for lamport in [UInt64.max, UInt64.max - 1, UInt64(Int64.max), OpRules.maxLamport] {
            let op = try forge(
                f, by: editor, seq: 1, lamport: lamport, deps: [opID(add)],
                body: body(Edits.addStop(sid("x"), name: "X")))
            let result = try f.store.ingest([op.encoded], doc: f.doc, keyring: f.keyring)
            #expect(result.stored.isEmpty && result.rejected != nil, "lamport \(lamport)")
        }
        #expect(try f.store.opCount() == 2)
        let next = try ownerWrite(f, Edits.addStop(sid("y"), name: "Y"), timeMs: 3)
        #expect(next.header.lamport == 3 && next.header.deps == [opID(add)])
        _ = first
    }

    @Test("lamport must be 1 + the largest dependency's; deps must be sorted and distinct")
    func lamportRule() throws {
        let f = try Fixture()
        let first = try ownerWrite(f, Edits.itinerary(f), timeMs: 1)
        let b = try replica(of: f)
        let editor = try SigningKeyPair()
        let add = try ownerWrite(f, Edits.add(editor.publicKey.hex, as: "editor"), timeMs: 2)
        try accept(b, [first, add], keyring: f.keyring)
        let stop = body(Edits.addStop(sid("x"), name: "X"))
        // No deps: lamport 1 only.
        let rootless = try forge(f, by: editor, seq: 1, lamport: 2, deps: [], body: stop)
        #expect(
            try b.ingest([rootless.encoded], doc: f.doc, keyring: f.keyring).rejected?.reason
                == .wrongLamport(expected: 1, got: 2))
        // A jump ahead of the causal past.
        let jump = try forge(f, by: editor, seq: 1, lamport: 4, deps: [opID(add)], body: stop)
        #expect(
            try b.ingest([jump.encoded], doc: f.doc, keyring: f.keyring).rejected?.reason
                == .wrongLamport(expected: 3, got: 4))
        // Unsorted and duplicated deps.
        let ids = [opID(first), opID(add)].sorted { $0.lexicographicallyPrecedes($1) }
        for deps in [[ids[1], ids[0]], [ids[1], ids[1]]] {
            let op = try forge(f, by: editor, seq: 1, lamport: 3, deps: deps, body: stop)
            guard case .malformed? = try b.ingest([op.encoded], doc: f.doc, keyring: f.keyring).rejected?.reason
            else {
                Issue.record("deps \(deps.map { $0.prefix(2) }) were not refused as malformed")
                continue
            }
        }
        #expect(try b.opCount() == 2)
        // The honest op.
        let honest = try forge(f, by: editor, seq: 1, lamport: 3, deps: ids, body: stop)
        try accept(b, [honest], keyring: f.keyring)
    }

    @Test("a body timeMs outside 0…year 9999 is refused")
    func timeBounds() throws {
        let f = try Fixture()
        let b = try replica(of: f)
        for (timeMs, ok) in [
            (-1 as Int64, false), (OpRules.maxTimeMs + 1, false), (Int64.max, false), (0, true),
        ] {
            let op = try forge(
                f, by: f.identity, seq: 1, lamport: 1, deps: [], body: body(Edits.itinerary(f), timeMs: timeMs))
            let result = try b.ingest([op.encoded], doc: f.doc, keyring: f.keyring)
            #expect((result.rejected == nil) == ok, "timeMs \(timeMs): \(String(describing: result.rejected?.reason))")
        }
    }

    @Test("a body nested thousands of levels deep is refused without parsing it")
    func deepNesting() throws {
        let f = try Fixture()
        let b = try replica(of: f)
        let deep =
            Array(#"{"changes":[],"timeMs":1,"x":"#.utf8) + [UInt8](repeating: UInt8(ascii: "["), count: 200_000)
            + [UInt8](repeating: UInt8(ascii: "]"), count: 200_000) + Array("}".utf8)
        let op = try forge(f, by: f.identity, seq: 1, lamport: 1, deps: [], body: deep)
        // It opens but does not parse: refused naming why (not as a body that cannot be decrypted).
        let reason = try b.ingest([op.encoded], doc: f.doc, keyring: f.keyring).rejected?.reason
        guard case .invalidChange(let why)? = reason else {
            Issue.record("refused as \(String(describing: reason))")
            return
        }
        #expect(why.contains("nests deeper than"), "\(why)")
        #expect(try b.opCount() == 0)
    }

    // MARK: The batch's document

    @Test("an op of another document inside a batch for this one is refused")
    func opOfAnotherDocument() throws {
        let a = try Fixture()
        var other = try Fixture()
        // The store holds both documents, with the same owner and key.
        let otherDoc = other.doc
        try a.store.createDocument(otherDoc, kind: .itinerary, owner: a.identity.publicKey, sealedKey: [], timeMs: 0)
        other.keyring.insert(a.keyring.key(a.doc, epoch: 0)!, doc: otherDoc, epoch: 0)
        let op = try forge(
            a, by: a.identity, doc: otherDoc, seq: 1, lamport: 1, deps: [],
            body: body([.create(entity: otherDoc.hex, kind: .itinerary)]))
        var keyring = a.keyring
        keyring.insert(a.keyring.key(a.doc, epoch: 0)!, doc: otherDoc, epoch: 0)
        let result = try a.store.ingest([op.encoded], doc: a.doc, keyring: keyring)
        #expect(result.rejected?.reason == .wrongDocument)
        #expect(try a.store.opCount() == 0)
        try accept(a.store, [op], keyring: keyring)
    }

    // MARK: Field rules and id shapes

    static let long = String(repeating: "é", count: 300)

    /// (document kind, changes a hostile owner writes after the root, what is checked).
    static let invalid: [(Store.DocumentKind, [Change], String)] = {
        let root = "ROOT"
        let s = sid("s1"), p = sid("p1"), key = String(repeating: "ab", count: 32)
        func set(_ e: String, _ k: EntityKind, _ field: String, _ v: JSONValue) -> Change {
            .set(entity: e, kind: k, field: field, value: v, old: nil)
        }
        let money = { (amount: Int64, currency: String) -> JSONValue in
            .object(["amountMinor": .int(amount), "currency": .string(currency)])
        }
        return [
            (.itinerary, [set(root, .itinerary, "name", .string(long))], "300-char name"),
            (.itinerary, [set(root, .itinerary, "name", .string("  "))], "blank name"),
            (.itinerary, [set(root, .itinerary, "travelPrice", money(-1, "EUR"))], "amountMinor −1"),
            (.itinerary, [set(root, .itinerary, "travelPrice", money(10_000_000_000_000, "EUR"))], "amountMinor 10^13"),
            (.itinerary, [set(root, .itinerary, "lodgingPrice", money(5, "eur1"))], "currency eur1"),
            (.itinerary, [set(root, .itinerary, "startDate", .string("2026-02-30"))], "date"),
            (
                .itinerary, [set(root, .itinerary, "notes", .string(String(repeating: "n", count: 900_000)))],
                "900 kB notes"
            ),
            (.itinerary, [set(root, .itinerary, "color", .string("red"))], "unknown field"),
            (.itinerary, [set(root, .itinerary, "deleted", .string("yes"))], "deleted not a bool"),
            (.itinerary, [set(s, .stop, "latitude", .int(200))], "latitude 200"),
            (.itinerary, [set(s, .stop, "longitude", .double(.infinity))], "longitude ∞"),
            (.itinerary, [set(s, .stop, "position", .string("A0"))], "bad position"),
            (.itinerary, [set(s, .stop, "placeId", .string("x"))], "placeId not an id"),
            (.itinerary, [set(s, .stop, "rating", .int(3))], "a stop has no rating"),
            (.itinerary, [set("nothex", .member, "role", .string("editor"))], "non-hex member id"),
            (.itinerary, [set(key, .member, "role", .string("admin"))], "role admin"),
            (.itinerary, [set(key, .member, "token", .string("not a token!"))], "token"),
            (.itinerary, [set(s, .link, "uses", .int(0))], "link uses 0"),
            (.itinerary, [set(s, .link, "uses", .int(1 << 40))], "link uses 2^40"),
            (.itinerary, [set(s, .link, "issuer", .string("abc"))], "issuer not a key"),
            (.itinerary, [set(key, .view, "viewedAt", .int(5))], "viewedAt not a time"),
            (.itinerary, [set(p, .place, "name", .string("P"))], "a place in an itinerary"),
            (.itinerary, [set(s, .itinerary, "name", .string("Other root"))], "itinerary kind on a non-root id"),
            (.itinerary, [set(root, .stop, "name", .string("Root as stop"))], "stop kind on the root id"),
            (.itinerary, [set(key, .stop, "name", .string("Member as stop"))], "stop kind on a member id"),
            (.itinerary, [set(key, .link, "role", .string("editor"))], "link kind on a member id"),
            (.itinerary, [set(s, .stop, "name", .string("x")), set(s, .stop, "name", .string(long))], "second change"),
            (
                .itinerary, [.set(entity: s, kind: .stop, field: "name", value: .string("ok"), old: .int(7))],
                "old value"
            ),
            (.library, [set(p, .place, "rating", .int(7))], "rating 7"),
            (.library, [set(p, .place, "priceLevel", .int(5))], "priceLevel 5"),
            (.library, [set(p, .place, "visitMinutes", .int(4))], "visitMinutes 4"),
            (.library, [set(p, .place, "visitMinutes", .double(60.5))], "visitMinutes 60.5"),
            (.library, [set(p, .place, "openingHours", .string(String(repeating: "x", count: 256)))], "hours 256"),
            (
                .library,
                [set(p, .place, "entryPrice", .object(["amountMinor": .int(-5), "currency": .string("EUR")]))],
                "negative entry price"
            ),
            (.library, [set(p, .place, "latitude", .double(-90.5))], "latitude −90.5"),
            (.library, [set(p, .place, "url", .string("ftp://example.org"))], "ftp url"),
            (.library, [set(p, .place, "categories", .array((0..<21).map { .string("c\($0)") }))], "21 categories"),
            (.library, [set(p, .place, "name", .string(" padded "))], "untrimmed name"),
            (.library, [set(p, .favorite, "placeId", .string("p1"))], "favorite placeId"),
            (.library, [set(s, .stop, "name", .string("S"))], "a stop in a library"),
            (.profile, [set(root, .profile, "username", .string("a b"))], "username with a space"),
            (.profile, [set(root, .profile, "name", .string(long))], "300-char profile name"),
            (.profile, [set(root, .profile, "bio", .string(String(repeating: "b", count: 1_001)))], "1001-char bio"),
        ]
    }()

    @Test(
        "a peer op with an out-of-range or misplaced value is refused and nothing of it is stored",
        arguments: HostileOpTests.invalid.indices)
    func fieldRules(index: Int) throws {
        let (kind, rawChanges, what) = Self.invalid[index]
        let f = try Fixture(kind: kind)
        let root: EntityKind = kind == .profile ? .profile : .itinerary
        let rootChanges: [Change] =
            kind == .library
            ? [.create(entity: sid("p0"), kind: .place)]
            : [.create(entity: f.doc.hex, kind: root)]
        let changes = rawChanges.map { change -> Change in
            guard change.entity == "ROOT" else { return change }
            switch change {
            case .create(_, let k): return .create(entity: f.doc.hex, kind: k)
            case .set(_, let k, let field, let value, let old):
                return .set(entity: f.doc.hex, kind: k, field: field, value: value, old: old)
            }
        }
        // The owner's own store writes whatever it is given; the replica judges.
        let ops = try f.store.append(
            [
                Store.Edit(doc: f.doc, changes: rootChanges, timeMs: 1),
                Store.Edit(doc: f.doc, changes: changes, timeMs: 2),
            ],
            identity: f.identity, keyring: f.keyring)
        let b = try replica(of: f)
        let result = try b.ingest(ops.map(\.encoded), doc: f.doc, keyring: f.keyring)
        guard case .invalidChange? = result.rejected?.reason else {
            Issue.record("\(what): \(String(describing: result.rejected?.reason))")
            return
        }
        #expect(result.stored.count == 1, "\(what)")
        #expect(try b.opCount() == 1, "\(what)")
        let rootOnly = try replica(of: f)
        try accept(rootOnly, [ops[0]], keyring: f.keyring)
        #expect(try b.materializedDump() == rootOnly.materializedDump(), "\(what)")
    }

    @Test("the same ops, valid, are accepted: every kind's fields as placesd writes them")
    func validFieldsAccepted() throws {
        let f = try Fixture()
        let s = sid("s1"), key = String(repeating: "ab", count: 32), link = sid("l1")
        let changes: [Change] = [
            .create(entity: f.doc.hex, kind: .itinerary),
            .set(entity: f.doc.hex, kind: .itinerary, field: "name", value: .string("Lisbon"), old: nil),
            .set(
                entity: f.doc.hex, kind: .itinerary, field: "travelPrice",
                value: Money(amountMinor: 1_000_000_000_000, currency: "EUR").jsonValue, old: .null),
            .set(entity: f.doc.hex, kind: .itinerary, field: "startDate", value: .string("2026-02-28"), old: nil),
            .set(entity: f.doc.hex, kind: .itinerary, field: "endDate", value: .null, old: nil),
            .create(entity: s, kind: .stop),
            .set(entity: s, kind: .stop, field: "placeId", value: .string(sid("p1")), old: nil),
            .set(entity: s, kind: .stop, field: "latitude", value: .double(38.7), old: nil),
            .set(entity: s, kind: .stop, field: "longitude", value: .int(-9), old: nil),
            .set(entity: s, kind: .stop, field: "position", value: .string("i"), old: nil),
            .set(entity: s, kind: .stop, field: "deleted", value: .bool(false), old: .bool(true)),
            .create(entity: key, kind: .member),
            .set(entity: key, kind: .member, field: "role", value: .string("viewer"), old: nil),
            .create(entity: link, kind: .link),
            .set(entity: link, kind: .link, field: "role", value: .string("viewer"), old: nil),
            .set(entity: link, kind: .link, field: "issuer", value: .string(f.identity.publicKey.hex), old: nil),
            .set(entity: link, kind: .link, field: "uses", value: .int(Int64(UInt32.max)), old: nil),
            .set(entity: link, kind: .link, field: "expiresAt", value: .string("2026-04-01T10:00:00.000Z"), old: nil),
        ]
        let ops = try f.store.append(
            [Store.Edit(doc: f.doc, changes: changes, timeMs: OpRules.maxTimeMs)], identity: f.identity,
            keyring: f.keyring)
        let b = try replica(of: f)
        try accept(b, ops, keyring: f.keyring)
        #expect(try b.materializedDump() == f.store.materializedDump())
    }

    @Test("an editor cannot reach a member's entity by declaring it a stop, a link or the itinerary")
    func kindFromIDShape() throws {
        let f = try Fixture()
        let editor = try SigningKeyPair()
        let victim = try SigningKeyPair().publicKey.hex
        let setup = [
            try ownerWrite(f, Edits.itinerary(f), timeMs: 1),
            try ownerWrite(
                f, Edits.add(editor.publicKey.hex, as: "editor") + Edits.add(victim, as: "viewer"), timeMs: 2),
        ]
        for kind in [EntityKind.stop, .link, .itinerary] {
            let op = try forge(
                f, by: editor, seq: 1, lamport: 3, deps: [opID(setup[1])],
                body: body([.set(entity: victim, kind: kind, field: "role", value: .string("removed"), old: nil)]))
            guard
                case .invalidChange? = try f.store.ingest([op.encoded], doc: f.doc, keyring: f.keyring).rejected?.reason
            else {
                Issue.record("kind \(kind) on a member id was not refused")
                continue
            }
        }
        #expect(try f.store.opCount() == 2)
        #expect(try f.store.members(of: f.doc).map(\.role).sorted() == ["editor", "viewer"])
        // The same editor writing a stop is accepted.
        let stop = try forge(
            f, by: editor, seq: 1, lamport: 3, deps: [opID(setup[1])], body: body(Edits.addStop(sid("s1"), name: "S")))
        try accept(f.store, [stop], keyring: f.keyring)
    }
}
