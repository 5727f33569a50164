import Foundation
import PlacesCrypto
import Testing

@testable import PlacesModel
@testable import PlacesStore

// A member that signs two different ops at one seq and sends them to different daemons
// (`Protocol/sync.md` §7, "Equivocation"): every replica keeps both, materializes the one
// with the smaller id, records the equivocation, and later ops on either branch are accepted.

/// Sends `from`'s ops for `doc` to `to` as a fresh round would (from the start of the log,
/// what `to`'s vector lacks plus every op at an equivocated seq `from` knows of). When `to`
/// finds a dependency missing although its vector covers it (the other branch of an
/// equivocation neither side knew of), it pulls the whole log once, as `sync.md` §7 says.
/// Nothing may be refused in the end. Returns whether the whole log was pulled.
@discardableResult
func exchange(
    _ from: Store, _ to: Store, doc: DocumentID, keyring: Keyring, sourceLocation: SourceLocation = #_sourceLocation
) throws -> Bool {
    let round = try from.ops(of: doc, missingFrom: try to.versionVector(of: doc), after: 0)
    var result = try to.ingest(round.ops, doc: doc, keyring: keyring)
    var pulled = false
    if case .missingDependency? = result.rejected?.reason {
        pulled = true
        result = try to.ingest(
            from.ops(of: doc, missingFrom: VersionVector(), after: 0).ops, doc: doc, keyring: keyring)
    }
    #expect(result.rejected == nil, "\(String(describing: result.rejected?.reason))", sourceLocation: sourceLocation)
    return pulled
}

@Suite("Store: equivocation")
struct EquivocationTests {
    @Test(
        "two branches at one seq, held by two daemons, converge in both exchange orders and later ops on each are accepted"
    )
    func branchesConverge() throws {
        let f = try Fixture()
        let equivocator = try SigningKeyPair()
        let other = try Participant(f)
        let setup = [
            try ownerWrite(f, Edits.itinerary(f) + Edits.addStop(sid("s1"), name: "Lunch"), timeMs: 1),
            try ownerWrite(
                f, Edits.add(equivocator.publicKey.hex, as: "editor") + Edits.add(other.key, as: "editor"), timeMs: 2),
        ]
        // The equivocator writes seq 1 twice, from two copies of its store.
        var branches = [SignedOp]()
        for name in ["Dinner", "Supper"] {
            let copy = try replica(of: f)
            try accept(copy, setup, keyring: f.keyring)
            branches += try copy.append(
                [Store.Edit(doc: f.doc, changes: Edits.rename(sid("s1"), name), timeMs: 3)], identity: equivocator,
                keyring: f.keyring)
        }
        #expect(branches[0].header.seq == 1 && branches[1].header.seq == 1)
        #expect(opID(branches[0]) != opID(branches[1]))
        let canonical = opID(branches[0]).lexicographicallyPrecedes(opID(branches[1])) ? "Dinner" : "Supper"

        // One branch reaches the other editor, the other the owner; each builds on it.
        try other.receive(setup + [branches[0]])
        let otherNext = try other.write(Edits.addStop(sid("o1"), name: "Museum"), timeMs: 4)
        try accept(f.store, [branches[1]], keyring: f.keyring)
        let ownerNext = try ownerWrite(f, Edits.addStop(sid("w1"), name: "Park"), timeMs: 5)
        #expect(otherNext.header.deps.contains(opID(branches[0])))
        #expect(ownerNext.header.deps.contains(opID(branches[1])))

        // Neither daemon knows of the equivocation: a round from one to the other ends at the
        // op whose dependency is the branch the receiver lacks, and the receiver pulls the log.
        let ownerFirst = try replica(of: f)
        #expect(try !exchange(f.store, ownerFirst, doc: f.doc, keyring: f.keyring))
        #expect(try exchange(other.store, ownerFirst, doc: f.doc, keyring: f.keyring))
        let otherFirst = try replica(of: f)
        #expect(try !exchange(other.store, otherFirst, doc: f.doc, keyring: f.keyring))
        #expect(try exchange(f.store, otherFirst, doc: f.doc, keyring: f.keyring))
        // A daemon that knows of it sends both branches in a fresh round: the others need no pull.
        #expect(try !exchange(ownerFirst, other.store, doc: f.doc, keyring: f.keyring))
        #expect(try !exchange(otherFirst, f.store, doc: f.doc, keyring: f.keyring))

        let expected = try DocView(f.store, f.doc)
        for (name, store) in [
            ("owner", f.store), ("other", other.store), ("owner's log first", ownerFirst),
            ("other's log first", otherFirst),
        ] {
            #expect(try DocView(store, f.doc) == expected, "\(name)")
            #expect(try store.opCount() == 6, "\(name): both branches are kept")
            #expect(try stopName(store, f.doc, sid("s1")) == canonical, "\(name)")
            #expect(try stopName(store, f.doc, sid("o1")) == "Museum", "\(name)")
            #expect(try stopName(store, f.doc, sid("w1")) == "Park", "\(name)")
            let lines = try store.activity(of: f.doc).filter { $0.action == "equivocated" }
            #expect(lines.map(\.entity) == [equivocator.publicKey.hex], "\(name)")
            #expect(lines.map(\.newJSON) == ["1"], "\(name)")
            // Only the canonical branch is materialized.
            #expect(try store.isExcluded(opID(branches[0])) != (canonical == "Dinner"), "\(name)")
            #expect(try store.isExcluded(opID(branches[1])) != (canonical == "Supper"), "\(name)")
            let dump = try store.materializedDump()
            try store.rebuildMaterialized(keyring: f.keyring)
            #expect(try store.materializedDump() == dump, "\(name): a rebuild gives the same state")
        }
        // A later op on top of both branches is accepted everywhere.
        let merged = try other.write(Edits.rename(sid("o1"), "Gallery"), timeMs: 6)
        for store in [f.store, ownerFirst, otherFirst] { try accept(store, [merged], keyring: f.keyring) }
    }

