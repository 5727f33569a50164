import Foundation
import PlacesAccess
import PlacesModel

/// Conversions between the generated wire types and the domain types the host sees.
extension Replicator {
    static func wire(_ grant: KeyGrant) -> Places_Sync_V1_KeyGrant {
        var g = Places_Sync_V1_KeyGrant()
        g.doc = Data(grant.doc.bytes)
        g.epoch = grant.epoch
        g.member = Data(grant.member)
        g.sealedKey = Data(grant.sealedKey)
        g.issuer = Data(grant.issuer)
        g.signature = Data(grant.signature)
        if let cert = grant.issuerCert { g.issuerCert = Data(cert.encoded) }
        return g
    }

    /// A received grant; nil when its document id is not 16 bytes or it carries an
    /// `issuer_cert` that is not a valid certificate (devices.md §2).
    static func grant(_ g: Places_Sync_V1_KeyGrant) -> KeyGrant? {
        guard let doc = DocumentID(bytes: [UInt8](g.doc)) else { return nil }
        var cert: DeviceCertificate?
        if !g.issuerCert.isEmpty {
            guard let decoded = try? DeviceCertificate(decoding: [UInt8](g.issuerCert)) else { return nil }
            cert = decoded
        }
        return KeyGrant(
            doc: doc, epoch: g.epoch, member: [UInt8](g.member), sealedKey: [UInt8](g.sealedKey),
            issuer: [UInt8](g.issuer), signature: [UInt8](g.signature), issuerCert: cert)
    }

    /// An offer of a document not held, for the host: only the grants among the first
    /// `maxGrantsPerOffer` entries are looked at, and the names are bounded.
    static func received(_ offer: Places_Sync_V1_DocOffer, doc: DocumentID) -> ReceivedOffer {
        var received = ReceivedOffer(
            doc: doc, owner: [UInt8](offer.owner),
            grants: offer.grants.prefix(Replicator.maxGrantsPerOffer).compactMap(Replicator.grant),
            name: String(offer.name.prefix(200)), fromName: String(offer.fromName.prefix(100)), role: offer.role,
            joinProof: [UInt8](offer.joinProof), kind: kind(of: offer) ?? .itinerary)
        if offer.salt.count == 16 { received.salt = [UInt8](offer.salt) }
        return received
    }

    /// The kind an offer names: "" and "itinerary" are itineraries, "card" a contact card;
    /// nil for any other (the offer is ignored).
    static func kind(of offer: Places_Sync_V1_DocOffer) -> ReplicaDocument.Kind? {
        switch offer.kind {
        case "", "itinerary": .itinerary
        case "card": .card
        case "outbox": .outbox
        case "published": .published
        case "library": .library
        case "profile": .profile
        default: nil
        }
    }

    static func joinRequest(_ presentation: JoinPresentation) -> SyncMessage {
        var request = Places_Sync_V1_JoinRequest()
        request.token = Data(presentation.token)
        request.nonce = Data(presentation.nonce)
        var message = SyncMessage()
        message.join = request
        return message
    }

    /// `ops` in `OpsBatch` messages of at most `maxBatchBytes`; `onOp` sees each op as it
    /// is added, `onBatch` each batch's bytes once it is complete.
    func batches(
        of ops: [[UInt8]], doc: DocumentID, onOp: ([UInt8]) -> Void = { _ in }, onBatch: (Int) -> Void = { _ in }
    ) -> [SyncMessage] {
        var out = [SyncMessage]()
        var current = [Data]()
        var size = 0
        func flush() {
            guard !current.isEmpty else { return }
            var batch = Places_Sync_V1_OpsBatch()
            batch.doc = Data(doc.bytes)
            batch.ops = current
            var message = SyncMessage()
            message.ops = batch
            out.append(message)
            onBatch(size)
            current = []
            size = 0
        }
        for op in ops {
            if size + op.count > Replicator.maxBatchBytes { flush() }
            current.append(Data(op))
            size += op.count
            onOp(op)
        }
        flush()
        return out
    }

    /// A duration in milliseconds with two decimals, for debug logs.
    static func milliseconds(_ duration: Duration) -> String {
        let ms = Double(duration.components.seconds) * 1e3 + Double(duration.components.attoseconds) / 1e15
        return String(format: "%.2f", ms)
    }
}
