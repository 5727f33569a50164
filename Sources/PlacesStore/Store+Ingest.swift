import Foundation
import GRDB
import PlacesCrypto
import PlacesModel

extension Store {
    /// Why a received op was not stored. Nothing is stored for a rejected op, and the ops
    /// before it in the same batch stay stored.
    public enum Rejection: Error, Sendable, Equatable, CustomStringConvertible {
        /// The bytes are not an op.
        case malformed(String)
        /// This daemon holds no such document.
        case unknownDocument
        /// The signature does not verify against the author key in the header.
        case badSignature
        /// The author's previous op (seq − 1) is missing: ops must arrive in order.
        case sequenceGap(expected: UInt64, got: UInt64)
        /// A different op with the same author and seq is already stored: the author
        /// equivocated. The first one is kept.
        case equivocation(author: String, seq: UInt64)
        /// A dependency is not stored yet: ops must arrive in causal order.
        case missingDependency
        /// The Lamport time is not above the author's previous op and every dependency.
        case lamportNotIncreasing
        /// No key is held for the op's epoch, or the body does not open with it.
        case undecryptable
        /// The author may not write to this document at this point.
        case unauthorized(String)

        public var description: String {
            switch self {
            case .malformed(let why): "malformed op: \(why)"
            case .unknownDocument: "unknown document"
            case .badSignature: "bad signature"
            case .sequenceGap(let expected, let got): "sequence gap: expected seq \(expected), got \(got)"
            case .equivocation(let author, let seq): "equivocation by \(author.prefix(16)) at seq \(seq)"
            case .missingDependency: "a dependency is missing"
            case .lamportNotIncreasing: "lamport time does not increase"
            case .undecryptable: "the body cannot be decrypted"
            case .unauthorized(let why): "unauthorized: \(why)"
            }
        }
    }

    /// The outcome of ingesting a batch.
    public struct IngestResult: Sendable, Equatable {
        /// Ops stored and materialized, in order.
        public var stored: [SignedOp] = []
        /// Ops already held (replays), skipped.
        public var duplicates = 0
        /// The first op refused and why; ingestion stops there.
        public var rejected: (op: [UInt8], reason: Rejection)? = nil

        public static func == (a: IngestResult, b: IngestResult) -> Bool {
            a.stored == b.stored && a.duplicates == b.duplicates && a.rejected?.op == b.rejected?.op
                && a.rejected?.reason == b.rejected?.reason
        }
    }

    /// Verifies and stores ops received from another daemon, in the order given (which must
    /// be causal), each in the same transaction as its materialization. Every check of
    /// `Protocol/op-format.md` ("Receiving ops") runs before anything is written:
    /// format, signature, seq continuity and equivocation, dependencies present, Lamport
    /// monotonicity, decryption, and the caller's `authorize` rule.
    public func ingest(
        _ encodedOps: [[UInt8]], keyring: Keyring,
        authorize: (OpHeader, OpBody) -> String? = { _, _ in nil }
    ) throws(StoreError) -> IngestResult {
        try write { db in
            var result = IngestResult()
            for bytes in encodedOps {
                do {
                    if let op = try ingestOne(db, bytes, keyring: keyring, authorize: authorize) {
                        result.stored.append(op)
                    } else {
                        result.duplicates += 1
                    }
                } catch let rejection as Rejection {
                    result.rejected = (Array(bytes.prefix(64)), rejection)
                    return result
                }
            }
            return result
        }
    }

    private func ingestOne(
        _ db: Database, _ bytes: [UInt8], keyring: Keyring, authorize: (OpHeader, OpBody) -> String?
    ) throws -> SignedOp? {
        let op: SignedOp
        do { op = try SignedOp(decoding: bytes) } catch { throw Rejection.malformed(error.message) }
        let header = op.header
        let doc = Data(header.doc.bytes)
        guard try Bool.fetchOne(db, sql: "SELECT 1 FROM document WHERE id = ?", arguments: [doc]) == true else {
            throw Rejection.unknownDocument
        }
        let id = Blake2b.hash256(op.signedBytes)
        if try Bool.fetchOne(db.cachedStatement(sql: "SELECT 1 FROM op WHERE id = ?"), arguments: [Data(id)]) == true {
            return nil
        }
        guard let author = try? PublicKey(bytes: header.author), let signature = try? Signature(bytes: op.signature),
            author.verify(signature, for: op.signedBytes)
        else { throw Rejection.badSignature }

        let previous = try Row.fetchOne(
            db.cachedStatement(
                sql: "SELECT seq, lamport FROM op WHERE doc = ? AND author = ? ORDER BY seq DESC LIMIT 1"),
            arguments: [doc, Data(header.author)])
        let previousSeq = UInt64(previous?[0] as Int64? ?? 0)
        let previousLamport = UInt64(previous?[1] as Int64? ?? 0)
        if header.seq <= previousSeq {
            throw Rejection.equivocation(author: header.authorKey, seq: header.seq)
        }
        guard header.seq == previousSeq + 1 else {
            throw Rejection.sequenceGap(expected: previousSeq + 1, got: header.seq)
        }
        var maxDepLamport: UInt64 = 0
        for dep in header.deps {
            guard
                let lamport = try Int64.fetchOne(
                    db.cachedStatement(sql: "SELECT lamport FROM op WHERE id = ? AND doc = ?"),
                    arguments: [Data(dep), doc])
            else { throw Rejection.missingDependency }
            maxDepLamport = max(maxDepLamport, UInt64(lamport))
        }
        guard header.lamport > previousLamport, header.lamport > maxDepLamport else {
            throw Rejection.lamportNotIncreasing
        }
        guard let key = keyring.key(header.doc, epoch: header.epoch),
            let plaintext = try? SecretBox.open(
                op.ciphertext, key: key, associatedData: OpCrypto.associatedData(header)),
            let body = try? JSONDecoder().decode(OpBody.self, from: Data(plaintext))
        else { throw Rejection.undecryptable }
        for change in body.changes {
            if case .set(_, _, "position", let value, _) = change {
                guard let key = value.stringValue, FractionalIndex.isValid(key) else {
                    throw Rejection.malformed("a position is not a fractional index")
                }
            }
        }
        if let refusal = authorize(header, body) { throw Rejection.unauthorized(refusal) }
        try insertOp(db, op, id: id)
        try Materializer.apply(db, opID: id, header: header, authorKey: header.authorKey, body: body)
        return op
    }
}
