import Foundation
import PlacesAPI
import PlacesAccess
import PlacesCrypto
import PlacesModel
import PlacesStore
import PlacesSync

/// Pairing a new device (`Protocol/devices.md` §5). The admin device makes a one-time code
/// (`POST /v1/devices/pairings`); the new daemon, with no identity, joins with it
/// (`POST /v1/devices/join`): it connects with a fresh device key and proves it holds the
/// code's secret for this very session; both show a check code derived from the session;
/// the user confirms it on the admin device (`POST /v1/devices/pairings/{id}/confirm`),
/// which signs the certificate. Then the new device reconnects as the person, and the
/// person's documents and keys follow by the normal sync.
extension Engine {
    // MARK: The admin device

    /// `POST /v1/devices/pairings`.
    func createPairing(_ request: PairingRequest) async throws -> PairingCreated {
        try requireLogin()
        guard account.isAdmin, let me else {
            throw ServiceError(.notAdmin, "this device may not pair devices: use one that manages devices")
        }
        let nowMs = RFC3339.nowMs()
        let code: PairingCode
        do {
            code = try PairingCode.make(person: me, nowMs: nowMs, hints: await addressHints())
        } catch {
            throw ServiceError.internal("Could not make a pairing code", "\(error)")
        }
        let pairing = Pairing(
            id: HexCoding.encode(SecureRandom.bytes(8)), secret: code.secret, code: code.text,
            expiresMs: code.expiresMs, state: .waiting, admin: request.admin ?? false)
        devices.add(pairing, nowMs: nowMs)
        logger.info("pairing code made", metadata: ["pairing.id": "\(pairing.id)"])
        return PairingCreated(
            id: pairing.id, code: pairing.code, expiresAt: RFC3339.string(ms: pairing.expiresMs), qr: nil)
    }

    /// `GET /v1/devices/pairings`.
    func pairingList() throws -> PairingList {
        try requireLogin()
        devices.expire(nowMs: RFC3339.nowMs())
        return PairingList(pairings: devices.pairings.map(Engine.info))
    }

    static func info(_ p: Pairing) -> PairingInfo {
        PairingInfo(
            id: p.id, state: p.state.rawValue, deviceName: p.deviceName, checkCode: p.checkCode,
            expiresAt: RFC3339.string(ms: p.expiresMs), admin: p.admin)
    }

    /// `POST /v1/devices/pairings/{id}/confirm`: the check code the new device shows; a wrong
    /// one cancels the pairing.
    func confirmPairing(_ id: String, _ body: PairingConfirmation) async throws -> PairingInfo {
        try requireLogin()
        guard let personKey = account.personKey, let me else {
            throw ServiceError(.notAdmin, "this device may not pair devices: use one that manages devices")
        }
        devices.expire(nowMs: RFC3339.nowMs())
        guard let pairing = devices.pairing(id) else { throw ServiceError.notFound("no pairing \(id)") }
        guard pairing.state == .confirm, let device = pairing.device, let expected = pairing.checkCode else {
            throw ServiceError.conflict(
                "pairing-not-confirmable",
                pairing.state == .waiting
                    ? "no device has joined with this code yet: run `places device join` on it first"
                    : "this pairing is \(pairing.state.rawValue)")
        }
        let typed = body.checkCode.filter(\.isNumber)
        guard typed == expected else {
            devices.update(id) { $0.state = .cancelled }
            replicator.sendPairing(
                .refused(code: "wrong-check-code", reason: "the check code confirmed did not match: pair again"),
                to: device)
            throw ServiceError.invalid(
                "checkCode", "the check code does not match the one the new device shows: the pairing is cancelled")
        }
        let admin = body.admin ?? pairing.admin
        let certificate: DeviceCertificate
        var sealedPersonKey = [UInt8]()
        do {
            certificate = try DeviceCertificate.issue(
                device: device, admin: admin, issuedMs: RFC3339.nowMs(), by: personKey)
            if admin {
                sealedPersonKey = try personKey.withSecretKey { try SealedBox.seal($0, to: device) }
            }
        } catch {
            throw ServiceError.crypto("Could not certify the device", "\(error)", cause: error)
        }
        // The device list (devices.md §5.5): the certificate and name in the library.
        let name = pairing.deviceName ?? "new device"
        try commit(
            try library(),
            [
                .set(
                    entity: device.hex, kind: .device, field: DeviceFields.cert.name,
                    value: .string(certificate.base64url), old: nil),
                .set(entity: device.hex, kind: .device, field: DeviceFields.name.name, value: .string(name), old: nil),
            ], summary: "paired \(name)")
        devices.update(id) { $0.state = .done }
        replicator.sendPairing(
            .accepted(
                certificate: certificate.encoded, personName: currentProfileName() ?? "",
                sealedPersonKey: sealedPersonKey), to: device)
        logger.info(
            "device paired", metadata: ["device.id": "\(device.humanID.prefix(7))", "admin": "\(admin)"])
        events.publish(
            Event(
                type: "device", time: RFC3339.string(ms: RFC3339.nowMs()), author: me.humanID,
                summary: "paired \(name)"))
        return Engine.info(devices.pairing(id) ?? pairing)
    }

