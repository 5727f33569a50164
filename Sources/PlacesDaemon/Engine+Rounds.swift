import Foundation
import PlacesAccess
import PlacesCrypto
import PlacesModel
import PlacesStore
import PlacesSync

/// Rounds of a document exchange (`Protocol/sync.md` §7, "Rounds"): what is sent to a peer
/// in answer to its offers, in send windows, and how new ops are pushed.
extension Engine {
    /// Answers an offer of `peer` (which holds `theirs`): the next round of ops it lacks,
    /// after those already sent to it and not yet acknowledged, as long as fewer than
    /// `maxInFlightBytes` are in flight. An offer with `reply = false` (a new exchange)
    /// starts from its vector alone.
    func nextRound(to peer: PublicKey, doc: DocumentID, theirs: VersionVector, fresh: Bool) -> [SyncMessage] {
        var window = (fresh ? nil : sendWindows[peer]?[doc]) ?? SendWindow(frontier: theirs)
        if !window.acknowledge(theirs) {
            // The peer stored less than was sent (it refused an op): start again from what it holds.
            window = SendWindow(frontier: theirs)
        }
        let out = fillWindow(&window, doc: doc)
        sendWindows[peer, default: [:]][doc] = window
        return out
    }

    /// One more round for `window` if it has room, in batches, each recorded as in flight.
    private func fillWindow(_ window: inout SendWindow, doc: DocumentID) -> [SyncMessage] {
        guard window.inFlightBytes + Engine.maxRoundBytes <= Engine.maxInFlightBytes,
            let round = try? store.ops(
                of: doc, missingFrom: window.frontier, after: window.readThrough, maxBytes: Engine.maxRoundBytes),
            !round.ops.isEmpty
        else { return [] }
        let started = ContinuousClock.now
        var frontier = window.frontier
        var sizes = [Int]()
        var index = 0
        let messages = batches(of: round.ops, doc: doc) { _ in
            frontier.include(round.stamps[index].author, round.stamps[index].seq)
            index += 1
        } onBatch: { bytes in
            window.inFlight.append((through: frontier, bytes: bytes))
            sizes.append(bytes)
        }
        window.readThrough = round.readThrough
        window.frontier = frontier
        logger.debug(
            "sending a round of ops",
            metadata: [
                "doc.id": "\(doc)", "ops": "\(round.ops.count)", "batches": "\(sizes.count)",
                "in.flight.bytes": "\(window.inFlightBytes)",
                "ms": "\(Engine.milliseconds(ContinuousClock.now - started))",
            ])
        return messages
    }

    /// Sends new ops (a local commit, or ops from one peer relayed to the others) to each of
    /// `recipients`. A recipient still being sent older ops in rounds would get these before
    /// ops they depend on and refuse them: it gets a fresh offer instead (so it keeps pulling
    /// until it holds them) and the next round if there is room. `before` is what this
    /// daemon held before the ops.
    func push(_ ops: [SignedOp], doc: DocumentID, to recipients: [PublicKey], before: VersionVector?) {
        guard !ops.isEmpty, !recipients.isEmpty else { return }
        var direct = [PublicKey]()
        var toOffer = Set<PublicKey>()
        for recipient in recipients where sessions[recipient] != nil {
            // A peer that has not offered this document in this session may not hold it yet (a
            // new member): ops it cannot place would be dropped. It gets an offer, and pulls.
            guard peerVectors[recipient]?[doc] != nil else {
                toOffer.insert(recipient)
                continue
            }
            guard var window = sendWindows[recipient]?[doc] else {
                direct.append(recipient)
                continue
            }
            if let before, window.frontier.includes(before) {
                for op in ops { window.frontier.include(op.header.authorKey, op.header.seq) }
                sendWindows[recipient]?[doc] = window
                direct.append(recipient)
                continue
            }
            var messages = [SyncMessage]()
            if let record = try? store.document(doc), let offer = makeOffer(for: record, to: recipient, reply: true) {
                messages.append(offer)
            }
            messages += fillWindow(&window, doc: doc)
            sendWindows[recipient]?[doc] = window
            outbox.yield(Outgoing(doc: doc, messages: messages, recipients: [recipient]))
        }
        if !toOffer.isEmpty, let record = try? store.document(doc) { offerToConnected(record, newcomers: toOffer) }
        guard !direct.isEmpty else { return }
        outbox.yield(Outgoing(doc: doc, messages: batches(of: ops.map(\.encoded), doc: doc), recipients: direct))
    }
}
