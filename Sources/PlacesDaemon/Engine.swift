import Foundation
import Logging
import PlacesAPI
import PlacesCrypto
import PlacesModel
import PlacesStore
import PlacesSync

/// The daemon's state and use cases: who is logged in, the document keys held, and every
/// operation of the control API turned into signed ops on the store. An actor, so that one
/// request's read-modify-write of a document never interleaves with another's.
public actor Engine {
    let store: Store
    let paths: DataPaths
    let events = EventHub()
    let logger: Logger
    let version: String

    private(set) var identity: SigningKeyPair?
    private var keyring = Keyring()
    private var libraryDoc: DocumentID?
    private var profileDoc: DocumentID?
    /// Encoded responses of hot read routes, by route; any commit or key change empties it.
    var responseCache: [String: (doc: DocumentID, bytes: [UInt8])] = [:]
    /// Names connected peers gave in their Hello.
    var peerNames: [PublicKey: String] = [:]
    /// Version vectors and participants of documents, kept current by every store write
    /// the engine makes (the store computes them with a scan of the document's ops).
    var vectorCache: [DocumentID: VersionVector] = [:]
    var participantsCache: [DocumentID: Set<PublicKey>] = [:]
    /// Replication (PlacesSync): offers, rounds and everything sent to peers; this engine is
    /// its host (`Engine+Sync`).
    nonisolated let replicator: Replicator
    /// The sync transport, once running (for `GET /v1/peers` and adding peers).
    var sync: SyncService?
    var listenAddress: String?
    var discoveryOn = false
    /// Share links being redeemed here, by document (`Engine+Links`).
    var pendingJoins: [DocumentID: PendingJoin] = [:]
    /// Peers a share link let in to fetch a document, before their `join` op arrives.
    var provisional: [DocumentID: Set<PublicKey>] = [:]
    /// When this daemon last recorded a view of each itinerary.
    var lastViewMs: [DocumentID: Int64] = [:]

    init(store: Store, paths: DataPaths, version: String, logger: Logger) {
        self.store = store
        self.paths = paths
        self.version = version
        self.logger = logger
        self.replicator = Replicator(logger: logger)
    }

    func attach(sync: SyncService, listenAddress: String, discovery: Bool) {
        self.sync = sync
        self.listenAddress = listenAddress
        self.discoveryOn = discovery
    }

    // MARK: Account

    /// Unlocks an unsealed key at start-up (headless devices).
    func autoLogin() {
        guard let file = try? readKeyFile(), !file.isSealed else { return }
        do {
            try unlock(try file.open(passphrase: nil))
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
        let file = try? readKeyFile()
        let profile = currentProfile()
        return Status(
            id: (try? file?.identityPublicKey())?.humanID, version: version, initialized: file != nil,
            loggedIn: identity != nil, passphraseProtected: file?.isSealed, name: profile?.name,
            username: profile?.username, dataDir: paths.dataDir, socket: paths.socket, pid: getpid(),
            opCount: identity == nil ? nil : (try? store.opCount()), listen: listen, discovery: discoveryOn)
    }

    func initialize(_ request: InitRequest) throws(Problem) -> Profile {
        guard (try? readKeyFile()) == nil else {
            throw Problem.conflict(
                "already-initialized", "an identity already exists in \(paths.dataDir); use `places login`")
        }
        let name = try FieldRule.text(maxLength: 100, required: true).check("name", .string(request.name)).stringValue!
        let username = try checkUsername(request.username)
        var bio: JSONValue?
        if let text = request.bio {
            bio = try FieldRule.text(maxLength: 1_000, required: false).check("bio", .string(text))
        }
        let sealed: Bool
        switch (request.passphrase, request.noPassphrase ?? false) {
        case (let p?, false) where !p.isEmpty: sealed = true
        case (nil, true): sealed = false
        case (_, true): throw Problem.invalid("noPassphrase", "give either a passphrase or noPassphrase, not both")
        default:
            throw Problem.invalid("passphrase", "a passphrase is required (or set noPassphrase for a headless device)")
        }
        let pair: SigningKeyPair
        let file: KeyFile
        do {
            pair = try SigningKeyPair()
            file = sealed ? try KeyFile.sealed(pair, passphrase: request.passphrase!) : KeyFile.unsealed(pair)
        } catch {
            throw Problem(status: 500, code: "crypto", title: "Key generation failed", detail: error.message)
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
            changes.append(.set(entity: profileID.hex, kind: .profile, field: "name", value: .string(name), old: nil))
            changes.append(
                .set(entity: profileID.hex, kind: .profile, field: "username", value: .string(username), old: nil))
            if let bio {
                changes.append(.set(entity: profileID.hex, kind: .profile, field: "bio", value: bio, old: nil))
            }
            try commit(profileID, changes)
            try writeKeyFile(file)
        } catch {
            identity = nil
            keyring = Keyring()
            try? store.purgeDocument(profileID)
            try? store.purgeDocument(libraryID)
            forgetDocumentState()
            if let p = error as? Problem { throw p }
            throw Problem(status: 500, code: "internal", title: "Initialisation failed", detail: "\(error)")
        }
        logger.info("identity created")
        return currentProfile()!
    }

    func login(passphrase: String?) async throws(Problem) -> Status {
        guard let file = try? readKeyFile() else {
            throw Problem(
                status: 409, code: "not-initialized", title: "No identity",
                detail: "no identity yet: run `places init` first")
        }
        if identity != nil { return await status() }
        do {
            try unlock(try file.open(passphrase: passphrase))
        } catch let e as CryptoError where e.code == .wrongPassphrase {
            throw Problem(status: 401, code: "wrong-passphrase", title: "Wrong passphrase", detail: e.message)
        } catch let p as Problem {
            throw p
        } catch {
            throw Problem(status: 500, code: "internal", title: "Login failed", detail: "\(error)")
        }
        events.publish(Event(type: "login", time: RFC3339.string(ms: RFC3339.nowMs()), summary: "logged in"))
        return await status()
    }

    func logout() async -> Status {
        responseCache.removeAll()
        forgetDocumentState()
        identity = nil
        keyring = Keyring()
        libraryDoc = nil
        profileDoc = nil
        events.publish(Event(type: "logout", time: RFC3339.string(ms: RFC3339.nowMs()), summary: "logged out"))
        // A logged-out daemon syncs nothing: drop every peer session.
        if let sync { await sync.disconnectAll(reason: "logged out") }
        return await status()
    }

    func profile() throws(Problem) -> Profile {
        try requireLogin()
        guard let p = currentProfile() else { throw Problem.notFound("no profile") }
        return p
    }

    private func unlock(_ pair: SigningKeyPair) throws {
        var ring = Keyring()
        for (doc, epoch, sealed) in try store.sealedKeys() {
            ring.insert(try SealedBox.open(sealed, with: pair), doc: doc, epoch: epoch)
        }
        let mine = try store.documents().filter { $0.owner == pair.publicKey.bytes }
        responseCache.removeAll()
        forgetDocumentState()
        identity = pair
        keyring = ring
        libraryDoc = mine.first { $0.kind == .library }?.id
        profileDoc = mine.first { $0.kind == .profile }?.id
    }

    func currentProfileName() -> String? { currentProfile()?.name }

    private func currentProfile() -> Profile? {
        guard let identity, let profileDoc, let record = try? store.entity(in: profileDoc, id: profileDoc.hex) else {
            return nil
        }
        let f = Views.fields(record)
        return Profile(
            id: identity.publicKey.humanID, name: f["name"]?.stringValue ?? "",
            username: f["username"]?.stringValue ?? "",
            bio: f["bio"]?.stringValue)
    }

    private func checkUsername(_ username: String) throws(Problem) -> String {
        let ok =
            (1...32).contains(username.count)
            && username.unicodeScalars.allSatisfy {
                CharacterSet.alphanumerics.contains($0) || "._-".unicodeScalars.contains($0)
            }
        guard ok else {
            throw Problem.invalid("username", "a username is 1–32 letters, digits, '.', '_' or '-'")
        }
        return username
    }

    private func readKeyFile() throws -> KeyFile? {
        guard FileManager.default.fileExists(atPath: paths.keyFile) else { return nil }
        return try JSONDecoder().decode(KeyFile.self, from: Data(contentsOf: URL(fileURLWithPath: paths.keyFile)))
    }

    private func writeKeyFile(_ file: KeyFile) throws(Problem) {
        do {
            let data = try ControlJSON.encoder.encode(file)
            let tmp = paths.keyFile + ".tmp"
            FileManager.default.createFile(atPath: tmp, contents: nil, attributes: [.posixPermissions: 0o600])
            try data.write(to: URL(fileURLWithPath: tmp))
            chmod(tmp, 0o600)
            guard rename(tmp, paths.keyFile) == 0 else { throw CocoaError(.fileWriteUnknown) }
        } catch {
            throw Problem(
                status: 500, code: "io", title: "Cannot write the key file",
                detail: "writing \(paths.keyFile) failed: \(error)")
        }
    }

    // MARK: Writing

    func requireLogin() throws(Problem) {
        guard identity != nil else {
            if (try? readKeyFile()) == nil {
                throw Problem(
                    status: 401, code: "not-initialized", title: "No identity",
                    detail: "no identity yet: run `places init` first")
            }
            throw Problem.loggedOut
        }
    }

    /// Appends one op of `changes` to `doc` and tells subscribers.
    @discardableResult
    func commit(_ doc: DocumentID, _ changes: [Change], summary: String? = nil) throws(Problem) -> [SignedOp] {
        guard let identity else { throw Problem.loggedOut }
        responseCache.removeAll()
        let started = ContinuousClock.now
        let ops: [SignedOp]
        do {
            ops = try store.append(
                [Store.Edit(doc: doc, changes: changes, timeMs: RFC3339.nowMs())], identity: identity, keyring: keyring)
        } catch {
            logger.error("append failed", metadata: ["doc.id": "\(doc)", "error": "\(error)"])
            throw Problem(status: 500, code: "store", title: "Could not save", detail: error.message)
        }
        noteStored(ops, membership: changes.contains { $0.kind == .member || $0.kind == .link } ? [doc] : [])
        let stored = ContinuousClock.now
        pushLocal(ops, doc: doc)
        logger.debug(
            "committed",
            metadata: [
                "doc.id": "\(doc)", "append.ms": "\(Engine.milliseconds(stored - started))",
                "push.ms": "\(Engine.milliseconds(ContinuousClock.now - stored))",
            ])
        let kind = (try? store.document(doc))?.kind.rawValue
        events.publish(
            Event(
                type: "changed", time: RFC3339.string(ms: RFC3339.nowMs()), doc: doc.hex, docKind: kind,
                author: identity.publicKey.humanID,
                summary: summary ?? "\(kind ?? "document") \(doc.hex.prefix(8)) changed"))
        return ops
    }

    func library() throws(Problem) -> DocumentID {
        try requireLogin()
        guard let libraryDoc else {
            throw Problem(status: 500, code: "internal", title: "No library", detail: "the library document is missing")
        }
        return libraryDoc
    }

    var me: PublicKey? { identity?.publicKey }

    /// The batch entry point for benchmarks: many edits, one transaction.
    func appendBatch(_ edits: [Store.Edit]) throws {
        guard let identity else { throw Problem.loggedOut }
        forgetDocumentState()
        try store.append(edits, identity: identity, keyring: keyring)
    }

    func keyringCopy() -> Keyring { keyring }
    func setKeyring(_ ring: Keyring) { keyring = ring }

    /// Result of `POST /v1/maintenance/rebuild`.
    struct RebuildResult: Encodable {
        var ops: Int
        var durationMs: Int
    }

    /// Drops the materialized tables and replays the op log (repair, and the proof that
    /// the tables are a function of the log).
    func rebuild() throws(Problem) -> RebuildResult {
        try requireLogin()
        let start = ContinuousClock.now
        responseCache.removeAll()
        forgetDocumentState()
        try storeCall { () throws(StoreError) in try store.rebuildMaterialized(keyring: keyring) }
        let elapsed = ContinuousClock.now - start
        logger.info("materialized tables rebuilt")
        return RebuildResult(
            ops: (try? store.opCount()) ?? 0,
            durationMs: Int(elapsed.components.seconds * 1000 + elapsed.components.attoseconds / 1_000_000_000_000_000))
    }

    // MARK: Store access for the feature extensions

    func storeCall<T>(_ body: () throws(StoreError) -> T) throws(Problem) -> T {
        do { return try body() } catch {
            throw Problem(status: 500, code: "store", title: "Storage error", detail: error.message)
        }
    }
}
