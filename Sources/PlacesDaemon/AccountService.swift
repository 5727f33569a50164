import Foundation
import PlacesAPI
import PlacesAccess
import PlacesCrypto
import PlacesModel
import PlacesStore

/// The account: the key file on disk, the identity it unlocks, the document keys that
/// identity opens (the keyring) and the two documents of its own (library and profile).
/// A value held by the engine: its changes are synchronous, so a login or logout is never
/// seen half done.
struct AccountService {
    let paths: DataPaths
    /// The unlocked identity: this device's key, which signs its ops and sessions (the person
    /// key itself on a person's root device); nil while logged out.
    private(set) var identity: SigningKeyPair?
    /// This device's certificate when it is not its person's root device (`Protocol/devices.md`).
    private(set) var certificate: DeviceCertificate?
    /// The person's key when this device may manage devices: the root device's own key, or an
    /// admin device's `person.key`; nil on other devices.
    private(set) var personKey: SigningKeyPair?
    /// This device's name (`device.json`), nil on a root device.
    private(set) var deviceName: String?
    /// The document keys of every epoch this identity holds.
    var keyring = Keyring()
    private(set) var libraryDoc: DocumentID?
    private(set) var profileDoc: DocumentID?

    init(paths: DataPaths) { self.paths = paths }

    /// The person this daemon is, while logged in: what friends know, the owner of its
    /// documents (its certificate's person on a paired device).
    var me: PublicKey? { identity.map { certificate?.person ?? $0.publicKey } }

    /// Whether this device may pair and revoke devices.
    var isAdmin: Bool { personKey != nil }

    /// Opens every sealed document key with `pair` (this device's key) and finds this
    /// person's own documents. `certificate` is this device's when it is not the root device,
    /// `personKey` the person's key on an admin device. Changes nothing when any of it fails.
    mutating func unlock(
        _ pair: SigningKeyPair, store: Store, certificate: DeviceCertificate? = nil, personKey: SigningKeyPair? = nil,
        deviceName: String? = nil
    ) throws {
        var ring = Keyring()
        for (doc, epoch, sealed) in try store.sealedKeys() {
            ring.insert(try SealedBox.open(sealed, with: pair), doc: doc, epoch: epoch)
        }
        let person = certificate?.person ?? pair.publicKey
        let mine = try store.documents().filter { $0.owner == person.bytes }
        identity = pair
        self.certificate = certificate
        self.personKey = certificate == nil ? pair : personKey
        self.deviceName = deviceName
        keyring = ring
        libraryDoc = mine.first { $0.kind == .library }?.id
        profileDoc = mine.first { $0.kind == .profile }?.id
    }

    /// A document of this person's arrived from another of its devices: its library or
    /// profile, when this device had none (a device just paired).
    mutating func adopted(_ record: Store.DocumentRecord) {
        guard record.owner == me?.bytes else { return }
        if record.kind == .library, libraryDoc == nil { libraryDoc = record.id }
        if record.kind == .profile, profileDoc == nil { profileDoc = record.id }
    }

    /// Forgets the identity and every key (logout, or a failed `init`).
    mutating func lock() {
        identity = nil
        certificate = nil
        personKey = nil
        deviceName = nil
        keyring = Keyring()
        libraryDoc = nil
        profileDoc = nil
    }

    /// Refuses requests while no identity is unlocked, saying whether one exists at all.
    func requireLogin() throws {
        guard identity != nil else {
            if (try? readKeyFile()) == nil {
                throw ServiceError(.notInitialized, "no identity yet: run `places init` first")
            }
            throw ServiceError.loggedOut
        }
    }

    /// The library document (places and favorites).
    func library() throws -> DocumentID {
        try requireLogin()
        guard let libraryDoc else {
            throw ServiceError(
                .stillSyncing,
                "this device is still receiving your library from your other device: try again in a few seconds")
        }
        return libraryDoc
    }

    /// The profile as stored in the profile document.
    func profile(in store: Store) -> Profile? {
        guard let identity, let profileDoc, let record = try? store.entity(in: profileDoc, id: profileDoc.hex) else {
            return nil
        }
        let f = Views.fields(record)
        return Profile(
            id: (certificate?.person ?? identity.publicKey).humanID, name: f["name"]?.stringValue ?? "",
            username: f["username"]?.stringValue ?? "",
            bio: f["bio"]?.stringValue, picture: f["picture"]?.stringValue)
    }

    /// A username is 1–32 letters, digits, `.`, `_` or `-`.
    static func checkUsername(_ username: String) throws -> String {
        let ok =
            (1...32).contains(username.count)
            && username.unicodeScalars.allSatisfy {
                CharacterSet.alphanumerics.contains($0) || "._-".unicodeScalars.contains($0)
            }
        guard ok else {
            throw ServiceError.invalid("username", "a username is 1–32 letters, digits, '.', '_' or '-'")
        }
        return username
    }

    /// The key file, nil when there is none yet.
    func readKeyFile() throws -> KeyFile? {
        guard FileManager.default.fileExists(atPath: paths.keyFile) else { return nil }
        return try JSONDecoder().decode(KeyFile.self, from: Data(contentsOf: URL(fileURLWithPath: paths.keyFile)))
    }

    /// Writes the key file atomically (a temporary file renamed over it), readable by the
    /// user alone.
    func writeKeyFile(_ file: KeyFile) throws {
        do {
            let data = try ControlJSON.encoder.encode(file)
            let tmp = paths.keyFile + ".tmp"
            // Created empty and private first, so the key is never in a file others can read.
            guard FileManager.default.createFile(atPath: tmp, contents: nil, attributes: [.posixPermissions: 0o600])
            else { throw CocoaError(.fileWriteNoPermission) }
            try data.write(to: URL(fileURLWithPath: tmp))
            chmod(tmp, 0o600)
            guard rename(tmp, paths.keyFile) == 0 else { throw CocoaError(.fileWriteUnknown) }
        } catch {
            throw ServiceError(
                .failure("io", title: "Cannot write the key file"), "writing \(paths.keyFile) failed: \(error)",
                cause: error)
        }
    }
}
