import Foundation
import PlacesAPI
import PlacesAccess
import PlacesCrypto
import PlacesModel
import PlacesStore
import PlacesSync

/// A person's devices (`Protocol/devices.md`): who a connected peer acts for, this person's
/// device list, revocation and the key rotations it owes. The state is `DeviceComponent`'s;
/// pairing is `Engine+Pairing`.
extension Engine {
    // MARK: Who a peer is

    /// The person `peer` acts for: its certificate's when it presented a valid one, else itself.
    func person(of peer: PublicKey) -> PublicKey { devices.person(of: peer) }

    /// Whether `peer` is another device of this person.
    func isSibling(_ peer: PublicKey) -> Bool {
        guard let me, let identity, peer != identity.publicKey else { return false }
        return devices.person(of: peer) == me
    }

    /// `persons` and the connected devices acting for them: who a document's ops go to.
    func withDevices(_ persons: Set<PublicKey>) -> Set<PublicKey> {
        var out = devices.devices(of: persons)
        if let identity { out.remove(identity.publicKey) }
        return out
    }

    /// The person's key, for what the person signs beyond ops (share and friend links, likes,
    /// reactions, key grants as owner): held by the first device and admin devices only.
    func personSigner(_ what: String) throws -> SigningKeyPair {
        try requireLogin()
        guard let personKey = account.personKey else {
            throw ServiceError(
                .notAdmin,
                "to \(what), use your first device or one paired with --admin: this device does not hold your person key"
            )
        }
        return personKey
    }

    /// A grant of `key` to `member`, signed as this person: by the person key where this
    /// device holds it, else by this device with its certificate (`Protocol/devices.md` §4.3).
    func issueGrant(key: [UInt8], doc: DocumentID, epoch: UInt32, to member: PublicKey) throws -> KeyGrant {
        guard let identity else { throw ServiceError.loggedOut }
        if let personKey = account.personKey {
            return try KeyGrant.issue(key: key, doc: doc, epoch: epoch, to: member, by: personKey)
        }
        return try KeyGrant.issue(
            key: key, doc: doc, epoch: epoch, to: member, by: identity, certificate: account.certificate)
    }

    // MARK: Replication host: devices

    public func deviceCredentials() async -> (certificate: [UInt8], revocations: [[UInt8]]) {
        guard let me else { return ([], []) }
        let revocations = ((try? store.revocations(of: me)) ?? []).prefix(64).map(\.encoded)
        return (account.certificate?.encoded ?? [], Array(revocations))
    }

    public func peerDevice(_ peer: PublicKey, _ device: PeerDevice) async {
        // A certificate that fails closes the session (devices.md §6): the peer is not who it says.
        if device.badCertificate {
            logger.warning(
                "closed a session with a bad device certificate", metadata: ["peer.id": "\(peer.humanID.prefix(7))"])
            await sync?.disconnect(peer, reason: "bad-certificate")
            return
        }
        // A peer tells of its own person's revoked devices (devices.md §6), kept only for a
        // person this daemon keeps data of: a stranger's are nothing to keep.
        let person = device.certificate?.person ?? peer
        if person == me || isKnown(person) {
            for revocation in device.revocations where revocation.person == person {
                await learn(revocation)
            }
        }
        var certificate = device.certificate
        if let presented = certificate,
            (try? store.isRevoked(device: presented.device, of: presented.person)) == true
        {
            logger.warning(
                "closed a session with a revoked device", metadata: ["peer.id": "\(peer.humanID.prefix(7))"])
            certificate = nil
            await sync?.disconnect(peer, reason: "revoked")
        }
        devices.peerConnected(
            peer, certificate: certificate, handshakeHash: device.handshakeHash, nowMs: RFC3339.nowMs())
        await joiningPeerConnected(peer, certificate: certificate, handshakeHash: device.handshakeHash)
    }

