import Foundation
import PlacesAccess
import PlacesCrypto
import Testing

@testable import PlacesModel
@testable import PlacesStore

// Store-level tests of the membership rules of `Store+Membership.swift`
// (`Protocol/capabilities.md` §4, `Protocol/sync.md` §8): joins through capability tokens,
// views and leaves, removal and link revocation, and the exclusion of ops concurrent with a
// removal, in every arrival order.

// MARK: - Helpers

/// Another participant's daemon: its identity and its own store holding the shared document.
/// Its `append`s are not checked locally (as on a real daemon that trusts itself); the
/// receiving stores decide.
struct Participant {
    let identity: SigningKeyPair
    let store: Store
    let keyring: Keyring
    let doc: DocumentID

    init(_ f: Fixture) throws {
        identity = try SigningKeyPair()
        store = try replica(of: f)
        keyring = f.keyring
        doc = f.doc
    }

    var key: String { identity.publicKey.hex }
    var publicKey: PublicKey { identity.publicKey }

    /// Ingests ops from others; every one must be accepted.
    func receive(_ ops: [SignedOp], sourceLocation: SourceLocation = #_sourceLocation) throws {
        let result = try store.ingest(ops.map(\.encoded), doc: doc, keyring: keyring)
        #expect(
            result.rejected == nil, "\(String(describing: result.rejected?.reason))", sourceLocation: sourceLocation)
    }

    /// Writes one op in its own store.
    func write(_ changes: [Change], timeMs: Int64 = 10) throws -> SignedOp {
        let ops = try store.append(
            [Store.Edit(doc: doc, changes: changes, timeMs: timeMs)], identity: identity, keyring: keyring)
        return ops[0]
    }

    /// Writes a `join` op redeeming `token` (with the token's role unless `role` is given).
    func join(_ token: CapabilityToken, role: String? = nil, timeMs: Int64 = 10) throws -> SignedOp {
        try write(Edits.join(key, role: role ?? token.role.rawValue, token: token.base64url), timeMs: timeMs)
    }
}

/// The changes of the ops these tests write.
enum Edits {
    static func join(_ member: String, role: String, token: String) -> [Change] {
        [
            .create(entity: member, kind: .member),
            .set(entity: member, kind: .member, field: "role", value: .string(role), old: nil),
            .set(entity: member, kind: .member, field: "token", value: .string(token), old: nil),
        ]
    }

    static func itinerary(_ f: Fixture) -> [Change] {
        [.create(entity: f.doc.hex, kind: .itinerary)]
    }

    static func addStop(_ id: String, name: String) -> [Change] {
        [
            .create(entity: id, kind: .stop),
            .set(entity: id, kind: .stop, field: "name", value: .string(name), old: nil),
        ]
    }

    static func rename(_ id: String, _ name: String) -> [Change] {
        [.set(entity: id, kind: .stop, field: "name", value: .string(name), old: nil)]
    }

    static func view(_ member: String, atMs: Int64) -> [Change] {
        [.set(entity: member, kind: .view, field: "viewedAt", value: .string("2026-01-01T00:00:00.\(atMs)Z"), old: nil)]
    }

    static func role(_ member: String, _ role: String) -> [Change] {
        [.set(entity: member, kind: .member, field: "role", value: .string(role), old: nil)]
    }

    static func add(_ member: String, as role: String) -> [Change] {
        [.create(entity: member, kind: .member)] + Self.role(member, role)
    }

    static func link(_ token: CapabilityToken) -> [Change] {
        [
            .create(entity: token.id, kind: .link),
            .set(entity: token.id, kind: .link, field: "role", value: .string(token.role.rawValue), old: nil),
            .set(entity: token.id, kind: .link, field: "issuer", value: .string(token.issuer.hex), old: nil),
        ]
    }

    static func revoke(_ token: CapabilityToken) -> [Change] {
        [.set(entity: token.id, kind: .link, field: "revoked", value: .bool(true), old: nil)]
    }
}

/// One op written by the owner in its store (`f.store`).
func ownerWrite(_ f: Fixture, _ changes: [Change], timeMs: Int64 = 5) throws -> SignedOp {
    let ops = try f.store.append(
        [Store.Edit(doc: f.doc, changes: changes, timeMs: timeMs)], identity: f.identity, keyring: f.keyring)
    return ops[0]
}

/// A capability token for `f.doc` (or `doc`) carrying the document key, issued by the owner
/// unless `issuer` is given.
func issue(
    _ f: Fixture, _ role: CapabilityRole, by issuer: SigningKeyPair? = nil, doc: DocumentID? = nil,
    audience: PublicKey? = nil, notBeforeMs: Int64 = 0, expiresMs: Int64? = nil, uses: UInt32? = nil
) throws -> CapabilityToken {
    try CapabilityToken.issue(
        doc: doc ?? f.doc, role: role, by: issuer ?? f.identity, audience: audience, notBeforeMs: notBeforeMs,
        expiresMs: expiresMs, uses: uses, epoch: 0, documentKey: f.keyring.key(f.doc, epoch: 0)!)
}

