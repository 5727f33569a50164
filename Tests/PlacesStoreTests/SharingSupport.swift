import Foundation
import PlacesCrypto

@testable import PlacesModel
@testable import PlacesStore

// Helpers shared by the ingest, role and membership tests.

/// A second store holding the same document (as a member would), to receive ops.
func replica(of f: Fixture) throws -> Store {
    let dir = FileManager.default.temporaryDirectory.appendingPathComponent("places-replica-\(UUID().uuidString)")
    try FileManager.default.createDirectory(at: dir, withIntermediateDirectories: true)
    let store = try Store(path: dir.appendingPathComponent("places.sqlite").path)
    try store.createDocument(f.doc, kind: f.kind, owner: f.identity.publicKey, sealedKey: [], timeMs: 0)
    return store
}

/// Owner `f.identity` shares `f.doc` with `member` as `role`; returns the owner's ops.
func share(_ f: Fixture, with member: SigningKeyPair, role: String) throws -> [SignedOp] {
    try f.store.append(
        [
            Store.Edit(doc: f.doc, changes: [.create(entity: f.doc.hex, kind: .itinerary)], timeMs: 1),
            Store.Edit(
                doc: f.doc,
                changes: [
                    .create(entity: member.publicKey.hex, kind: .member),
                    .set(
                        entity: member.publicKey.hex, kind: .member, field: "role", value: .string(role), old: nil),
                ], timeMs: 2),
        ], identity: f.identity, keyring: f.keyring)
}

/// The member's replica: the owner's ops ingested, then one edit by the member.
func memberEdit(_ f: Fixture, member: SigningKeyPair, ownerOps: [SignedOp], changes: [Change]) throws -> SignedOp {
    let replicaStore = try replica(of: f)
    _ = try replicaStore.ingest(ownerOps.map(\.encoded), doc: f.doc, keyring: f.keyring)
    return try replicaStore.append(
        [Store.Edit(doc: f.doc, changes: changes, timeMs: 3)], identity: member, keyring: f.keyring)[0]
}

/// A 32-hex entity id made from a short test name ("s1"), so tests read by name and ops pass
/// the id shape rules of op-format §5. Order-preserving for names of one length.
func sid(_ name: String) -> String {
    let hex = HexCoding.encode(Array(name.utf8))
    return hex + String(repeating: "0", count: max(0, 32 - hex.count))
}
