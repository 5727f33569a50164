import Foundation
import PlacesAPI
import PlacesAccess
import PlacesCrypto
import PlacesModel
import PlacesStore
import PlacesSync

/// Share links (`Protocol/capabilities.md`): making them, revoking members and links with
/// key rotation, and leaving. `SharingService` checks and decides; the engine issues the
/// token, commits, rotates keys and tells peers.
extension Engine {
    /// The sharing rules for the logged-in identity.
    func sharingService() throws -> SharingService {
        let itineraries = try itineraryService()
        return SharingService(store: store, me: itineraries.me, itineraries: itineraries)
    }

    // MARK: Making links

    /// `POST /v1/itineraries/{id}/links`.
    func createLink(_ reference: String, _ request: LinkRequest) async throws -> ShareLinkInfo {
        // The one await comes first: from here on every check and the commit run without a
        // suspension, so no other request can change the role, key or login in between.
        let hints = await addressHints()
        let doc = try itineraryDoc(reference)
        let signer = try personSigner("make a share link")
        let sharing = try sharingService()
        let now = RFC3339.nowMs()
        let terms = try sharing.linkTerms(doc, request, nowMs: now)
        guard let (epoch, key) = keyringCopy().current(doc.id) else {
            throw ServiceError(.failure("no-key", title: "No key"), "no key is held for this itinerary")
        }
        let token: CapabilityToken
        do {
            let notBefore = now - Store.linkClockAllowanceMs
            token = try CapabilityToken.issue(
                doc: doc.id, role: terms.role, by: signer, audience: terms.audience, notBeforeMs: notBefore,
                expiresMs: terms.expiresMs, uses: terms.uses.map(UInt32.init), addressHints: hints, epoch: epoch,
                documentKey: key)
        } catch {
            throw ServiceError.invalid("link", error.message)
        }
        try commit(sharing.linkCreated(token, terms, in: doc.id))
        var info = try sharing.linkInfos(doc).first { $0.id == token.id }!
        info.url = ShareLink(token: token).text
        return info
    }

    /// Where peers may reach this daemon, for a token's address hints: the sync listening
    /// port on each non-loopback IPv4 address (loopback when there is no other), at most 4.
    func addressHints() async -> [String] {
        guard let listenAddress, let (host, port) = Engine.parseHostPort(listenAddress, allowZero: true) else {
            return []
        }
        let bound = await sync?.boundPort ?? port
        guard bound > 0 else { return [] }
        if host != "0.0.0.0" && host != "::" {
            return [(host.contains(":") ? "[\(host)]" : host) + ":\(bound)"]
        }
        var addresses = NetworkInterfaces.nonLoopbackIPv4Addresses()
        if addresses.isEmpty { addresses = ["127.0.0.1"] }
        return addresses.prefix(4).map { "\($0):\(bound)" }
    }

    // MARK: Revoking

    /// `DELETE /v1/itineraries/{id}/members/{member}`: the owner removes a member and
    /// rotates the document key.
    func removeMember(_ reference: String, member text: String) async throws -> MemberList {
        let doc = try itineraryDoc(reference)
        let (member, edit) = try sharingService().removal(doc, member: text, displayName: { displayName(of: $0) })
        let ops = try commit(edit)
        tellRemoved([member], ops, doc: doc.id)
        try rotateKey(doc)
        return try members(doc.id.hex)
    }

    /// `DELETE /v1/itineraries/{id}/links/{link}`: the owner revokes a link, which also
    /// removes the members who joined through it, and rotates the document key.
    func revokeLink(_ reference: String, link: String) async throws -> MemberList {
        let doc = try itineraryDoc(reference)
        let (removed, edit) = try sharingService().revocation(doc, link: link)
        let ops = try commit(edit)
        tellRemoved(removed, ops, doc: doc.id)
        try rotateKey(doc)
        return try members(doc.id.hex)
    }

    /// Sends the removal itself (still in the old epoch) to the removed members, so that
    /// their daemons, if connected, show they are no longer members. Nothing later is sent.
    private func tellRemoved(_ members: [PublicKey], _ ops: [SignedOp], doc: DocumentID) {
        guard !members.isEmpty, !ops.isEmpty else { return }
        replicator.send(ops, of: doc, to: members)
    }

    /// Starts a new epoch: a fresh document key, kept sealed to the owner and granted (sealed
    /// and signed) to each remaining member, who receive it in the next offer. Later ops use
    /// it, so a removed member cannot read them even with the ciphertext.
    /// The grants go to each remaining member's person key and to each of its devices certified
    /// in the document and not revoked (`Protocol/devices.md` §4.3); this person's other devices
    /// get the key from this one's next offer.
    func rotateKey(_ doc: Store.DocumentRecord) throws {
        guard let identity, let me else { throw ServiceError.loggedOut }
        let epoch = (keyringCopy().current(doc.id)?.epoch ?? 0) + 1
        let remaining = participants(of: doc).subtracting([me])
        var devicesOfMembers = Set<PublicKey>()
        for (device, person) in (try? store.devicePersons(in: doc.id)) ?? [:] {
            guard let key = Engine.publicKey(hex: device), let owner = Engine.publicKey(hex: person),
                remaining.contains(owner), (try? store.isRevoked(device: key, of: owner)) == false
            else { continue }
            devicesOfMembers.insert(key)
        }
        do {
            let key = try SecretBox.randomKey()
            try store.addDocumentKey(doc.id, epoch: epoch, sealed: try SealedBox.seal(key, to: identity.publicKey))
            // A relay's key never receives a document key (relay.md §1).
            for member in remaining.union(devicesOfMembers) where !isRelayKey(member) {
                try store.saveGrant(try issueGrant(key: key, doc: doc.id, epoch: epoch, to: member))
            }
            addKey(key, doc: doc.id, epoch: epoch)
        } catch {
            throw ServiceError.crypto("Could not rotate the key", "\(error)", cause: error)
        }
        logger.info(
            "document key rotated",
            metadata: ["doc.id": "\(doc.id)", "epoch": "\(epoch)", "members": "\(remaining.count)"])
        offerToConnected(doc, newcomers: withDevices(remaining.union([me])))
    }

    // MARK: Leaving

    /// A member's delete: writes its `left` role and hides the itinerary here; it stays for
    /// the others, who learn of the leave at the next exchange.
    func leave(_ doc: Store.DocumentRecord) throws {
        guard let me else { throw ServiceError.loggedOut }
        let role = self.role(in: doc)
        try commit(
            doc.id, [.set(entity: me.hex, kind: .member, field: "role", value: .string("left"), old: .string(role))],
            summary: "left the itinerary")
    }

    /// The itinerary's links with their state.
    func linkInfos(_ doc: Store.DocumentRecord) throws -> [ShareLinkInfo] { try sharingService().linkInfos(doc) }

    /// A public key from its hex, nil when it is not one.
    static func publicKey(hex: String) -> PublicKey? { SharingService.publicKey(hex: hex) }

    /// A refused link as the problem a join ends with (`ServiceError.link` mapped at the edge).
    static func problem(_ error: AccessError, field: String) -> Problem {
        Problem(ServiceError.link(error, field: field))
    }
}
