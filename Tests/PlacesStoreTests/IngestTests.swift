import Foundation
import PlacesCrypto
import PlacesRoutes
import Testing

@testable import PlacesModel
@testable import PlacesStore

@Suite("Store: ingesting ops from another daemon")
struct IngestTests {
    func authoredOps(_ f: Fixture, count: Int, seed: UInt64) throws -> [SignedOp] {
        var rng = SplitMix64(seed: seed)
        return try f.store.append(
            (0..<count).map { i in Store.Edit(doc: f.doc, changes: f.randomChanges(&rng), timeMs: Int64(i)) },
            identity: f.identity, keyring: f.keyring)
    }

    @Test("a replica that ingests the log shows byte-identical materialized state; replays are skipped")
    func replicaConverges() throws {
        let f = try Fixture()
        let ops = try authoredOps(f, count: 40, seed: 7)
        let b = try replica(of: f)
        let result = try b.ingest(ops.map(\.encoded), doc: f.doc, keyring: f.keyring)
        #expect(result.stored.count == 40 && result.rejected == nil)
        #expect(try b.materializedDump() == f.store.materializedDump())
        let again = try b.ingest(ops.map(\.encoded), doc: f.doc, keyring: f.keyring)
        #expect(again.stored.isEmpty && again.duplicates == 40)
        #expect(try b.materializedDump() == f.store.materializedDump())
    }

    @Test("a bulk of received ops grows the writer's page cache, and giving memory back shrinks it again")
    func bulkCacheIsGivenBack() throws {
        let f = try Fixture()
        let ops = try authoredOps(f, count: Store.bulkOps, seed: 11)
        let b = try replica(of: f)
        let cacheSize = { try b.write { db in try Int.fetchOne(db, sql: "PRAGMA cache_size") } }
        #expect(try cacheSize() == -8_192)
        // A batch below the bulk leaves the cache as it is.
        #expect(try b.ingest(ops[..<10].map(\.encoded), doc: f.doc, keyring: f.keyring).stored.count == 10)
        #expect(try cacheSize() == -8_192)
        let result = try b.ingest(ops.map(\.encoded), doc: f.doc, keyring: f.keyring)
        #expect(result.stored.count == Store.bulkOps - 10 && result.duplicates == 10)
        #expect(try cacheSize() == -Store.bulkCacheKiB)
        b.releaseMemory()
        #expect(try cacheSize() == -8_192)
        #expect(try b.materializedDump() == f.store.materializedDump())
    }

    @Test("a tampered op is refused and nothing is stored")
    func tamperedRefused() throws {
        let f = try Fixture()
        let ops = try authoredOps(f, count: 3, seed: 1)
        let b = try replica(of: f)
        // A byte of the author key, of the header clocks, of the ciphertext, of the signature.
        for position in [30, 62, ops[0].encoded.count - 70, ops[0].encoded.count - 1] {
            var bytes = ops[0].encoded
            bytes[position] ^= 0x01
            let result = try b.ingest([bytes], doc: f.doc, keyring: f.keyring)
            #expect(result.stored.isEmpty)
            #expect(result.rejected?.reason == .badSignature, "flipping byte \(position)")
        }
        var otherDoc = ops[0].encoded
        otherDoc[10] ^= 0x01
        let other = DocumentID(bytes: Array(otherDoc[5..<21]))!
        #expect(try b.ingest([otherDoc], doc: other, keyring: f.keyring).rejected?.reason == .unknownDocument)
        #expect(try b.ingest([otherDoc], doc: f.doc, keyring: f.keyring).rejected?.reason == .wrongDocument)
        #expect(try b.opCount() == 0 && b.materializedDump().isEmpty)
    }

