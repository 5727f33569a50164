import Foundation
import PlacesAccess
import PlacesCrypto
import PlacesModel
import PlacesStore
import PlacesSync

/// Two devices of one person (`Protocol/devices.md` §4.3): each offers the other every
/// document it holds of the person — library, profile, card, outboxes, itineraries — with a
/// grant of every key it holds sealed to the other device; the receiver takes them as its
/// own, without an invitation. So "everything follows" is the normal sync.
extension Engine {
    /// What a sibling device is offered: every document this person holds, but published
    /// trips (their publications stay with the device that made them).
    func siblingDocuments() -> [DocumentID] {
        ((try? store.documents()) ?? []).filter { $0.kind != .published }.map(\.id)
    }

    /// An offer of `record` to a sibling device: every key held of it, sealed to that device
    /// and signed by this one.
    func siblingOffer(_ record: Store.DocumentRecord, vector: VersionVector, to sibling: PublicKey) -> OfferContent? {
        guard let identity, record.kind != .published else { return nil }
        var grants = [KeyGrant]()
        let certificate = account.certificate
        for (epoch, key) in keyringCopy().all(record.id).reversed() {
            let grant = devices.siblingGrant(to: sibling, doc: record.id, epoch: epoch) {
                try? KeyGrant.issue(
                    key: key, doc: record.id, epoch: epoch, to: sibling, by: identity, certificate: certificate)
            }
            if let grant { grants.append(grant) }
        }
        var content = OfferContent(owner: record.owner, vector: vector, grants: grants)
        content.kind = Engine.replica(record).kind
        return content
    }

    /// A document a sibling device offers that this one does not hold: taken at once, with
    /// the keys the sibling granted to this device.
    func adoptFromSibling(_ offer: ReceivedOffer, from sibling: PublicKey) -> Store.DocumentRecord? {
        guard let identity, let me else { return nil }
        let kind: Store.DocumentKind
        switch offer.kind {
        case .itinerary: kind = .itinerary
        case .card: kind = .card
        case .outbox: kind = .outbox
        case .library: kind = .library
        case .profile: kind = .profile
        case .published: return nil
        }
        // A person has one library and one profile: another's are not taken.
        if kind == .library || kind == .profile, offer.owner != me.bytes { return nil }
        let grants = offer.grants.filter {
            $0.doc == offer.doc && $0.member == identity.publicKey.bytes && $0.issuer == sibling.bytes && $0.isValid
        }
        var keys = [(epoch: UInt32, key: [UInt8])]()
        for grant in grants {
            if let key = try? SealedBox.open(grant.sealedKey, with: identity) { keys.append((grant.epoch, key)) }
        }
        guard let first = grants.first, !keys.isEmpty else {
            logger.warning("a sibling offered a document without its key", metadata: ["doc.id": "\(offer.doc)"])
            return nil
        }
        do {
            try store.joinDocument(first, kind: kind, owner: offer.owner, timeMs: RFC3339.nowMs())
            for (epoch, key) in keys {
                try store.addDocumentKey(
                    offer.doc, epoch: epoch, sealed: try SealedBox.seal(key, to: identity.publicKey))
            }
        } catch {
            logger.error(
                "taking a sibling's document failed", metadata: ["doc.id": "\(offer.doc)", "error": "\(error)"])
            return nil
        }
        for (epoch, key) in keys { addKey(key, doc: offer.doc, epoch: epoch) }
        didStore(.documents)
        guard let record = try? store.document(offer.doc) else { return nil }
        account.adopted(record)
        logger.info("took a document from another device", metadata: ["doc.id": "\(offer.doc)", "kind": "\(kind)"])
        return record
    }

    /// Whether `grant` comes from someone who may hand this document's key on: its owner, or,
    /// for a grant to this very device, this person or one of its devices.
    func mayIssue(_ grant: KeyGrant) -> Bool {
        guard let me, let identity else { return false }
        guard let owner = (try? store.document(grant.doc))?.owner else { return false }
        if grant.issuer == owner { return true }
        // A device of the owner, with its certificate, while it is not known revoked.
        if let cert = grant.issuerCert, cert.person.bytes == owner {
            return (try? store.isRevoked(device: cert.device, of: cert.person)) == false
        }
        guard grant.member == identity.publicKey.bytes, let issuer = try? PublicKey(bytes: grant.issuer) else {
            return false
        }
        return issuer == me || isSibling(issuer)
    }

    /// The key a grant to this device (or to its person, on an admin device) seals.
    func openSealed(_ grant: KeyGrant) -> [UInt8]? {
        guard let identity else { return nil }
        if grant.member == identity.publicKey.bytes { return try? SealedBox.open(grant.sealedKey, with: identity) }
        if let personKey = account.personKey, grant.member == personKey.publicKey.bytes {
            return try? SealedBox.open(grant.sealedKey, with: personKey)
        }
        return nil
    }
}