    /// Whether a session with `peer` stays open for devices' sake: a sibling, or a pairing in
    /// progress with it.
    func keepsForDevices(_ peer: PublicKey) -> Bool {
        if isSibling(peer) { return true }
        if devices.joining?.issuer == peer { return true }
        return devices.pairings.contains { $0.device == peer && ($0.state == .confirm || $0.state == .done) }
    }

    // MARK: The device list

    /// `GET /v1/devices`: this person's devices, from the device list in its library
    /// (devices.md §5.5) and the root device.
    func deviceList() throws -> DeviceList {
        try requireLogin()
        guard let me, let identity else { throw ServiceError.loggedOut }
        let revocations = Dictionary(
            ((try? store.revocations(of: me)) ?? []).map { ($0.device, $0) }, uniquingKeysWith: { a, _ in a })
        var entries = [PublicKey: (name: String?, certificate: DeviceCertificate?)]()
        if let library = try? account.library() {
            for record in (try? store.entities(in: library, kind: .device)) ?? [] {
                guard let key = Engine.publicKey(hex: record.id) else { continue }
                let fields = Views.fields(record)
                let certificate = fields["cert"]?.stringValue.flatMap { try? DeviceCertificate(base64url: $0) }
                guard key == me || certificate?.person == me else { continue }
                entries[key] = (fields["name"]?.stringValue, certificate)
            }
        }
        if let own = account.certificate, entries[own.device]?.certificate == nil {
            entries[own.device] = (entries[own.device]?.name ?? account.deviceName, own)
        }
        if entries[me] == nil { entries[me] = (nil, nil) }
        let nowMs = RFC3339.nowMs()
        var list = entries.map { key, entry -> DeviceInfo in
            let current = key == identity.publicKey
            let seen = current ? nowMs : devices.lastSeen[key]
            return DeviceInfo(
                id: key.humanID, name: entry.name ?? (key == me ? "first device" : String(key.humanID.prefix(7))),
                current: current, admin: key == me || entry.certificate?.admin == true,
                addedAt: entry.certificate.map { RFC3339.string(ms: $0.issuedMs) },
                lastSeen: seen.map(RFC3339.string(ms:)),
                revokedAt: revocations[key].map { RFC3339.string(ms: $0.revokedMs) })
        }
        list.sort { ($0.addedAt ?? "", $0.id) < ($1.addedAt ?? "", $1.id) }
        let admins = list.filter { $0.admin && $0.revokedAt == nil }
        let warning =
            admins.count == 1
            ? "only \(admins[0].name) can pair and revoke devices: if it is lost, keep its identity.key and "
                + "passphrase safe (docs: \"Several devices\"), or pair another device with --admin"
            : nil
        return DeviceList(devices: list, warning: warning)
    }

    // MARK: Revoking

    /// `DELETE /v1/devices/{id}`: revokes a device of this person (devices.md §3), from an
    /// admin device.
    func revokeDevice(_ reference: String) async throws -> DeviceList {
        try requireLogin()
        guard let personKey = account.personKey, let identity else {
            throw ServiceError(.notAdmin, "this device may not revoke devices: use one that manages devices")
        }
        let list = try deviceList()
        let wanted = reference.trimmingCharacters(in: .whitespaces)
        let key = try? HumanID.decode(wanted)
        let matches = list.devices.filter { info in
            key.map { info.id == $0.humanID } ?? (info.name.caseInsensitiveCompare(wanted) == .orderedSame)
        }
        guard matches.count <= 1 else {
            throw ServiceError.invalid("device", "several devices are named \(wanted): give the device's id")
        }
        guard let target = matches.first, let device = try? HumanID.decode(target.id) else {
            throw ServiceError.notFound("no device \(wanted) of yours: `places device list` shows them")
        }
        guard device != identity.publicKey else {
            throw ServiceError.conflict("current-device", "this is the device you are using: revoke it from another")
        }
        guard device != personKey.publicKey else {
            throw ServiceError.conflict("person-key", "the first device holds the person's key and cannot be revoked")
        }
        if target.revokedAt == nil {
            let revocation: DeviceRevocation
            do {
                revocation = try DeviceRevocation.issue(device: device, revokedMs: RFC3339.nowMs(), by: personKey)
            } catch {
                throw ServiceError.crypto("Could not sign the revocation", "\(error)", cause: error)
            }
            await learn(revocation)
            logger.info("device revoked", metadata: ["device.id": "\(device.humanID.prefix(7))"])
        }
        return try deviceList()
    }

