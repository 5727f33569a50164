import PlacesCrypto
import PlacesModel
import PlacesStore

/// Ops a relay serves (`Protocol/relay.md` §4.2). A relay stores ops it cannot open, so an op
/// every member refuses — a body no key of the document opens, an author who may not write —
/// can sit in its log before other members' ops, and would stop each batch it comes in. From
/// a relay, the rest of a batch is stored all the same: only the refused op and the ops that
/// cannot stand without it (its author's later ops, its causal future) are left out.
extension Engine {
    /// Most refused ops passed over in one batch (each costs one more pass over the rest).
    static let maxRefusalsPassedOver = 16

    func ingestFromRelay(
        _ ops: [[UInt8]], doc: DocumentID, keyring: Keyring,
        authorize: (OpHeader, OpBody) -> String? = { _, _ in nil }
    ) throws(StoreError) -> Store.IngestResult {
        var total = try store.ingest(ops, doc: doc, keyring: keyring, authorize: authorize)
        var last = total
        var rest = ops
        var passes = 0
        // Refused ops' ids, and per author the lowest seq refused: what depends on them is left out.
        var refused = Set<[UInt8]>()
        var chains = [[UInt8]: UInt64]()
        func leaveOut(_ op: SignedOp) {
            refused.insert(Blake2b.hash256(op.signedBytes))
            chains[op.header.author] = min(chains[op.header.author] ?? .max, op.header.seq)
        }
        while last.rejected != nil, passes < Self.maxRefusalsPassedOver {
            // The batch stops at the refused op: everything before it was stored or held.
            let index = last.stored.count + last.duplicates
            guard index < rest.count else { break }
            if let op = try? SignedOp(decoding: rest[index]) { leaveOut(op) }
            var next = [[UInt8]]()
            for bytes in rest[(index + 1)...] {
                guard let op = try? SignedOp(decoding: bytes) else { continue }
                if op.header.deps.contains(where: refused.contains)
                    || chains[op.header.author].map({ op.header.seq >= $0 }) == true
                {
                    leaveOut(op)
                    continue
                }
                next.append(bytes)
            }
            guard !next.isEmpty else { break }
            passes += 1
            rest = next
            last = try store.ingest(next, doc: doc, keyring: keyring, authorize: authorize)
            total.stored += last.stored
            total.bodies += last.bodies
            total.duplicates += last.duplicates
            total.excluded += last.excluded
            total.equivocations += last.equivocations
        }
        return total
    }
}
