import Foundation
import PlacesAPI
import PlacesAccess
import PlacesCrypto
import PlacesModel
import PlacesStore

/// The account's use cases (`init`, `login`, `logout`, `status`, `profile`) over
/// `AccountService`, which holds the key file, identity and keyring.
extension Engine {
    /// Unlocks an unsealed key at start-up (headless devices).
    func autoLogin() {
        guard let file = try? account.readKeyFile(), !file.isSealed else { return }
        do {
            try unlock(try file.open(passphrase: nil), passphrase: nil)
            logger.info("logged in with the unsealed key file")
        } catch {
            logger.error("the unsealed key file could not be opened", metadata: ["error": "\(error)"])
        }
    }

    func status() async -> Status {
        var listen = listenAddress
        if let sync, let port = await sync.boundPort, let address = listenAddress,
            let (host, _) = Engine.parseHostPort(address, allowZero: true)
        {
            listen = host.contains(":") ? "[\(host)]:\(port)" : "\(host):\(port)"
        }
        return localStatus(listen: listen)
    }

    private func localStatus(listen: String?) -> Status {
        let file = try? account.readKeyFile()
        let profile = currentProfile()
        // The person's id: a paired device's key file holds its own key, its certificate the person.
        let certified = (try? DeviceRecord.read(paths))?.flatMap { try? DeviceCertificate(base64url: $0.certificate) }
        let person = me ?? certified?.person ?? (try? file?.identityPublicKey())
        return Status(
            id: person?.humanID, version: version, initialized: file != nil,
            loggedIn: identity != nil, passphraseProtected: file?.isSealed, name: profile?.name,
            username: profile?.username, dataDir: paths.dataDir, socket: paths.socket, pid: getpid(),
            opCount: identity == nil ? nil : (try? store.opCount()), listen: listen, discovery: discoveryOn,
            device: deviceStatus())
    }

    func initialize(_ request: InitRequest) throws -> Profile {
        guard (try? account.readKeyFile()) == nil else {
            throw ServiceError.conflict(
                "already-initialized", "an identity already exists in \(paths.dataDir); use `places login`")
        }
        let name = try FieldRule.text(maxLength: 100, required: true).check("name", .string(request.name)).stringValue!
        let username = try AccountService.checkUsername(request.username)
        var bio: JSONValue?
        if let text = request.bio {
            bio = try FieldRule.text(maxLength: 1_000, required: false).check("bio", .string(text))
        }
        /// The passphrase to seal the key file with; nil for an unsealed (headless) key file.
        let passphrase: String?
        switch (request.passphrase, request.noPassphrase ?? false) {
        case (let p?, false) where !p.isEmpty: passphrase = p
        case (nil, true): passphrase = nil
        case (_, true): throw ServiceError.invalid("noPassphrase", "give either a passphrase or noPassphrase, not both")
        default:
            throw ServiceError.invalid(
                "passphrase", "a passphrase is required (or set noPassphrase for a headless device)")
        }
        let pair: SigningKeyPair
        let file: KeyFile
        do {
            pair = try SigningKeyPair()
            if let passphrase {
                file = try KeyFile.sealed(pair, passphrase: passphrase)
            } else {
                file = KeyFile.unsealed(pair)
            }
        } catch {
            throw ServiceError.crypto("Key generation failed", error.message, cause: error)
        }
        // The key file is written last: if anything before fails, nothing is left behind and
        // `places init` can simply be run again.
        let now = RFC3339.nowMs()
        let profileID = DocumentID(bytes: SecureRandom.bytes(16))!
        let libraryID = DocumentID(bytes: SecureRandom.bytes(16))!
        do {
            for (id, kind) in [(profileID, Store.DocumentKind.profile), (libraryID, .library)] {
                let key = try SecretBox.randomKey()
                try store.createDocument(
                    id, kind: kind, owner: pair.publicKey, sealedKey: try SealedBox.seal(key, to: pair.publicKey),
                    timeMs: now)
            }
            try unlock(pair)
            var changes: [Change] = [.create(entity: profileID.hex, kind: .profile)]
            changes.append(.set(ProfileFields.name, of: profileID.hex, to: name))
            changes.append(.set(ProfileFields.username, of: profileID.hex, to: username))
            if let bio = bio?.stringValue {
                changes.append(.set(ProfileFields.bio, of: profileID.hex, to: bio))
            }
            try commit(profileID, changes)
            try account.writeKeyFile(file)
        } catch {
            account.lock()
            try? store.purgeDocument(profileID)
            try? store.purgeDocument(libraryID)
            didStore(.documents)
            didChangeIdentity()
            if let e = error as? ServiceError { throw e }
            if let p = error as? Problem { throw p }
            throw ServiceError.internal("Initialisation failed", "\(error)")
        }
        logger.info("identity created")
        return currentProfile()!
    }

    func login(passphrase: String?) async throws -> Status {
        guard let file = try? account.readKeyFile() else {
            throw ServiceError(.nothingToUnlock, "no identity yet: run `places init` first")
        }
        if identity != nil { return await status() }
        do {
            try unlock(try file.open(passphrase: passphrase), passphrase: passphrase)
        } catch let e as CryptoError where e.code == .wrongPassphrase {
            throw ServiceError(.wrongPassphrase, e.message, cause: e)
        } catch let e as ServiceError {
            throw e
        } catch {
            throw ServiceError.internal("Login failed", "\(error)")
        }
        events.publish(Event(type: "login", time: RFC3339.string(ms: RFC3339.nowMs()), summary: "logged in"))
        return await status()
    }

    func logout() async -> Status {
        didChangeIdentity()
        account.lock()
        events.publish(Event(type: "logout", time: RFC3339.string(ms: RFC3339.nowMs()), summary: "logged out"))
        // A logged-out daemon syncs nothing: drop every peer session.
        if let sync { await sync.disconnectAll(reason: "logged out") }
        return await status()
    }

    func profile() throws -> Profile {
        try requireLogin()
        guard let p = currentProfile() else { throw ServiceError.notFound("no profile") }
        return p
    }

    /// Unlocks `pair`: every cache built for the previous identity (or none) goes.
    /// Unlocks `pair`, this device's key: on a paired device with its certificate, and on an
    /// admin one with the person's key (`person.key`, sealed with the same passphrase).
    private func unlock(_ pair: SigningKeyPair, passphrase: String? = nil) throws {
        if let record = try DeviceRecord.read(paths) {
            let certificate = try record.checked(for: pair.publicKey)
            let personKey = try DeviceRecord.readPersonKey(paths)?.open(passphrase: passphrase)
            try account.unlock(
                pair, store: store, certificate: certificate,
                personKey: personKey?.publicKey == certificate.person ? personKey : nil, deviceName: record.name)
        } else {
            try account.unlock(pair, store: store)
        }
        didChangeIdentity()
        settleRotations()
        mirrorPersonState()
        learnAllRelays()
        readSyncState()
    }

    func currentProfileName() -> String? { currentProfile()?.name }

    private func currentProfile() -> Profile? { account.profile(in: store) }
}