func opID(_ op: SignedOp) -> [UInt8] { Blake2b.hash256(op.signedBytes) }

/// Ingests `ops` into `store`; every one must be stored (or already held).
func accept(_ store: Store, _ ops: [SignedOp], keyring: Keyring, sourceLocation: SourceLocation = #_sourceLocation)
    throws
{
    let result = try store.ingest(
        ops.map(\.encoded), doc: ops.first?.header.doc ?? DocumentID(bytes: [UInt8](repeating: 0, count: 16))!,
        keyring: keyring)
    #expect(result.rejected == nil, "\(String(describing: result.rejected?.reason))", sourceLocation: sourceLocation)
    #expect(result.stored.count + result.duplicates == ops.count, sourceLocation: sourceLocation)
}

/// Ingests one op that must be refused as unauthorized; returns the reason (nil when it was
/// accepted, and a description of any other rejection). Checks that nothing was stored.
func refusal(_ store: Store, _ op: SignedOp, keyring: Keyring, sourceLocation: SourceLocation = #_sourceLocation)
    throws -> String?
{
    let before = try store.opCount()
    let result = try store.ingest([op.encoded], doc: op.header.doc, keyring: keyring)
    guard let reason = result.rejected?.reason else { return nil }
    #expect(try store.opCount() == before, "a refused op was stored", sourceLocation: sourceLocation)
    if case .unauthorized(let why) = reason { return why }
    return "not an authorization refusal: \(reason)"
}

/// What a user of a store sees of a document: every live entity with its fields (decoded,
/// so independent of the JSON key order) and the activity. Equal views mean the replicas
/// show the same itinerary, members and history.
struct DocView: Equatable, CustomStringConvertible {
    var entities: [String]
    var activity: [Store.ActivityRecord]

    init(_ store: Store, _ doc: DocumentID) throws {
        entities = []
        for kind in EntityKind.allCases {
            for e in try store.entities(in: doc, kind: kind) {
                let fields = try JSONDecoder().decode([String: JSONValue].self, from: Data(e.dataJSON.utf8))
                let sorted = fields.keys.sorted().map { "\($0)=\(fields[$0]!.jsonText)" }.joined(separator: ",")
                entities.append(
                    "\(kind.rawValue) \(e.id) {\(sorted)} pos=\(e.position ?? "-") ref=\(e.ref ?? "-") "
                        + "by=\(e.createdBy ?? "-") created=\(e.createdMs ?? -1) updated=\(e.updatedMs ?? -1)")
            }
        }
        activity = try store.activity(of: doc)
    }

    var description: String {
        (entities + activity.map { "\($0.action) \($0.kind) \($0.entity) by \($0.author.prefix(8))" })
            .joined(separator: "\n")
    }
}

func stopName(_ store: Store, _ doc: DocumentID, _ id: String) throws -> String? {
    guard let entity = try store.entity(in: doc, id: id), !entity.deleted else { return nil }
    let fields = try JSONDecoder().decode([String: JSONValue].self, from: Data(entity.dataJSON.utf8))
    return fields["name"]?.stringValue
}

// MARK: - Scenarios

/// The owner shares the itinerary with an editor, who renames a stop (the owner receives
/// it), then renames it again and adds a stop without having seen that the owner, in the
/// meantime, removed it.
struct RemovalScenario {
    let f: Fixture
    let member: Participant
    /// Itinerary and stop `s1` "Lunch", the member added as editor.
    let setup: [SignedOp]
    /// The member's edit the owner saw before removing it: `s1` → "Brunch", stop `m1`.
    let seen: SignedOp
    /// The owner's removal of the member.
    let removal: SignedOp
    /// The member's edit concurrent with the removal: `s1` → "Dinner", stop `m2`.
    let concurrent: SignedOp
    /// The member's next edit, still unaware of its removal (stop `m3`); not in the orders
    /// below, and not yet received by the owner.
    let followUp: SignedOp

    init() throws {
        f = try Fixture()
        member = try Participant(f)
        setup = [
            try ownerWrite(f, Edits.itinerary(f) + Edits.addStop(sid("s1"), name: "Lunch"), timeMs: 1),
            try ownerWrite(f, Edits.add(member.key, as: "editor"), timeMs: 2),
        ]
        try member.receive(setup)
        seen = try member.write(Edits.rename(sid("s1"), "Brunch") + Edits.addStop(sid("m1"), name: "Museum"), timeMs: 3)
        try accept(f.store, [seen], keyring: f.keyring)
        concurrent = try member.write(
            Edits.rename(sid("s1"), "Dinner") + Edits.addStop(sid("m2"), name: "Bar"), timeMs: 4)
        followUp = try member.write(Edits.addStop(sid("m3"), name: "Club"), timeMs: 6)
        removal = try ownerWrite(f, Edits.role(member.key, "removed"), timeMs: 5)
        // The owner receives the concurrent edit after its removal.
        try accept(f.store, [concurrent], keyring: f.keyring)
    }

    /// The two causal orders a third replica may receive the log in.
    var removalFirst: [SignedOp] { setup + [seen, removal, concurrent] }
    var memberFirst: [SignedOp] { setup + [seen, concurrent, removal] }
}

/// The owner shares an editor link; one joiner joins through it and edits (the owner sees
/// both), then edits again concurrently with the owner's revocation of the link, while a
/// second joiner joins through it concurrently with the revocation.
struct RevocationScenario {
    let f: Fixture
    let token: CapabilityToken
    let first: Participant
    let second: Participant
    /// Itinerary with stop `s1` "Lunch", then the link.
    let setup: [SignedOp]
    let firstJoin: SignedOp
    /// The first joiner's edit the owner saw: `s1` → "Brunch".
    let seen: SignedOp
    /// The first joiner's edit concurrent with the revocation: `s1` → "Dinner".
    let concurrent: SignedOp
    /// The second joiner's join, concurrent with the revocation.
    let concurrentJoin: SignedOp
    /// The second joiner's first edit, still unaware of the revocation (stop `j2`); not in
    /// the orders below, and not yet received by the owner.
    let followUp: SignedOp
    let revocation: SignedOp

    init() throws {
        f = try Fixture()
        token = try issue(f, .editor)
        setup = [
            try ownerWrite(f, Edits.itinerary(f) + Edits.addStop(sid("s1"), name: "Lunch"), timeMs: 1),
            try ownerWrite(f, Edits.link(token), timeMs: 2),
        ]
        first = try Participant(f)
        second = try Participant(f)
        try first.receive(setup)
        try second.receive(setup)
        firstJoin = try first.join(token, timeMs: 3)
        try accept(f.store, [firstJoin], keyring: f.keyring)
        seen = try first.write(Edits.rename(sid("s1"), "Brunch"), timeMs: 4)
        try accept(f.store, [seen], keyring: f.keyring)
        concurrent = try first.write(Edits.rename(sid("s1"), "Dinner"), timeMs: 5)
        concurrentJoin = try second.join(token, timeMs: 5)
        followUp = try second.write(Edits.addStop(sid("j2"), name: "Club"), timeMs: 6)
        revocation = try ownerWrite(f, Edits.revoke(token), timeMs: 6)
        try accept(f.store, [concurrent, concurrentJoin], keyring: f.keyring)
    }

    var revocationFirst: [SignedOp] { setup + [firstJoin, seen, revocation, concurrent, concurrentJoin] }
    var joinersFirst: [SignedOp] { setup + [firstJoin, seen, concurrent, concurrentJoin, revocation] }
}

// MARK: - Tests

@Suite("Store: joining through links, views, removal and exclusion")
struct MembershipTests {
    @Test("a viewer joining through the owner's link is a viewer: it may record a view but not edit")
    func viewerJoins() throws {
        let f = try Fixture()
        let setup = try ownerWrite(f, Edits.itinerary(f) + Edits.addStop(sid("s1"), name: "Lunch"), timeMs: 1)
        let token = try issue(f, .viewer)
        let viewer = try Participant(f)
        try viewer.receive([setup])
        #expect(try f.store.currentRole(of: viewer.publicKey, in: f.doc) == nil)

        let join = try viewer.join(token)
        try accept(f.store, [join], keyring: f.keyring)
        #expect(try f.store.currentRole(of: viewer.publicKey, in: f.doc) == "viewer")
        #expect(try f.store.members(of: f.doc).map { "\($0.key) \($0.role)" } == ["\(viewer.key) viewer"])
        #expect(try f.store.activity(of: f.doc).contains { $0.action == "joined" && $0.author == viewer.key })

        let view = try viewer.write(Edits.view(viewer.key, atMs: 20), timeMs: 20)
        try accept(f.store, [view], keyring: f.keyring)
        let viewed = try f.store.activity(of: f.doc).filter { $0.action == "viewed" }
        #expect(viewed.map(\.author) == [viewer.key])
        #expect(viewed.map(\.entity) == [viewer.key])
        #expect(viewed.map(\.opID) == [opID(view)])

        let rename = try viewer.write(Edits.rename(sid("s1"), "Dinner"), timeMs: 30)
        #expect(try refusal(f.store, rename, keyring: f.keyring) == "viewers cannot edit")
        #expect(try stopName(f.store, f.doc, sid("s1")) == "Lunch")
        #expect(try f.store.currentRole(of: viewer.publicKey, in: f.doc) == "viewer")
    }

    @Test("a view record about someone else is refused even for an editor")
    func viewsAreOwnOnly() throws {
        let f = try Fixture()
        let editor = try Participant(f)
        let setup = try share(f, with: editor.identity, role: "editor")
        try editor.receive(setup)
        let forged = try editor.write(Edits.view(f.identity.publicKey.hex, atMs: 9))
        #expect(try refusal(f.store, forged, keyring: f.keyring) == "a member records only its own views")
    }

    // MARK: Join refusals

    @Test("a join outside the token's validity window is refused; inside it is accepted")
    func joinOutsideValidity() throws {
        let f = try Fixture()
        let setup = try ownerWrite(f, Edits.itinerary(f), timeMs: 1)
        let token = try issue(f, .editor, notBeforeMs: 500, expiresMs: 1000)
        for (timeMs, accepted) in [(1000 as Int64, false), (5000, false), (499, false), (500, true), (999, true)] {
            let joiner = try Participant(f)
            try joiner.receive([setup])
            let join = try joiner.join(token, timeMs: timeMs)
            let reason = try refusal(f.store, join, keyring: f.keyring)
            if accepted {
                #expect(reason == nil, "join at \(timeMs)")
                #expect(try f.store.currentRole(of: joiner.publicKey, in: f.doc) == "editor")
            } else {
                let code = timeMs < 500 ? "join: notYetValid" : "join: expired"
                #expect(reason?.hasPrefix(code) == true, "join at \(timeMs): \(reason ?? "accepted")")
                #expect(try f.store.currentRole(of: joiner.publicKey, in: f.doc) == nil)
            }
        }
    }

    @Test("a join with a token naming another audience is refused; the named joiner is accepted")
    func joinWrongAudience() throws {
        let f = try Fixture()
        let setup = try ownerWrite(f, Edits.itinerary(f), timeMs: 1)
        let intended = try Participant(f)
        let other = try Participant(f)
        try intended.receive([setup])
        try other.receive([setup])
        let token = try issue(f, .viewer, audience: intended.publicKey)

        let reason = try refusal(f.store, try other.join(token), keyring: f.keyring)
        #expect(reason?.hasPrefix("join: wrongAudience") == true, "\(reason ?? "accepted")")
        #expect(try f.store.currentRole(of: other.publicKey, in: f.doc) == nil)

        #expect(try refusal(f.store, try intended.join(token), keyring: f.keyring) == nil)
        #expect(try f.store.currentRole(of: intended.publicKey, in: f.doc) == "viewer")
    }

    @Test("a join with a tampered token is refused for its signature; the untouched token is accepted")
    func joinTamperedToken() throws {
        let f = try Fixture()
        let setup = try ownerWrite(f, Edits.itinerary(f), timeMs: 1)
        let token = try issue(f, .editor)
        // Change one character in the middle of the link text (inside the document key).
        var text = Array(token.base64url)
        let middle = text.count / 2
        text[middle] = text[middle] == "A" ? "B" : "A"
        let tampered = String(text)
        #expect(tampered != token.base64url)
        #expect((try? CapabilityToken(base64url: tampered)) != nil, "the tampered text still decodes")

        let forger = try Participant(f)
        try forger.receive([setup])
        let join = try forger.write(Edits.join(forger.key, role: "editor", token: tampered))
        let reason = try refusal(f.store, join, keyring: f.keyring)
        #expect(reason?.hasPrefix("join: badSignature") == true, "\(reason ?? "accepted")")
        #expect(try f.store.currentRole(of: forger.publicKey, in: f.doc) == nil)

        let honest = try Participant(f)
        try honest.receive([setup])
        #expect(try refusal(f.store, try honest.join(token), keyring: f.keyring) == nil)
    }

    @Test("a join with a token for another document, or writing another role than the token's, is refused")
    func joinWrongDocumentOrRole() throws {
        let f = try Fixture()
        let setup = try ownerWrite(f, Edits.itinerary(f), timeMs: 1)
        let elsewhere = try issue(f, .editor, doc: DocumentID(bytes: SecureRandom.bytes(16))!)
        let joiner = try Participant(f)
        try joiner.receive([setup])
        let reason = try refusal(f.store, try joiner.join(elsewhere), keyring: f.keyring)
        #expect(reason?.hasPrefix("join: wrongDocument") == true, "\(reason ?? "accepted")")

        let climber = try Participant(f)
        try climber.receive([setup])
        let viewerToken = try issue(f, .viewer)
        let escalated = try climber.join(viewerToken, role: "editor")
        #expect(try refusal(f.store, escalated, keyring: f.keyring) == "join: the role written is not the token's")
        #expect(try f.store.currentRole(of: joiner.publicKey, in: f.doc) == nil)
        #expect(try f.store.currentRole(of: climber.publicKey, in: f.doc) == nil)
    }

    @Test("an editor token issued by an editor is refused")
    func joinEditorTokenFromEditor() throws {
        let f = try Fixture()
        let editor = try Participant(f)
        let setup = try share(f, with: editor.identity, role: "editor")
        let token = try issue(f, .editor, by: editor.identity)
        let joiner = try Participant(f)
        try joiner.receive(setup)
        let reason = try refusal(f.store, try joiner.join(token), keyring: f.keyring)
        #expect(reason?.hasPrefix("join: notAllowed") == true, "\(reason ?? "accepted")")
        #expect(try f.store.currentRole(of: joiner.publicKey, in: f.doc) == nil)
    }

    @Test("a join through a link revoked in its causal past is refused")
    func joinRevokedLink() throws {
        let f = try Fixture()
        let token = try issue(f, .viewer)
        let ops = [
            try ownerWrite(f, Edits.itinerary(f) + Edits.link(token), timeMs: 1),
            try ownerWrite(f, Edits.revoke(token), timeMs: 2),
        ]
        let joiner = try Participant(f)
        try joiner.receive(ops)
        let reason = try refusal(f.store, try joiner.join(token), keyring: f.keyring)
        #expect(reason?.hasPrefix("join: revoked") == true, "\(reason ?? "accepted")")
        #expect(try f.store.currentRole(of: joiner.publicKey, in: f.doc) == nil)
    }

    @Test("a removed member cannot come back with an old link, only with a link the owner made after the removal")
    func removalIsSticky() throws {
        let removedAt: Int64 = 100_000
        for (notBefore, accepted) in [
            (Int64(0), false), (removedAt - Store.linkClockAllowanceMs, false),
            (removedAt - Store.linkClockAllowanceMs + 1, true),
        ] {
            let f = try Fixture()
            let old = try issue(f, .editor)
            let member = try Participant(f)
            try member.receive([try ownerWrite(f, Edits.itinerary(f) + Edits.link(old), timeMs: 1)])
            #expect(try refusal(f.store, try member.join(old, timeMs: 2), keyring: f.keyring) == nil)
            try member.receive([try ownerWrite(f, Edits.role(member.key, "removed"), timeMs: removedAt)])
            let token = try issue(f, .viewer, notBeforeMs: notBefore)
            let reason = try refusal(f.store, try member.join(token, timeMs: removedAt + 1), keyring: f.keyring)
            if accepted {
                #expect(reason == nil, "\(notBefore)")
                #expect(try f.store.currentRole(of: member.publicKey, in: f.doc) == "viewer")
            } else {
                #expect(reason?.hasPrefix("join: notAllowed") == true, "\(notBefore): \(reason ?? "accepted")")
                #expect(try f.store.currentRole(of: member.publicKey, in: f.doc) == nil)
            }
        }
    }

    @Test("a single-use link: a join that has the first join in its causal past is refused, a concurrent one not")
    func joinUsedUp() throws {
        let f = try Fixture()
        let token = try issue(f, .viewer, uses: 1)
        let setup = try ownerWrite(f, Edits.itinerary(f) + Edits.link(token), timeMs: 1)
        let first = try Participant(f)
        try first.receive([setup])
        let firstJoin = try first.join(token)
        try accept(f.store, [firstJoin], keyring: f.keyring)

        // The second joiner got the link after the first join reached it.
        let second = try Participant(f)
        try second.receive([setup, firstJoin])
        let reason = try refusal(f.store, try second.join(token, timeMs: 11), keyring: f.keyring)
        #expect(reason?.hasPrefix("join: usedUp") == true, "\(reason ?? "accepted")")
        #expect(try f.store.currentRole(of: second.publicKey, in: f.doc) == nil)

        // A third joiner that never saw the first join is judged on its own causal past.
        let third = try Participant(f)
        try third.receive([setup])
        #expect(try refusal(f.store, try third.join(token, timeMs: 12), keyring: f.keyring) == nil)
        #expect(try f.store.currentRole(of: first.publicKey, in: f.doc) == "viewer")
        #expect(try f.store.currentRole(of: third.publicKey, in: f.doc) == "viewer")
    }

    // MARK: Links issued by editors

    @Test("a viewer token issued by an editor is accepted only when the editor's role is in the join's causal past")
    func editorIssuedViewerToken() throws {
        let f = try Fixture()
        let first = try ownerWrite(f, Edits.itinerary(f), timeMs: 1)
        let editor = try Participant(f)
        try editor.receive([first])
        let grant = try ownerWrite(f, Edits.add(editor.key, as: "editor"), timeMs: 2)
        try editor.receive([grant])
        let token = try issue(f, .viewer, by: editor.identity)
        // Editors may publish viewer links in the document.
        let link = try editor.write(Edits.link(token), timeMs: 3)
        try accept(f.store, [link], keyring: f.keyring)

        let joiner = try Participant(f)
        try joiner.receive([first, grant, link])
        try accept(f.store, [try joiner.join(token, timeMs: 4)], keyring: f.keyring)
        #expect(try f.store.currentRole(of: joiner.publicKey, in: f.doc) == "viewer")

        // Same token, but this joiner's op does not have the editor's grant in its past.
        let early = try Participant(f)
        try early.receive([first])
        let reason = try refusal(f.store, try early.join(token, timeMs: 4), keyring: f.keyring)
        #expect(reason?.hasPrefix("join: notAllowed") == true, "\(reason ?? "accepted")")
        #expect(try f.store.currentRole(of: early.publicKey, in: f.doc) == nil)
    }

    // MARK: Removal and exclusion

    @Test("an edit concurrent with the member's removal is stored but excluded, in either arrival order")
    func editConcurrentWithRemoval() throws {
        let s = try RemovalScenario()
        let f = s.f
        let removalFirst = try replica(of: f)
        try accept(removalFirst, s.removalFirst, keyring: f.keyring)

        let memberFirst = try replica(of: f)
        try accept(memberFirst, s.setup + [s.seen, s.concurrent], keyring: f.keyring)
        // Before the removal arrives the concurrent edit shows...
        #expect(try stopName(memberFirst, f.doc, sid("s1")) == "Dinner")
        #expect(try memberFirst.entity(in: f.doc, id: sid("m2")) != nil)
        // ...and the removal takes it out again.
        try accept(memberFirst, [s.removal], keyring: f.keyring)

        // The member's own store, once it hears of its removal.
        try s.member.receive([s.removal])
        // The member's next edit, still unaware of the removal, is kept and excluded too.
        for store in [f.store, removalFirst, memberFirst] {
            try accept(store, [s.followUp], keyring: f.keyring)
        }

        let expected = try DocView(f.store, f.doc)
        for (name, store) in [
            ("owner", f.store), ("removal first", removalFirst), ("member first", memberFirst),
            ("member", s.member.store),
        ] {
            #expect(try DocView(store, f.doc) == expected, "\(name)")
            #expect(try store.opCount() == 6, "\(name): the excluded ops are kept")
            #expect(try store.isExcluded(opID(s.concurrent)), "\(name)")
            #expect(try store.isExcluded(opID(s.followUp)), "\(name)")
            #expect(try !store.isExcluded(opID(s.seen)), "\(name)")
            #expect(try !store.isExcluded(opID(s.removal)), "\(name)")
            // The edit the owner saw before removing stays; the concurrent one is not visible.
            #expect(try stopName(store, f.doc, sid("s1")) == "Brunch", "\(name)")
            #expect(try stopName(store, f.doc, sid("m1")) == "Museum", "\(name)")
            #expect(try store.entity(in: f.doc, id: sid("m2")) == nil, "\(name)")
            #expect(try store.entity(in: f.doc, id: sid("m3")) == nil, "\(name)")
            #expect(try store.entities(in: f.doc, kind: .stop).map(\.id) == [sid("m1"), sid("s1")], "\(name)")
            #expect(try !store.activity(of: f.doc).contains { $0.opID == opID(s.concurrent) }, "\(name)")
            #expect(try store.activity(of: f.doc).contains { $0.opID == opID(s.seen) }, "\(name)")
            #expect(try store.currentRole(of: s.member.publicKey, in: f.doc) == nil, "\(name)")
            #expect(try store.members(of: f.doc).isEmpty, "\(name)")
            #expect(
                try store.activity(of: f.doc).contains { $0.action == "unshared" && $0.entity == s.member.key },
                "\(name)")
        }

        // Having seen its removal, the member's next edit is refused everywhere.
        let late = try s.member.write(Edits.rename(sid("s1"), "Late"), timeMs: 7)
        for store in [f.store, removalFirst, memberFirst] {
            #expect(try refusal(store, late, keyring: f.keyring) == "the author is not a member")
            #expect(try stopName(store, f.doc, sid("s1")) == "Brunch")
        }
    }

    @Test("revoking a link removes who joined through it, and excludes their concurrent edits and joins")
    func linkRevocation() throws {
        let s = try RevocationScenario()
        let f = s.f
        let revocationFirst = try replica(of: f)
        try accept(revocationFirst, s.revocationFirst + [s.followUp], keyring: f.keyring)
        try accept(f.store, [s.followUp], keyring: f.keyring)

        let joinersFirst = try replica(of: f)
        try accept(joinersFirst, Array(s.joinersFirst.dropLast()) + [s.followUp], keyring: f.keyring)
        #expect(try joinersFirst.currentRole(of: s.second.publicKey, in: f.doc) == "editor")
        #expect(try stopName(joinersFirst, f.doc, sid("s1")) == "Dinner")
        #expect(try stopName(joinersFirst, f.doc, sid("j2")) == "Club")
        try accept(joinersFirst, [s.revocation], keyring: f.keyring)

        let expected = try DocView(f.store, f.doc)
        for (name, store) in [
            ("owner", f.store), ("revocation first", revocationFirst), ("joiners first", joinersFirst),
        ] {
            #expect(try DocView(store, f.doc) == expected, "\(name)")
            #expect(try store.opCount() == 8, "\(name): excluded ops are kept")
            #expect(try store.isExcluded(opID(s.concurrent)), "\(name)")
            #expect(try store.isExcluded(opID(s.concurrentJoin)), "\(name)")
            #expect(try store.isExcluded(opID(s.followUp)), "\(name)")
            #expect(try store.entity(in: f.doc, id: sid("j2")) == nil, "\(name)")
            #expect(try !store.isExcluded(opID(s.firstJoin)), "\(name)")
            #expect(try !store.isExcluded(opID(s.seen)), "\(name)")
            #expect(try store.currentRole(of: s.first.publicKey, in: f.doc) == nil, "\(name)")
            #expect(try store.currentRole(of: s.second.publicKey, in: f.doc) == nil, "\(name)")
            #expect(try stopName(store, f.doc, sid("s1")) == "Brunch", "\(name)")
            // The concurrent join is not materialized: no member entity, no "joined" line.
            #expect(try store.entity(in: f.doc, id: s.second.key) == nil, "\(name)")
            #expect(try !store.activity(of: f.doc).contains { $0.author == s.second.key }, "\(name)")
            #expect(try store.activity(of: f.doc).contains { $0.action == "unshared" && $0.entity == s.token.id })
            // Nobody is left in the member list.
            #expect(try store.members(of: f.doc).map(\.key) == [], "\(name)")
        }

        // After seeing the revocation: the first joiner's edit and the second's new join are refused.
        try s.first.receive([s.revocation])
        let late = try s.first.write(Edits.rename(sid("s1"), "Late"), timeMs: 8)
        #expect(try refusal(f.store, late, keyring: f.keyring) == "the author is not a member")
        try s.second.receive([s.firstJoin, s.seen, s.revocation])
        let rejoin = try s.second.join(s.token, timeMs: 8)
        let reason = try refusal(f.store, rejoin, keyring: f.keyring)
        #expect(reason?.hasPrefix("join: revoked") == true, "\(reason ?? "accepted")")
    }

    @Test(
        "rebuilding the materialized tables after exclusions gives the same state, and later ops are judged the same",
        arguments: [false, true])
    func rebuildAfterExclusion(revocation: Bool) throws {
        let f: Fixture
        let orders: [[SignedOp]]
        let members: [PublicKey]
        let excluded: [SignedOp]
        let followUp: SignedOp
        if revocation {
            let s = try RevocationScenario()
            f = s.f
            orders = [s.revocationFirst, s.joinersFirst]
            members = [s.first.publicKey, s.second.publicKey]
            excluded = [s.concurrent, s.concurrentJoin]
            followUp = s.followUp
        } else {
            let s = try RemovalScenario()
            f = s.f
            orders = [s.removalFirst, s.memberFirst]
            members = [s.member.publicKey]
            excluded = [s.concurrent]
            followUp = s.followUp
        }
        var stores = [f.store]
        for order in orders {
            let store = try replica(of: f)
            try accept(store, order, keyring: f.keyring)
            stores.append(store)
        }
        for store in stores {
            let dump = try store.materializedDump()
            let view = try DocView(store, f.doc)
            let roles = try members.map { try store.currentRole(of: $0, in: f.doc) }
            try store.rebuildMaterialized(keyring: f.keyring)
            #expect(try store.materializedDump() == dump)
            #expect(try DocView(store, f.doc) == view)
            #expect(try members.map { try store.currentRole(of: $0, in: f.doc) } == roles)
            #expect(roles.allSatisfy { $0 == nil })
            for op in excluded { #expect(try store.isExcluded(opID(op))) }
            #expect(try !store.activity(of: f.doc).contains { a in excluded.contains { opID($0) == a.opID } })
            // The rebuilt role events (excluded ops' included) still exclude the author's next
            // op, concurrent with its removal, arriving after the rebuild.
            try accept(store, [followUp], keyring: f.keyring)
            #expect(try store.isExcluded(opID(followUp)))
            #expect(try DocView(store, f.doc) == view)
        }
    }

    // MARK: Leaving

    @Test("a member that leaves is no longer a member: its later edits and views are refused")
    func leave() throws {
        let f = try Fixture()
        let member = try Participant(f)
        let setup = try share(f, with: member.identity, role: "editor")
        try member.receive(setup)
        let edit = try member.write(Edits.addStop(sid("s1"), name: "Lunch"), timeMs: 3)
        try accept(f.store, [edit], keyring: f.keyring)
        #expect(try f.store.currentRole(of: member.publicKey, in: f.doc) == "editor")

        let leave = try member.write(Edits.role(member.key, "left"), timeMs: 4)
        try accept(f.store, [leave], keyring: f.keyring)
        #expect(try f.store.currentRole(of: member.publicKey, in: f.doc) == nil)
        #expect(try f.store.members(of: f.doc).isEmpty)
        #expect(try f.store.activity(of: f.doc).contains { $0.action == "left" && $0.author == member.key })
        // What it wrote while a member stays.
        #expect(try stopName(f.store, f.doc, sid("s1")) == "Lunch")

        let after = try member.write(Edits.rename(sid("s1"), "Dinner"), timeMs: 5)
        #expect(try refusal(f.store, after, keyring: f.keyring) == "the author is not a member")
        #expect(try stopName(f.store, f.doc, sid("s1")) == "Lunch")

        let viewer = try Participant(f)
        let viewerSetup = try ownerWrite(f, Edits.add(viewer.key, as: "viewer"), timeMs: 6)
        try viewer.receive(setup + [edit, leave, viewerSetup])
        try accept(f.store, [try viewer.write(Edits.role(viewer.key, "left"), timeMs: 7)], keyring: f.keyring)
        let view = try viewer.write(Edits.view(viewer.key, atMs: 8), timeMs: 8)
        #expect(try refusal(f.store, view, keyring: f.keyring) == "the author is not a member")
    }
}

@Suite("Store: remove-wins membership")
struct RemoveWinsTests {
    @Test("a removed member cannot win its way back with a re-join concurrent with its removal, in every arrival order")
    func rejoinConcurrentWithRemoval() throws {
        let f = try Fixture()
        let token = try issue(f, .editor)
        let setup = [
            try ownerWrite(f, Edits.itinerary(f) + Edits.addStop(sid("s1"), name: "Lunch"), timeMs: 1),
            try ownerWrite(f, Edits.link(token), timeMs: 2),
        ]
        let member = try Participant(f)
        try member.receive(setup)
        let join = try member.join(token, timeMs: 3)
        try accept(f.store, [join], keyring: f.keyring)
        // The owner removes the member; the member, not having seen it, raises its Lamport time
        // with edits and then joins again with its old link, so that its join has the greater
        // stamp.
        let removal = try ownerWrite(f, Edits.role(member.key, "removed"), timeMs: 4)
        let edits = [
            try member.write(Edits.rename(sid("s1"), "Dinner"), timeMs: 5),
            try member.write(Edits.rename(sid("s1"), "Supper"), timeMs: 6),
        ]
        let rejoin = try member.join(token, timeMs: 7)
        #expect(rejoin.header.lamport > removal.header.lamport)
        // Then it takes the removal in and writes with both in its causal past.
        try member.receive([removal])
        let after = try member.write(Edits.rename(sid("s1"), "Late"), timeMs: 8)

        let concurrent = edits + [rejoin]
        var views = [DocView]()
        for position in 0...concurrent.count {
            var order = concurrent
            order.insert(removal, at: position)
            let store = try replica(of: f)
            try accept(store, setup + [join] + order, keyring: f.keyring)
            #expect(try store.currentRole(of: member.publicKey, in: f.doc) == nil, "removal at \(position)")
            #expect(try refusal(store, after, keyring: f.keyring) == "the author is not a member", "at \(position)")
            #expect(try stopName(store, f.doc, sid("s1")) == "Lunch", "removal at \(position)")
            #expect(try store.members(of: f.doc).isEmpty, "removal at \(position)")
            views.append(try DocView(store, f.doc))
        }
        #expect(Set(views.map(\.description)).count == 1)
    }

    @Test("an editor may create a viewer link it issues, but not change the owner's link")
    func editorLinks() throws {
        let f = try Fixture()
        let editor = try Participant(f)
        let ownerToken = try issue(f, .editor)
        let setup = try share(f, with: editor.identity, role: "editor") + [try ownerWrite(f, Edits.link(ownerToken))]
        try editor.receive(setup)
        let own = try issue(f, .viewer, by: editor.identity)
        try accept(f.store, [try editor.write(Edits.link(own), timeMs: 11)], keyring: f.keyring)
        for (field, value) in [
            ("deleted", JSONValue.bool(true)), ("uses", .int(1)), ("expiresAt", .string("2026-01-01T00:00:00Z")),
        ] {
            let change = try editor.write([
                .set(entity: ownerToken.id, kind: .link, field: field, value: value, old: nil)
            ])
            #expect(
                try refusal(f.store, change, keyring: f.keyring)
                    == "editors only create links they issue; only the owner changes a link", "\(field)")
            try editor.store.purgeDocument(f.doc)
            try editor.store.createDocument(
                f.doc, kind: .itinerary, owner: f.identity.publicKey, sealedKey: [], timeMs: 0)
            try editor.receive(try f.store.ops(of: f.doc))
        }
    }

    @Test("the owner adding a removed member back by id wins over the removal it saw")
    func ownerReAdds() throws {
        let f = try Fixture()
        let member = try Participant(f)
        let setup = try share(f, with: member.identity, role: "editor")
        let removal = try ownerWrite(f, Edits.role(member.key, "removed"), timeMs: 3)
        let readd = try ownerWrite(f, Edits.role(member.key, "viewer"), timeMs: 4)
        let store = try replica(of: f)
        try accept(store, setup + [removal, readd], keyring: f.keyring)
        #expect(try store.currentRole(of: member.publicKey, in: f.doc) == "viewer")
    }
}
