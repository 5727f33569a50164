import Foundation
import PlacesModel
import PlacesStore

/// `ingest`: op decoding and `Store.ingest` into a real SQLite store (on tmpfs) that holds
/// the itinerary and its base ops (`FuzzWorld`: owner, and `member` as an editor).
///
/// Input: records of a tag byte then a record (2-byte big-endian length, bytes); the tag
/// (mod 4) says what the record is:
/// - 0: an encoded op, added to the batch as it is (format and signature checks);
/// - 1: an encoded op, re-signed by its author when the harness holds the author's secret
///   (mutated headers and ciphertexts get past the signature: sequence, dependency,
///   Lamport, decryption checks);
/// - 2: a 2-byte length, an encoded op, then a plaintext body: the op's header (however
///   mutated) with that body sealed under the document key and signed (body parsing,
///   field rules, membership and materialization);
/// - 3: ingest the batch so far (later batches see what earlier ones stored).
///
/// Checked: ingest never throws on bad ops (it reports them); the op count grows by
/// exactly the ops reported stored; the store's queries work on whatever was stored.
enum FuzzIngest {
    static let maxRecords = 64

    static func run(_ input: [UInt8]) {
        let dir = FuzzWorld.scratchDirectory()
        defer { FuzzWorld.remove(dir) }
        let store: Store
        do {
            store = try FuzzWorld.freshStore(at: dir.appendingPathComponent("places.sqlite").path)
        } catch {
            fatalError("could not make the store: \(error)")
        }
        defer { try? store.close() }

        var reader = FuzzReader(input)
        var batch: [[UInt8]] = []
        var records = 0
        while let tag = reader.byte(), let record = reader.record(), records < maxRecords {
            records += 1
            switch tag % 4 {
            case 0: batch.append(record)
            case 1: batch.append(FuzzWorld.resigned(record) ?? record)
            case 2: batch.append(resealed(record) ?? record)
            default:
                ingest(batch, into: store)
                batch = []
            }
        }
        ingest(batch, into: store)
        queries(store)
    }

    static func resealed(_ record: [UInt8]) -> [UInt8]? {
        var reader = FuzzReader(record)
        guard let op = reader.record().flatMap({ try? SignedOp(decoding: $0) }) else { return nil }
        return FuzzWorld.resealed(header: op.header, body: reader.rest())
    }

    static func ingest(_ batch: [[UInt8]], into store: Store) {
        guard !batch.isEmpty else { return }
        do {
            let before = try store.opCount()
            let result = try store.ingest(batch, doc: FuzzWorld.doc, keyring: FuzzWorld.keyring)
            let after = try store.opCount()
            FuzzLog.note(
                "ingest: \(batch.count) ops, \(result.stored.count) stored (\(result.excluded) excluded), "
                    + "\(result.duplicates) duplicates, rejected: \(result.rejected.map { "\($0.reason)" } ?? "none")")
            precondition(
                after == before + result.stored.count,
                "ingest reported \(result.stored.count) ops stored, the store grew by \(after - before)")
            precondition(result.stored.count + result.duplicates <= batch.count, "more ops stored than were given")
            precondition(result.bodies.count == result.stored.count, "stored ops and bodies differ in number")
        } catch {
            preconditionFailure("ingest threw on peer input instead of refusing the op: \(error)")
        }
    }

    /// What the daemon reads after an ingest must work on anything ingest stored.
    static func queries(_ store: Store) {
        do {
            let vector = try store.versionVector(of: FuzzWorld.doc)
            _ = try store.ops(of: FuzzWorld.doc, missingFrom: VersionVector())
            _ = try store.ops(of: FuzzWorld.doc, missingFrom: vector)
            _ = try store.members(of: FuzzWorld.doc)
            _ = try store.activity(of: FuzzWorld.doc)
            _ = try store.materializedDump()
        } catch {
            preconditionFailure("a store query failed after ingest: \(error)")
        }
    }
}