    // MARK: Pairing messages

    public func pairing(_ message: PairingMessage, from peer: PublicKey) async -> [PairingMessage] {
        switch message {
        case .request(let proof, let name): return pairRequest(proof: proof, name: name, from: peer)
        case .waiting:
            // The issuer has the request: the check code can be shown (devices.md §5.3).
            guard devices.joining?.issuer == peer, devices.joining?.state == .pairing else { return [] }
            let check = devices.joining?.pendingCheckCode
            devices.joining?.checkCode = check
            return []
        case .refused(let code, let reason):
            guard devices.joining?.issuer == peer, devices.joining?.state == .pairing else { return [] }
            devices.joining?.state = .refused
            devices.joining?.refusal = "\(code): \(reason)"
            logger.warning("pairing refused", metadata: ["code": "\(code)", "reason": "\(reason)"])
            return []
        case .accepted(let certificate, let personName, let sealedPersonKey):
            await pairAccepted(certificate, personName: personName, sealedPersonKey: sealedPersonKey, from: peer)
            return []
        }
    }

    /// The issuer's checks (devices.md §5.3): the proof must be the code's secret's over one of
    /// this peer's sessions, for a pairing still waiting.
    private func pairRequest(proof: [UInt8], name: String, from peer: PublicKey) -> [PairingMessage] {
        guard account.isAdmin, let me else {
            return [.refused(code: "not-admin", reason: "this device does not pair devices")]
        }
        devices.expire(nowMs: RFC3339.nowMs())
        for pairing in devices.pairings {
            for hash in devices.handshakeHashes(of: peer)
            where PairingProof.isValid(proof, secret: pairing.secret, handshakeHash: hash, device: peer, person: me) {
                guard pairing.state == .waiting else {
                    let code = pairing.state == .expired ? "expired" : "used"
                    return [
                        .refused(
                            code: code,
                            reason:
                                "this pairing code was \(code == "used" ? "used already" : "expired"): make a new one")
                    ]
                }
                let deviceName = String(name.trimmingCharacters(in: .whitespacesAndNewlines).prefix(64))
                let check = try? PairingProof.checkCode(secret: pairing.secret, handshakeHash: hash)
                devices.update(pairing.id) {
                    $0.state = .confirm
                    $0.device = peer
                    $0.deviceName = deviceName.isEmpty ? "new device" : deviceName
                    $0.checkCode = check
                }
                logger.info("a device asks to pair", metadata: ["pairing.id": "\(pairing.id)"])
                events.publish(
                    Event(
                        type: "device", time: RFC3339.string(ms: RFC3339.nowMs()),
                        summary: "“\(deviceName)” wants to pair: confirm its check code"))
                return [.waiting]
            }
        }
        logger.warning("refused a pairing request", metadata: ["peer.id": "\(peer.humanID.prefix(7))"])
        return [.refused(code: "unknown-code", reason: "no pairing code of this device matches")]
    }

