import Foundation
import PlacesAccess
import PlacesCrypto
import PlacesStore
import PlacesSync

/// The relay role (`Protocol/relay.md`): the relay's own key (never a person's, never
/// granted a document key), its single-use links and their redemption. What it keeps (users,
/// invitations, documents) is in the store; this component decides.
struct RelayComponent: EngineComponent {
    /// The relay's key: its Noise static key and the key that signs its links.
    let key: SigningKeyPair
    /// Bytes of ops and records the relay keeps per user (`relay.md` §4).
    var quotaBytes: Int64 = RelayComponent.defaultQuotaBytes
    /// Most links that may be waiting to be redeemed: `invite` refuses beyond it.
    static let maxOpenInvitations = 1_000
    /// The default quota per user: 1 GiB.
    static let defaultQuotaBytes: Int64 = 1 << 30
    /// The most bytes of ops and photo copies one document holds here, whoever brought it
    /// (`--relay-document-quota-bytes`).
    var documentQuotaBytes: Int64 = RelayComponent.defaultDocumentQuotaBytes
    static let defaultDocumentQuotaBytes: Int64 = 512 << 20
    /// Invitations made since start, by time (for the bound on open ones).
    private var issued: [(expiresMs: Int64, id: [UInt8])] = []

    init(key: SigningKeyPair) { self.key = key }

    /// The key file of a relay's data dir: read when present, made (unsealed: a relay starts
    /// unattended) otherwise.
    static func loadKey(at path: String) throws -> SigningKeyPair {
        if FileManager.default.fileExists(atPath: path) {
            let file = try JSONDecoder().decode(KeyFile.self, from: Data(contentsOf: URL(fileURLWithPath: path)))
            return try file.open(passphrase: nil)
        }
        let key = try SigningKeyPair()
        let data = try JSONEncoder().encode(KeyFile.unsealed(key))
        guard FileManager.default.createFile(atPath: path, contents: nil, attributes: [.posixPermissions: 0o600]) else {
            throw DaemonError(description: "cannot create the relay key file \(path)")
        }
        try data.write(to: URL(fileURLWithPath: path))
        return key
    }

    /// A new single-use link naming `addresses`, remembered in `store`.
    mutating func invite(addresses: [String], nowMs: Int64, store: Store) throws -> RelayLink {
        issued.removeAll { $0.expiresMs <= nowMs }
        guard issued.count < Self.maxOpenInvitations else {
            throw ServiceError.conflict(
                "too-many-invitations", "\(Self.maxOpenInvitations) relay links wait to be redeemed: use them first")
        }
        let link: RelayLink
        do {
            link = try RelayLink.issue(by: key, addresses: addresses, expiresMs: nowMs + RelayLink.lifetimeMs)
        } catch {
            throw ServiceError.internal("Could not make a relay link", error.message)
        }
        try ServiceError.storing { () throws(StoreError) in
            try store.dropExpiredRelayInvitations(beforeMs: nowMs - RelayLink.lifetimeMs)
            try store.addRelayInvitation(id: link.id, expiresMs: link.expiresMs)
        }
        issued.append((link.expiresMs, link.id))
        return link
    }

    /// A person's daemon redeems a link (`relay.md` §3.2): the token must be this relay's,
    /// unaltered, known, unused and unexpired.
    func redeem(_ token: [UInt8], by peer: PublicKey, nowMs: Int64, store: Store) -> RelayMessage {
        let link: RelayLink
        do { link = try RelayLink(token: token) } catch {
            return .refused(code: "forged", reason: "this is not a valid relay link: \(error.message)")
        }
        guard link.relay == key.publicKey else {
            return .refused(code: "unknown-link", reason: "this relay link was made by another relay")
        }
        switch try? store.redeemRelayInvitation(id: link.id, by: peer, nowMs: nowMs, quotaBytes: quotaBytes) {
        case .success(let role): return .redeemed(role: role, quotaBytes: UInt64(max(0, quotaBytes)))
        case .failure(.used):
            return .refused(code: "used", reason: "this relay link was used already: ask for a new one")
        case .failure(.expired):
            return .refused(code: "expired", reason: "this relay link has expired: ask for a new one")
        case .failure(.unknownLink): return .refused(code: "unknown-link", reason: "this relay never made that link")
        case nil: return .refused(code: "unknown-link", reason: "the relay could not read its invitations")
        }
    }
}
