import Foundation
import PlacesCrypto
import PlacesModel

/// The opening summary (`Protocol/sync.md` §7, "The opening summary"): with a peer that
/// takes `summary/1`, a session opens with one `SessionSummary` instead of an offer per
/// summarized document; offers go only for the documents of the buckets whose hashes differ.
/// A reconnect that finds nothing changed costs one message each way, however many trips
/// the two share.
extension Replicator {
    /// The opening of a session with `peer`: a summary when it takes them (the documents it
    /// covers are offered once the peer's summary says which differ), and the first slice of
    /// the other shared documents' offers.
    func openingSummaryAndOffers(to peer: PublicKey) async -> [SyncMessage] {
        guard let host else { return [] }
        let shared = await host.sharedDocumentIDs(with: peer)
        guard peerFeatures[peer]?.contains(OpeningSummary.feature) == true else {
            return await openingOffers(to: peer, of: shared[...])
        }
        var message = SyncMessage()
        // Only documents this daemon would offer anyway are left to the summary.
        let offered = Set(shared)
        let entries = (await host.openingSummary(with: peer) ?? []).filter { offered.contains($0.doc) }
        guard !entries.isEmpty else {
            // Nothing summarized: an empty summary (it is no offer: a stranger sends one too),
            // and every shared document is offered.
            message.summary = Places_Sync_V1_SessionSummary()
            pendingSummaries[peer] = nil
            return [message] + (await openingOffers(to: peer, of: shared[...]))
        }
        let summary = OpeningSummary(entries)
        pendingSummaries[peer] = summary
        message.summary.buckets = summary.hashes.map { Data($0) }
        let summarized = Set(summary.buckets.joined().map(\.doc))
        let rest = shared.filter { !summarized.contains($0) }
        return [message] + (await openingOffers(to: peer, of: rest[...]))
    }

    /// The peer's summary: the documents of the buckets that agree count as offered with this
    /// daemon's vectors (in sync, and sent new ops as they come); those of the others are
    /// offered. A summary that arrives when none of this daemon's is waiting (a second one,
    /// or after an empty one) is ignored.
    func handleSummary(_ theirs: Places_Sync_V1_SessionSummary, from peer: PublicKey) async -> [SyncMessage] {
        guard let mine = pendingSummaries.removeValue(forKey: peer) else {
            logger.debug(
                "ignored a summary no summary of this daemon waits for", metadata: ["peer.id": "\(peer.logID)"])
            return []
        }
        let buckets = theirs.buckets.prefix(OpeningSummary.bucketCount + 1).map { [UInt8]($0) }
        if !buckets.isEmpty, buckets.count != OpeningSummary.bucketCount {
            logger.warning(
                "a summary out of bounds agrees on nothing", metadata: ["peer.id": "\(peer.logID)"])
        }
        let (agreeing, differing) = mine.compare(with: buckets)
        var vectors = peerVectors[peer] ?? [:]
        var offered = offeredVectors[peer] ?? [:]
        for index in agreeing {
            // An offer the peer made since its summary may already have said more.
            for (doc, vector) in mine.buckets[index] {
                vectors[doc, default: vector].merge(vector)
                offered[doc, default: vector].merge(vector)
            }
        }
        peerVectors[peer] = vectors
        offeredVectors[peer] = offered
        let toOffer = differing.flatMap { mine.buckets[$0].map(\.doc) }
        logger.debug(
            "compared opening summaries",
            metadata: [
                "peer.id": "\(peer.logID)", "buckets.agreeing": "\(agreeing.count)", "docs.offered": "\(toOffer.count)",
            ])
        guard !toOffer.isEmpty else { return [] }
        // Offers still waiting for a Pong take these after them; otherwise they start now.
        if let pending = pendingOffers[peer] {
            pendingOffers[peer] = (pending.ping, pending.docs + toOffer)
            return []
        }
        return await openingOffers(to: peer, of: toOffer[...])
    }
}
