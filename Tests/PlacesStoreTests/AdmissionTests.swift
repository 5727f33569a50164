import Foundation
import PlacesAccess
import PlacesCrypto
import Testing

@testable import PlacesModel
@testable import PlacesStore

/// Links made by this version are redeemed through an **admission**: the owner or an editor
/// writes the joiner's membership in its own op, so the token is checked at the admitting
/// member's causal point and on its clock, never on what the joiner claims
/// (`Protocol/capabilities.md` §4, `sync.md` §8.1).
@Suite("Store: admissions through links")
struct AdmissionTests {
    /// A time after the cut-over, when the links below are made.
    static let now = Store.admissionsFromMs + 86_400_000

    /// The owner's itinerary with an editor (returned), as ops every replica holds.
    static func setup(_ f: Fixture) throws -> (editor: Participant, ops: [SignedOp]) {
        let editor = try Participant(f)
        let ops = [
            try ownerWrite(f, Edits.itinerary(f), timeMs: now),
            try ownerWrite(f, Edits.add(editor.key, as: "editor"), timeMs: now + 1),
        ]
        try editor.receive(ops)
        return (editor, ops)
    }

    static func admit(_ token: CapabilityToken, joiner: Participant, role: String? = nil) -> [Change] {
        Edits.join(joiner.key, role: role ?? token.role.rawValue, token: token.base64url)
    }

    @Test("a joiner's own join op with a link made by this version is refused, whatever time it claims")
    func selfJoinRefused() throws {
        let f = try Fixture()
        let (_, ops) = try Self.setup(f)
        let token = try issue(f, .viewer, notBeforeMs: Self.now, expiresMs: Self.now + 60_000)
        for claimed in [Self.now + 10, Self.now + 59_999] {
            let joiner = try Participant(f)
            try joiner.receive(ops)
            let reason = try refusal(f.store, try joiner.join(token, timeMs: claimed), keyring: f.keyring)
            #expect(reason?.contains("redeemed through a member's admission") == true, "\(reason ?? "accepted")")
            #expect(try f.store.currentRole(of: joiner.publicKey, in: f.doc) == nil)
        }
    }