    @Test("once an author's key has a signature table, a tampered op of that author is still refused")
    func tamperedRefusedWithTable() throws {
        let f = try Fixture()
        let ops = try authoredOps(f, count: 6, seed: 3)
        let b = try replica(of: f)
        #expect(try b.ingest(ops[..<4].map(\.encoded), doc: f.doc, keyring: f.keyring).stored.count == 4)
        #expect(SignatureVerifier.shared.hasTable(for: f.identity.publicKey))
        // A byte of the header clocks, of the ciphertext, of the signature's R and of its S.
        for position in [62, ops[4].encoded.count - 70, ops[4].encoded.count - 40, ops[4].encoded.count - 1] {
            var bytes = ops[4].encoded
            bytes[position] ^= 0x01
            let result = try b.ingest([bytes], doc: f.doc, keyring: f.keyring)
            #expect(result.stored.isEmpty)
            #expect(result.rejected?.reason == .badSignature, "flipping byte \(position)")
        }
        #expect(try b.ingest(ops[4...].map(\.encoded), doc: f.doc, keyring: f.keyring).stored.count == 2)
        #expect(try b.materializedDump() == f.store.materializedDump())
    }

    @Test("ops verified ahead are taken by the ingest, and one with another signature is still refused")
    func verifiedAhead() throws {
        let f = try Fixture()
        let ops = try authoredOps(f, count: 5, seed: 4)
        let b = try replica(of: f)
        for op in ops { VerifiedOps.shared.verify(op.encoded) }
        let ids = ops.map { Blake2b.hash256($0.signedBytes) }
        #expect(zip(ids, ops).allSatisfy { VerifiedOps.shared.holds(id: $0, signature: $1.signature) })
        // The signature of op 2 replaced by op 3's: the id is op 2's, the signature is not the
        // one verified ahead for it, and it does not verify.
        var swapped = ops[2].signedBytes + ops[3].signature
        #expect(
            try b.ingest(ops[..<2].map(\.encoded) + [swapped], doc: f.doc, keyring: f.keyring).rejected?.reason
                == .badSignature)
        // The two stored took their entries; the refused one left op 2's in place.
        #expect(!VerifiedOps.shared.holds(id: ids[0], signature: ops[0].signature))
        #expect(VerifiedOps.shared.holds(id: ids[2], signature: ops[2].signature))
        swapped[swapped.count - 1] ^= 0x01
        #expect(try b.ingest([swapped], doc: f.doc, keyring: f.keyring).rejected?.reason == .badSignature)
        #expect(try b.ingest(ops[2...].map(\.encoded), doc: f.doc, keyring: f.keyring).stored.count == 3)
        #expect(zip(ids, ops).allSatisfy { !VerifiedOps.shared.holds(id: $0, signature: $1.signature) })
        #expect(try b.materializedDump() == f.store.materializedDump())
    }

    @Test("gaps, missing dependencies, equivocation and a wrong key are refused")
    func orderingRules() throws {
        let f = try Fixture()
        let ops = try authoredOps(f, count: 3, seed: 2)
        let b = try replica(of: f)
        #expect(
            try b.ingest([ops[1].encoded], doc: f.doc, keyring: f.keyring).rejected?.reason
                == .sequenceGap(expected: 1, got: 2))
        #expect(try b.ingest([ops[0].encoded], doc: f.doc, keyring: Keyring()).rejected?.reason == .undecryptable)
        #expect(try b.ingest([ops[0].encoded], doc: f.doc, keyring: f.keyring).stored.count == 1)

        // The same author signs a different op with seq 2: an equivocation, kept (sync.md §7).
        let header = OpHeader(
            doc: f.doc, author: f.identity.publicKey.bytes, seq: 2, deps: [Blake2b.hash256(ops[0].signedBytes)],
            lamport: 2, epoch: 0)
        let body = OpBody(timeMs: 5, changes: [.create(entity: sid("evil"), kind: .stop)]).jsonBytes()
        let ciphertext = try SecretBox.seal(
            body, key: f.keyring.key(f.doc, epoch: 0)!, associatedData: OpCrypto.associatedData(header))
        let signed = SignedOp.encodeSignedBytes(header: header, ciphertext: ciphertext)
        let twin = SignedOp(
            header: header, ciphertext: ciphertext, signature: f.identity.sign(signed).bytes, signedBytes: signed)
        #expect(try b.ingest([ops[1].encoded], doc: f.doc, keyring: f.keyring).stored.count == 1)
        let kept = try b.ingest([twin.encoded], doc: f.doc, keyring: f.keyring)
        #expect(kept.rejected == nil && kept.stored.count == 1 && kept.equivocations == 1)

        // An op whose dependency was never seen.
        let orphanHeader = OpHeader(
            doc: f.doc, author: f.identity.publicKey.bytes, seq: 3, deps: [Array(repeating: 9, count: 32)], lamport: 9,
            epoch: 0)
        let orphanCipher = try SecretBox.seal(
            body, key: f.keyring.key(f.doc, epoch: 0)!, associatedData: OpCrypto.associatedData(orphanHeader))
        let orphanSigned = SignedOp.encodeSignedBytes(header: orphanHeader, ciphertext: orphanCipher)
        let orphan = SignedOp(
            header: orphanHeader, ciphertext: orphanCipher, signature: f.identity.sign(orphanSigned).bytes,
            signedBytes: orphanSigned)
        #expect(try b.ingest([orphan.encoded], doc: f.doc, keyring: f.keyring).rejected?.reason == .missingDependency)
        #expect(try b.opCount() == 3)
    }

    @Test("an op the authorization rule refuses is not stored")
    func unauthorizedRefused() throws {
        let f = try Fixture()
        let ops = try authoredOps(f, count: 1, seed: 3)
        let b = try replica(of: f)
        let result = try b.ingest([ops[0].encoded], doc: f.doc, keyring: f.keyring) { _, _ in "viewers cannot edit" }
        #expect(result.rejected?.reason == .unauthorized("viewers cannot edit"))
        #expect(try b.opCount() == 0)
    }
}