    @Test("branches that reuse a Lamport time give the same state in every arrival order")
    func lamportTiesAcrossBranches() throws {
        let f = try Fixture()
        let equivocator = try SigningKeyPair()
        let other = try SigningKeyPair()
        let add = try ownerWrite(
            f,
            Edits.itinerary(f) + Edits.addStop(sid("s1"), name: "Lunch")
                + Edits.add(equivocator.publicKey.hex, as: "editor") + Edits.add(other.publicKey.hex, as: "editor"),
            timeMs: 1)
        let z = try forge(f, by: other, seq: 1, lamport: 2, deps: [opID(add)], body: body(Edits.rename(sid("s1"), "Z")))
        // Branch one: x1 (seq 1, lamport 2), y1 (seq 2, lamport 3). Branch two: x2 (seq 1, lamport
        // 3, after z), with a smaller id than x1, so that x2 is canonical at seq 1 and shares
        // its Lamport time with y1; both rename the stop.
        let x1 = try forge(
            f, by: equivocator, seq: 1, lamport: 2, deps: [opID(add)], body: body(Edits.rename(sid("s1"), "X1")))
        var x2: SignedOp
        var attempt: Int64 = 0
        repeat {
            attempt += 1
            x2 = try forge(
                f, by: equivocator, seq: 1, lamport: 3, deps: [opID(z)],
                body: body(Edits.rename(sid("s1"), "X2"), timeMs: attempt))
        } while !opID(x2).lexicographicallyPrecedes(opID(x1))
        let y1 = try forge(
            f, by: equivocator, seq: 2, lamport: 3, deps: [opID(x1)], body: body(Edits.rename(sid("s1"), "Y1")))
        let orders: [[SignedOp]] = [
            [z, x1, y1, x2], [z, x2, x1, y1], [x1, y1, z, x2], [x1, z, x2, y1], [z, x1, x2, y1],
        ]
        var views = [String]()
        for order in orders {
            let store = try replica(of: f)
            try accept(store, [add] + order, keyring: f.keyring)
            views.append(try DocView(store, f.doc).description)
            // x1 is out (x2 has its seq and a smaller id); of x2 and y1, which share lamport 3,
            // the smaller id stays, and its rename wins over z's (lamport 2).
            #expect(
                try stopName(store, f.doc, sid("s1")) == (opID(x2).lexicographicallyPrecedes(opID(y1)) ? "X2" : "Y1"))
            let dump = try store.materializedDump()
            try store.rebuildMaterialized(keyring: f.keyring)
            #expect(try store.materializedDump() == dump)
        }
        #expect(Set(views).count == 1, "\(views.joined(separator: "\n---\n"))")
    }

    @Test("an author's conflicting ops are capped per document")
    func conflictsCapped() throws {
        let f = try Fixture()
        let equivocator = try SigningKeyPair()
        let setup = [
            try ownerWrite(f, Edits.itinerary(f), timeMs: 1),
            try ownerWrite(f, Edits.add(equivocator.publicKey.hex, as: "editor"), timeMs: 2),
        ]
        let b = try replica(of: f)
        try accept(b, setup, keyring: f.keyring)
        // The first op at seq 1, then `maxConflictingOps` more, then one too many.
        for i in 0...Store.maxConflictingOps + 1 {
            let op = try forge(
                f, by: equivocator, seq: 1, lamport: 3, deps: [opID(setup[1])],
                body: body(Edits.addStop(sid("x\(i)"), name: "Stop \(i)")))
            let result = try b.ingest([op.encoded], doc: f.doc, keyring: f.keyring)
            if i <= Store.maxConflictingOps {
                #expect(result.rejected == nil, "op \(i): \(String(describing: result.rejected?.reason))")
            } else {
                #expect(result.rejected?.reason == .equivocation(author: equivocator.publicKey.hex, seq: 1))
            }
        }
        #expect(try b.opCount() == 2 + 1 + Store.maxConflictingOps)
        #expect(try b.entities(in: f.doc, kind: .stop).count == 1)
    }
}
