import Foundation
import PlacesAPI
import PlacesCrypto
import PlacesModel
import PlacesStore

/// The account: the key file on disk, the identity it unlocks, the document keys that
/// identity opens (the keyring) and the two documents of its own (library and profile).
/// A value held by the engine: its changes are synchronous, so a login or logout is never
/// seen half done.
struct AccountService {
    let paths: DataPaths
    /// The unlocked identity; nil while logged out.
    private(set) var identity: SigningKeyPair?
    /// The document keys of every epoch this identity holds.
    var keyring = Keyring()
    private(set) var libraryDoc: DocumentID?
    private(set) var profileDoc: DocumentID?

    init(paths: DataPaths) { self.paths = paths }

    /// This identity's public key, while logged in.
    var me: PublicKey? { identity?.publicKey }

    /// Opens every sealed document key with `pair` and finds this identity's own documents.
    /// Changes nothing when any of it fails.
    mutating func unlock(_ pair: SigningKeyPair, store: Store) throws {
        var ring = Keyring()
        for (doc, epoch, sealed) in try store.sealedKeys() {
            ring.insert(try SealedBox.open(sealed, with: pair), doc: doc, epoch: epoch)
        }
        let mine = try store.documents().filter { $0.owner == pair.publicKey.bytes }
        identity = pair
        keyring = ring
        libraryDoc = mine.first { $0.kind == .library }?.id
        profileDoc = mine.first { $0.kind == .profile }?.id
    }

    /// Forgets the identity and every key (logout, or a failed `init`).
    mutating func lock() {
        identity = nil
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
        guard let libraryDoc else { throw ServiceError.internal("No library", "the library document is missing") }
        return libraryDoc
    }

    /// The profile as stored in the profile document.
    func profile(in store: Store) -> Profile? {
        guard let identity, let profileDoc, let record = try? store.entity(in: profileDoc, id: profileDoc.hex) else {
            return nil
        }
        let f = Views.fields(record)
        return Profile(
            id: identity.publicKey.humanID, name: f["name"]?.stringValue ?? "",
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