    // MARK: The new device

    /// `POST /v1/devices/join`, on a daemon with no identity: makes this device's key, looks
    /// for the code's person, and answers with the check code once the issuer has the request.
    func joinAsDevice(_ request: DeviceJoinRequest) async throws -> DeviceJoinAccepted {
        guard (try? account.readKeyFile()) == nil, identity == nil else {
            throw ServiceError.conflict(
                "already-initialized", "this daemon already has an identity: a new device starts from an empty data dir"
            )
        }
        let code: PairingCode
        do { code = try PairingCode(parsing: request.code) } catch {
            throw ServiceError.invalid("code", error.message)
        }
        let name = request.name.trimmingCharacters(in: .whitespacesAndNewlines)
        guard (1...64).contains(name.count) else {
            throw ServiceError.invalid("name", "a device name is 1–64 characters")
        }
        let wait = request.waitSeconds ?? 30
        guard (1...120).contains(wait) else {
            throw ServiceError.invalid("waitSeconds", "waitSeconds must be 1 to 120")
        }
        let passphrase: String?
        switch (request.passphrase, request.noPassphrase ?? false) {
        case (let p?, false) where !p.isEmpty: passphrase = p
        case (nil, true): passphrase = nil
        default:
            throw ServiceError.invalid(
                "passphrase", "a passphrase is required (or set noPassphrase for a headless device)")
        }
        if let joining = devices.joining, joining.state == .connecting || joining.state == .pairing {
            throw ServiceError.conflict("join-in-progress", "this daemon is already joining a person")
        }
        let key: SigningKeyPair
        do { key = try SigningKeyPair() } catch {
            throw ServiceError.crypto("Key generation failed", error.message, cause: error)
        }
        devices.joining = JoiningDevice(code: code, key: key, name: name, passphrase: passphrase)
        logger.info("joining a person as a new device", metadata: ["person.id": "\(code.person.humanID.prefix(7))"])
        for hint in code.hints {
            guard let (host, port) = Engine.parseHostPort(hint), let sync, await sync.addPeer(host: host, port: port)
            else { continue }
            devices.joining?.dialled.append((host, port))
        }
        let deadline = ContinuousClock.now + .seconds(wait)
        while ContinuousClock.now < deadline {
            guard let joining = devices.joining, joining.key.publicKey == key.publicKey else { break }
            if let check = joining.checkCode { return DeviceJoinAccepted(checkCode: check) }
            if joining.state == .refused { break }
            try? await Task.sleep(for: .milliseconds(50))
        }
        let refusal = devices.joining?.refusal
        await endJoin(keepingIssuer: false)
        if let refusal { throw ServiceError(.pairingRefused, refusal, field: "code") }
        throw ServiceError(
            .noDeviceReachable,
            "no device of \(code.person.humanID.prefix(7)) answered within \(wait) s at "
                + "\(code.hints.isEmpty ? "this network" : code.hints.joined(separator: ", ")): is the device that "
                + "made the code on, and reachable? (`places peers add` on this daemon helps)")
    }

    /// A session opened while joining: the code's person (or an admin device of it) gets the
    /// request, bound to this session.
    func joiningPeerConnected(_ peer: PublicKey, certificate: DeviceCertificate?, handshakeHash: [UInt8]) async {
        guard let joining = devices.joining, joining.state == .connecting else { return }
        let person = joining.code.person
        guard peer == person || (certificate?.person == person && certificate?.admin == true) else { return }
        guard
            let proof = try? PairingProof.proof(
                secret: joining.code.secret, handshakeHash: handshakeHash, device: joining.key.publicKey,
                person: person),
            let check = try? PairingProof.checkCode(secret: joining.code.secret, handshakeHash: handshakeHash)
        else { return }
        devices.joining?.state = .pairing
        devices.joining?.issuer = peer
        devices.joining?.pendingCheckCode = check
        replicator.sendPairing(.request(proof: proof, name: joining.name), to: peer)
    }