    @Test("an editor admits a viewer link's holder; every replica agrees it is a viewer; activity says it joined")
    func editorAdmitsViewer() throws {
        let f = try Fixture()
        let (editor, ops) = try Self.setup(f)
        let token = try issue(f, .viewer, by: editor.identity, notBeforeMs: Self.now)
        let link = try editor.write(Edits.link(token), timeMs: Self.now + 2)
        let joiner = try Participant(f)
        let admission = try editor.write(Self.admit(token, joiner: joiner), timeMs: Self.now + 3)
        try accept(f.store, [link, admission], keyring: f.keyring)
        #expect(try f.store.currentRole(of: joiner.publicKey, in: f.doc) == "viewer")
        try joiner.receive(ops + [link, admission])
        #expect(try joiner.store.currentRole(of: joiner.publicKey, in: f.doc) == "viewer")
        // The admitted member names itself afterwards.
        let named = try joiner.write(
            [.set(entity: joiner.key, kind: .member, field: "name", value: .string("Carla"), old: nil)],
            timeMs: Self.now + 4)
        try accept(f.store, [named], keyring: f.keyring)
        #expect(try f.store.memberName(joiner.key) == "Carla")
        #expect(
            try f.store.activity(of: f.doc).contains {
                $0.action == "joined" && $0.entity == joiner.key && $0.author == editor.key
            })
    }

    @Test("an admission after the link expired is refused: the admitting member's time counts")
    func expiredAdmission() throws {
        let f = try Fixture()
        let (editor, _) = try Self.setup(f)
        let token = try issue(f, .viewer, by: editor.identity, notBeforeMs: Self.now, expiresMs: Self.now + 1_000)
        let joiner = try Participant(f)
        let late = try editor.write(Self.admit(token, joiner: joiner), timeMs: Self.now + 1_000)
        let reason = try refusal(f.store, late, keyring: f.keyring)
        #expect(reason?.hasPrefix("admission: expired") == true, "\(reason ?? "accepted")")
        #expect(try f.store.currentRole(of: joiner.publicKey, in: f.doc) == nil)
    }

    @Test("a one-use link admits one joiner; a second admission that sees the first is used up")
    func usedUp() throws {
        let f = try Fixture()
        let (editor, _) = try Self.setup(f)
        let token = try issue(f, .viewer, by: editor.identity, notBeforeMs: Self.now, uses: 1)
        let first = try Participant(f), second = try Participant(f)
        let one = try editor.write(Self.admit(token, joiner: first), timeMs: Self.now + 2)
        let two = try editor.write(Self.admit(token, joiner: second), timeMs: Self.now + 3)
        try accept(f.store, [one], keyring: f.keyring)
        let reason = try refusal(f.store, two, keyring: f.keyring)
        #expect(reason?.hasPrefix("admission: usedUp") == true, "\(reason ?? "accepted")")
        #expect(try f.store.currentRole(of: second.publicKey, in: f.doc) == nil)
    }

    @Test("an editor's admission of someone already a member is refused, whatever link it names")
    func admissionOfAMemberRefused() throws {
        let f = try Fixture()
        let (editor, _) = try Self.setup(f)
        let member = try Participant(f)
        let add = try ownerWrite(f, Edits.add(member.key, as: "editor"), timeMs: Self.now + 2)
        try editor.receive([add])
        let token = try issue(f, .viewer, by: editor.identity, notBeforeMs: Self.now)
        let demotion = try editor.write(Self.admit(token, joiner: member), timeMs: Self.now + 3)
        #expect(try refusal(f.store, demotion, keyring: f.keyring)?.hasSuffix("is a member already") == true)
        #expect(try f.store.currentRole(of: member.publicKey, in: f.doc) == "editor")
    }

    @Test("editors admit viewer links only; viewers admit nobody; the owner admits any link")
    func whoAdmits() throws {
        let f = try Fixture()
        let (editor, ops) = try Self.setup(f)
        let editorLink = try issue(f, .editor, notBeforeMs: Self.now)
        let joiner = try Participant(f)
        let byEditor = try editor.write(Self.admit(editorLink, joiner: joiner), timeMs: Self.now + 2)
        #expect(try refusal(f.store, byEditor, keyring: f.keyring) == "admission: editors let viewer links in only")

        let viewer = try Participant(f)
        let addViewer = try ownerWrite(f, Edits.add(viewer.key, as: "viewer"), timeMs: Self.now + 3)
        try viewer.receive(ops + [addViewer])
        let viewerLink = try issue(f, .viewer, notBeforeMs: Self.now)
        let byViewer = try viewer.write(Self.admit(viewerLink, joiner: joiner), timeMs: Self.now + 4)
        #expect(try refusal(f.store, byViewer, keyring: f.keyring)?.hasPrefix("admission: only the owner") == true)

        let byOwner = try ownerWrite(f, Self.admit(editorLink, joiner: joiner), timeMs: Self.now + 5)
        _ = byOwner
        #expect(try f.store.currentRole(of: joiner.publicKey, in: f.doc) == "editor")
    }

    @Test("an editor's admission concurrent with the owner's removal of that person loses, in both orders")
    func removalBeatsConcurrentAdmission() throws {
        let f = try Fixture()
        let (editor, ops) = try Self.setup(f)
        let joiner = try Participant(f)
        // The owner added the person once and removed them; the editor, having seen neither
        // (an admission of someone already a member is refused), admits them with a viewer
        // link made before.
        let add = try ownerWrite(f, Edits.add(joiner.key, as: "viewer"), timeMs: Self.now + 2)
        let token = try issue(f, .viewer, by: editor.identity, notBeforeMs: Self.now)
        let removal = try ownerWrite(f, Edits.role(joiner.key, "removed"), timeMs: Self.now + 3)
        let admission = try editor.write(Self.admit(token, joiner: joiner), timeMs: Self.now + 4)
        for order in [[removal, admission], [admission, removal]] {
            let third = try Participant(f)
            try third.receive(ops + [add])
            _ = try third.store.ingest(order.map(\.encoded), doc: f.doc, keyring: f.keyring)
            #expect(try third.store.currentRole(of: joiner.publicKey, in: f.doc) == nil)
        }
    }
}