@Suite("Store: roles at the op's causal point")
struct RoleTests {
    @Test("an editor's op is accepted; a viewer's, a stranger's, and an editor's change of members are refused")
    func roles() throws {
        let rename: [Change] = [.set(entity: sid("x"), kind: .stop, field: "name", value: .string("n"), old: nil)]
        for (role, changes, expected) in [
            ("editor", rename, nil as String?),
            ("viewer", rename, "viewers cannot edit"),
            (
                "editor", [Change.create(entity: String(repeating: "ab", count: 32), kind: .member)],
                "only the owner changes the members"
            ),
            // An editor cannot point the other members at a relay of its choosing (relay.md §5.1).
            (
                "editor", [Change.create(entity: String(repeating: "cd", count: 16), kind: .relay)],
                "only the owner names the relays that keep the document"
            ),
        ] {
            let f = try Fixture()
            let member = try SigningKeyPair()
            let ownerOps = try share(f, with: member, role: role)
            let op = try memberEdit(f, member: member, ownerOps: ownerOps, changes: changes)
            let result = try f.store.ingest([op.encoded], doc: f.doc, keyring: f.keyring)
            if let expected {
                #expect(result.rejected?.reason == .unauthorized(expected), "\(role)")
                #expect(result.stored.isEmpty)
            } else {
                #expect(result.rejected == nil && result.stored.count == 1, "\(role)")
            }
        }
        // Someone the owner never added.
        let f = try Fixture()
        let stranger = try SigningKeyPair()
        let ownerOps = try share(f, with: try SigningKeyPair(), role: "editor")
        let op = try memberEdit(f, member: stranger, ownerOps: ownerOps, changes: rename)
        #expect(
            try f.store.ingest([op.encoded], doc: f.doc, keyring: f.keyring).rejected?.reason
                == .unauthorized("the author is not a member"))
    }

    @Test("an edit made before the member was added is refused even if it arrives after the grant")
    func roleAtCausalPoint() throws {
        let f = try Fixture()
        let member = try SigningKeyPair()
        // The member writes with only the itinerary's first op in its past...
        let first = try f.store.append(
            [Store.Edit(doc: f.doc, changes: [.create(entity: f.doc.hex, kind: .itinerary)], timeMs: 1)],
            identity: f.identity, keyring: f.keyring)
        let early = try memberEdit(
            f, member: member, ownerOps: first,
            changes: [.set(entity: sid("x"), kind: .stop, field: "name", value: .string("n"), old: nil)])
        // ...and the owner adds the member only afterwards, concurrently.
        _ = try f.store.append(
            [
                Store.Edit(
                    doc: f.doc,
                    changes: [
                        .create(entity: member.publicKey.hex, kind: .member),
                        .set(
                            entity: member.publicKey.hex, kind: .member, field: "role", value: .string("editor"),
                            old: nil),
                    ], timeMs: 2)
            ], identity: f.identity, keyring: f.keyring)
        #expect(
            try f.store.ingest([early.encoded], doc: f.doc, keyring: f.keyring).rejected?.reason
                == .unauthorized("the author is not a member"))
    }
}