    /// The issuer confirmed: this daemon becomes a device of the person.
    private func pairAccepted(
        _ bytes: [UInt8], personName: String, sealedPersonKey: [UInt8], from peer: PublicKey
    ) async {
        guard let joining = devices.joining, joining.issuer == peer, joining.state == .pairing else { return }
        do {
            let certificate = try DeviceCertificate(decoding: bytes)
            guard certificate.device == joining.key.publicKey, certificate.person == joining.code.person else {
                throw ServiceError.internal("Wrong certificate", "the certificate is not for this device and person")
            }
            var personKey: SigningKeyPair?
            if !sealedPersonKey.isEmpty {
                let secret = try SealedBox.open(sealedPersonKey, with: joining.key)
                let pair = try SigningKeyPair(secretKey: secret)
                guard pair.publicKey == certificate.person, certificate.admin else {
                    throw ServiceError.internal("Wrong person key", "the person key sent is not the person's")
                }
                personKey = pair
            }
            let keyFile =
                try joining.passphrase.map { try KeyFile.sealed(joining.key, passphrase: $0) }
                ?? KeyFile.unsealed(joining.key)
            if let personKey {
                let file =
                    try joining.passphrase.map { try KeyFile.sealed(personKey, passphrase: $0) }
                    ?? KeyFile.unsealed(personKey)
                try DeviceRecord.writePersonKey(file, paths)
            }
            try DeviceRecord(certificate: certificate.base64url, name: joining.name).write(paths)
            try account.writeKeyFile(keyFile)
            try account.unlock(
                joining.key, store: store, certificate: certificate, personKey: personKey, deviceName: joining.name)
            didChangeIdentity()
            devices.joining?.state = .paired
            logger.info("paired as a device", metadata: ["person.id": "\(certificate.person.humanID.prefix(7))"])
            events.publish(
                Event(type: "login", time: RFC3339.string(ms: RFC3339.nowMs()), summary: "paired with \(personName)"))
        } catch {
            logger.error("taking the pairing failed", metadata: ["error": "\(error)"])
            devices.joining?.state = .refused
            devices.joining?.refusal = "the pairing could not be completed: \(error)"
            return
        }
        // Back with the certificate in Hello: the issuer's address stays a peer, and the
        // session that paired is replaced by one as the person.
        await endJoin(keepingIssuer: true)
        await sync?.disconnect(peer, reason: "paired")
    }

    /// Forgets the join's dial targets (those that reached the issuer stay when it paired).
    private func endJoin(keepingIssuer: Bool) async {
        guard let joining = devices.joining else { return }
        if !keepingIssuer {
            for (host, port) in joining.dialled { await sync?.forgetPeer(host: host, port: port) }
            if joining.state != .refused { devices.joining = nil }
        }
        if keepingIssuer, let address = joining.issuerAddress, let (host, port) = Engine.parseHostPort(address),
            let issuer = joining.issuer
        {
            await sync?.addPeer(host: host, port: port)
            try? store.rememberPeer(key: issuer.bytes, name: "", address: address, timeMs: RFC3339.nowMs())
        }
    }

    /// `GET /v1/status`' `device`.
    func deviceStatus() -> DeviceStatus? {
        if let joining = devices.joining, joining.state != .paired {
            return DeviceStatus(
                state: joining.state == .refused ? "refused" : "pairing", id: joining.key.publicKey.humanID,
                name: joining.name, checkCode: joining.checkCode, reason: joining.refusal)
        }
        guard let certificate = account.certificate else { return nil }
        return DeviceStatus(state: "paired", id: certificate.device.humanID, name: account.deviceName)
    }
}
