import Foundation
import GRDB
import PlacesCrypto
import PlacesModel

/// The checks on received ops that need only their bytes and the keyring (format, id,
/// signature, decryption, body, field rules), run a chunk at a time on the other cores
/// while the writer stores the ops already checked (`Store.ingest`).
extension Store {
    /// The outcome of the checks on a received op that need only its bytes and the keyring.
    struct CheckedOp: Sendable {
        /// The decoded op, or why the bytes are not one.
        var op: Result<SignedOp, OpFormatError>
        /// The op id (BLAKE2b-256 of the signed bytes); empty when malformed.
        var id: [UInt8] = []
        /// Whether the op was held before the batch.
        var held = false
        /// Whether `held` was looked up (false when the lookup failed: the writer looks).
        var heldKnown = false
        /// Whether the signature verifies (not checked for ops already held).
        var signatureValid = false
        /// The decrypted and parsed body; nil when it cannot be decrypted or parsed.
        var body: OpBody?
        /// Why a body that decrypted does not parse (an unknown kind, a bad shape).
        var bodyError: String?
        /// What materializing the op writes when its author acts for itself (not a device),
        /// worked out on the core that opened it.
        var plan: Materializer.Plan?
        /// Whether the body's changes were judged by `OpRules` (for an op of the batch's
        /// document, whose kind was known), and why they are refused (nil: they pass).
        var rulesChecked = false
        var ruleRefusal: String?
    }

    /// Decodes every op, computes its id, looks up whether it is held, and verifies and opens
    /// those not held, a chunk at a time on the other cores while this thread stores the
    /// ops already checked (and on this thread when it would otherwise wait). Replays are
    /// skipped before their signature is looked at: no need to verify them. The lookup reads
    /// the last commit (the lookup connection), which is the database as this batch's write
    /// transaction found it: an op stored earlier in the batch is found by `OpBatch`.
    ///
    /// The body of an op of `doc` is also judged by `OpRules` there when `documentKind` (the
    /// kind of `doc`) is known: the writer only reads the verdict, in the same place.
    func precheck(_ encodedOps: [[UInt8]], doc: DocumentID, documentKind: String?, keyring: Keyring)
        -> Pipeline<CheckedOp>
    {
        Pipeline(count: encodedOps.count, chunk: encodedOps.count >= 8 ? 16 : encodedOps.count) { range in
            var checked = range.map { i -> CheckedOp in
                do throws(OpFormatError) {
                    let op = try SignedOp(decoding: encodedOps[i])
                    return CheckedOp(op: .success(op), id: Blake2b.hash256(op.signedBytes))
                } catch {
                    return CheckedOp(op: .failure(error))
                }
            }
            let held = self.heldOps(
                checked.compactMap { c in
                    guard case .success(let op) = c.op else { return nil }
                    return (c.id, op.header)
                })
            if let held {
                for j in checked.indices where !checked[j].id.isEmpty {
                    checked[j].held = held.contains(checked[j].id)
                    checked[j].heldKnown = true
                }
            }
            Store.verifyAndOpen(&checked, keyring: keyring)
            if let documentKind {
                for j in checked.indices {
                    guard let body = checked[j].body, case .success(let op) = checked[j].op, op.header.doc == doc
                    else { continue }
                    checked[j].ruleRefusal = OpRules.refusal(of: body, in: doc, documentKind: documentKind)
                    checked[j].rulesChecked = true
                }
            }
            return checked
        }
    }

    /// Which of the ops (ids and headers) are stored, as of the last commit; nil when the
    /// lookup fails. An op whose seq is past the highest seq stored of its author in its
    /// document cannot be stored: only the others are looked up by id, so that a fresh
    /// sync, whose ops are all new, reads one row per author and chunk instead of one per op.
    private func heldOps(_ ops: [(id: [UInt8], header: OpHeader)]) -> Set<[UInt8]>? {
        guard !ops.isEmpty else { return [] }
        return try? readOne { db in
            var held = Set<[UInt8]>()
            var highest = [[UInt8]: UInt64]()  // doc ‖ author → the highest seq stored
            for (id, header) in ops {
                let key = header.doc.bytes + header.author
                if highest[key] == nil {
                    var statement = try RawStatement(db, "SELECT max(seq) FROM op WHERE doc = ? AND author = ?")
                    statement.bind(header.doc.bytes)
                    statement.bind(header.author)
                    // Stored seqs are 1…2^32−1 (op-format §1); clamping cannot trap either way.
                    highest[key] = try statement.firstInt64(db).map { UInt64(clamping: $0) } ?? 0
                }
                guard header.seq <= highest[key] ?? .max else { continue }
                var statement = try RawStatement(db, "SELECT 1 FROM op WHERE id = ?")
                statement.bind(id)
                try statement.forEachRow(db) { _ in held.insert(id) }
            }
            return held
        }
    }

    /// Verifies the signatures of the decoded ops not held (together: one field inversion for
    /// all, `SignatureVerifier.verifyAll`) and opens and parses the bodies of those that hold.
    static func verifyAndOpen(_ checked: inout [CheckedOp], keyring: Keyring) {
        var toVerify = [(signature: Signature, key: PublicKey, message: [UInt8])](), positions = [Int]()
        for j in checked.indices where !checked[j].held {
            guard case .success(let op) = checked[j].op else { continue }
            // Verified ahead (the sync transport verifies a peer's next batch while this one is
            // stored): the same id and signature verified then.
            if VerifiedOps.shared.take(id: checked[j].id, signature: op.signature) {
                checked[j].signatureValid = true
            } else if let author = try? PublicKey(bytes: op.header.author),
                let signature = try? Signature(bytes: op.signature)
            {
                toVerify.append((signature, author, op.signedBytes))
                positions.append(j)
            }
        }
        for (valid, j) in zip(SignatureVerifier.shared.verifyAll(toVerify), positions) {
            checked[j].signatureValid = valid
        }
        for j in checked.indices where checked[j].signatureValid { open(&checked[j], keyring: keyring) }
    }

    /// Opens and parses the body of an op whose signature holds, and plans its materializing.
    private static func open(_ c: inout CheckedOp, keyring: Keyring) {
        guard case .success(let op) = c.op else { return }
        let header = op.header
        guard let key = keyring.key(header.doc, epoch: header.epoch),
            let plaintext = try? SecretBox.open(
                op.ciphertext, key: key, associatedData: OpCrypto.associatedData(header))
        else { return }
        do {
            let body = try decodeBody(plaintext)
            c.body = body
            c.plan = Materializer.plan(opID: c.id, header: header, authorKey: header.authorKey, body: body)
        } catch {
            c.bodyError = bodyRefusal(error)
        }
    }
}