@Suite("Store: authoring with many heads")
struct ManyHeadsTests {
    @Test("with more than 64 heads an author still names its own previous op, and receivers accept the op")
    func ownPreviousOpNamed() throws {
        let f = try Fixture()
        let editors = try (0..<70).map { _ in try SigningKeyPair() }
        let add = try ownerWrite(f, Edits.itinerary(f) + editors.flatMap { Edits.add($0.publicKey.hex, as: "editor") })
        // 70 concurrent ops: 70 heads.
        let concurrent = try editors.enumerated().map { i, editor in
            try forge(
                f, by: editor, seq: 1, lamport: 2, deps: [opID(add)],
                body: body(Edits.addStop(sid("h\(i)"), name: "Stop \(i)")))
        }
        try accept(f.store, concurrent, keyring: f.keyring)
        let b = try replica(of: f)
        try accept(b, [add] + concurrent, keyring: f.keyring)
        // The editor whose op sorts last among the heads (equal lamports, by id) is not among
        // the 64 newest.
        let last = concurrent.indices.max { opID(concurrent[$0]).lexicographicallyPrecedes(opID(concurrent[$1])) }!
        let next = try b.append(
            [Store.Edit(doc: f.doc, changes: Edits.rename(sid("h0"), "Renamed"), timeMs: 9)], identity: editors[last],
            keyring: f.keyring)[0]
        #expect(next.header.deps.count == SignedOp.maxDeps)
        #expect(next.header.deps.contains(opID(concurrent[last])))
        #expect(next.header.lamport == 3)
        try accept(f.store, [next], keyring: f.keyring)
        // The heads left are the op and the head it did not name.
        let again = try b.append(
            [Store.Edit(doc: f.doc, changes: Edits.rename(sid("h1"), "Again"), timeMs: 10)], identity: editors[last],
            keyring: f.keyring)[0]
        try accept(f.store, [again], keyring: f.keyring)
    }

    @Test("an op that leaves its author's previous op out of its deps is accepted only above it in Lamport time")
    func olderAuthorsWithoutOwnDep() throws {
        let f = try Fixture()
        let editor = try SigningKeyPair()
        let other = try SigningKeyPair()
        let add = try ownerWrite(
            f,
            Edits.itinerary(f) + Edits.add(editor.publicKey.hex, as: "editor")
                + Edits.add(other.publicKey.hex, as: "editor"))
        let first = try forge(
            f, by: editor, seq: 1, lamport: 2, deps: [opID(add)], body: body(Edits.addStop(sid("a"), name: "A")))
        let aside = try forge(
            f, by: other, seq: 1, lamport: 2, deps: [opID(add)], body: body(Edits.addStop(sid("b"), name: "B")))
        let b = try replica(of: f)
        try accept(b, [add, first, aside], keyring: f.keyring)
        // Same Lamport time as its previous op: refused (two ops of one author would tie).
        let tie = try forge(
            f, by: editor, seq: 2, lamport: 2, deps: [opID(add)], body: body(Edits.rename(sid("a"), "X")))
        #expect(
            try b.ingest([tie.encoded], doc: f.doc, keyring: f.keyring).rejected?.reason
                == .sequenceGap(expected: 1, got: 2))
        // Above it (through another head): accepted, as older placesd versions wrote it.
        let above = try forge(
            f, by: editor, seq: 2, lamport: 3, deps: [opID(aside)], body: body(Edits.rename(sid("a"), "Y")))
        try accept(b, [above], keyring: f.keyring)
    }
}