    /// Takes a revocation this daemon did not hold (checked by its decoder): kept, the device's
    /// sessions closed, written into every document of its person this daemon may write, and
    /// a rotation owed for each document owned here that the person's devices could read.
    func learn(_ revocation: DeviceRevocation) async {
        guard (try? store.saveRevocation(revocation)) == true else { return }
        logger.info(
            "learned a device revocation",
            metadata: [
                "device.id": "\(revocation.device.humanID.prefix(7))",
                "person.id": "\(revocation.person.humanID.prefix(7))",
            ])
        // Its sessions close only when it acts for the revoking person: a revocation bars a
        // device for the person who signed it, not for whoever it is certified for.
        if devices.certificate(of: revocation.device)?.person == revocation.person {
            devices.revoked(revocation.device)
            await sync?.disconnect(revocation.device, reason: "revoked")
        }
        let person = revocation.person
        for record in (try? store.documents()) ?? [] {
            guard participants(of: record).contains(person) || record.owner == person.bytes else { continue }
            if (try? store.isDeviceRevoked(revocation.device, in: record.id)) != true, mayWrite(record) {
                let change = Change.set(
                    entity: revocation.device.hex, kind: .device, field: DeviceFields.revocation.name,
                    value: .string(revocation.base64url), old: nil)
                do { try commit(record.id, [change], summary: "a device was revoked") } catch {
                    logger.error(
                        "writing a revocation failed", metadata: ["doc.id": "\(record.id)", "error": "\(error)"])
                }
            }
            if record.owner == me?.bytes { try? store.owesRotation(record.id, sinceMs: RFC3339.nowMs()) }
        }
        settleRotations()
    }

    /// Whether this daemon's ops in `record` are taken by the others: it owns it, or is an
    /// active member of the itinerary.
    func mayWrite(_ record: Store.DocumentRecord) -> Bool {
        guard let me else { return false }
        if record.owner == me.bytes { return true }
        return record.kind == .itinerary && Store.activeRoles.contains(role(in: record))
    }

    /// Moves the key of every document owed a rotation, when this device can sign the grants.
    func settleRotations() {
        guard account.personKey != nil else { return }
        for doc in (try? store.rotationsOwed()) ?? [] {
            guard let record = try? store.document(doc) else {
                try? store.rotated(doc)
                continue
            }
            do {
                try rotateKey(record)
                try store.rotated(doc)
            } catch {
                logger.error("a rotation owed failed", metadata: ["doc.id": "\(doc)", "error": "\(error)"])
            }
        }
    }

    /// After ops from a peer were stored: revocations they carry are learned (devices.md §4.3).
    /// Only revocations of this person's devices, or of a device certified in `doc` for the
    /// person who revoked it, are acted on: a member who writes revocations of made-up keys
    /// signed by itself (the store accepts them: they bar nothing) costs no key rotation.
    func learnRevocations(in bodies: [OpBody], doc: DocumentID) async {
        var certified: [String: String]?
        for body in bodies {
            for case .set(_, .device, "revocation", .string(let text), _) in body.changes {
                guard let revocation = try? DeviceRevocation(base64url: text) else { continue }
                if revocation.person != me {
                    if certified == nil { certified = (try? store.devicePersons(in: doc)) ?? [:] }
                    guard certified?[revocation.device.hex] == revocation.person.hex else { continue }
                }
                await learn(revocation)
            }
        }
    }
}
