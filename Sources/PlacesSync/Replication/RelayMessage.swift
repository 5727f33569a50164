import Foundation
import PlacesAccess
import PlacesCrypto
import PlacesModel

/// A relay message between a person's daemon and a blind relay (`Protocol/relay.md` §3;
/// `RelayRedeem`, `RelayRedeemed`, `RelayRefused` in sync.proto), in domain types: what
/// crosses `ReplicationHost`.
public enum RelayMessage: Sendable, Equatable {
    /// A relay link's token, redeemed on a session with the link's relay key.
    case redeem(link: [UInt8])
    /// The relay took the link: the redeemer's role there and its quota.
    case redeemed(role: String, quotaBytes: UInt64)
    /// The relay refused the link (`code`: `unknown-link`, `used`, `expired`, `forged`,
    /// `not-a-relay`).
    case refused(code: String, reason: String)
    /// The relay refused ops of `doc`: the user's quota is used up (`relay-full`, relay.md §5).
    case full(doc: DocumentID, reason: String)
    /// What the relay keeps charged to the user, and its quota (relay.md §5).
    case usage(documents: UInt64, bytes: UInt64, quotaBytes: UInt64)
    /// Photos a member gives under `doc`, by their relay names (relay.md §8): the relay wants
    /// them from the sender.
    case blobs(doc: DocumentID, names: [[UInt8]])

    /// Most bytes of a link token (`RelayLink`), a role, a code and a reason (relay.md §6).
    static let maxLinkBytes = RelayLink.maxSize
    static let maxRoleBytes = 16
    static let maxCodeBytes = 32
    static let maxReasonBytes = 500
    /// The largest quota a relay may announce (2^53 − 1: exact in JSON).
    static let maxQuotaBytes: UInt64 = 1 << 53 - 1
    /// Most relay names in one `RelayBlobs` (relay.md §8).
    public static let maxBlobNames = 1_024

    /// The message a peer sent, nil when it breaks the bounds of relay.md §6.
    init?(_ message: SyncMessage) {
        switch message.kind {
        case .relayRedeem(let redeem):
            guard !redeem.link.isEmpty, redeem.link.count <= Self.maxLinkBytes else { return nil }
            self = .redeem(link: [UInt8](redeem.link))
        case .relayRedeemed(let redeemed):
            guard ["owner", "user"].contains(redeemed.role), redeemed.quotaBytes <= Self.maxQuotaBytes else {
                return nil
            }
            self = .redeemed(role: redeemed.role, quotaBytes: redeemed.quotaBytes)
        case .relayRefused(let refused):
            guard refused.code.utf8.count <= Self.maxCodeBytes, refused.reason.utf8.count <= Self.maxReasonBytes else {
                return nil
            }
            if refused.code == "relay-full" {
                guard let doc = DocumentID(bytes: [UInt8](refused.doc)) else { return nil }
                self = .full(doc: doc, reason: refused.reason)
            } else {
                guard refused.doc.isEmpty else { return nil }
                self = .refused(code: refused.code, reason: refused.reason)
            }
        case .relayUsage(let usage):
            guard usage.documents <= Self.maxQuotaBytes, usage.bytes <= Self.maxQuotaBytes,
                usage.quotaBytes <= Self.maxQuotaBytes
            else { return nil }
            self = .usage(documents: usage.documents, bytes: usage.bytes, quotaBytes: usage.quotaBytes)
        case .relayBlobs(let blobs):
            guard let doc = DocumentID(bytes: [UInt8](blobs.doc)), !blobs.names.isEmpty,
                blobs.names.count <= Self.maxBlobNames, blobs.names.allSatisfy({ $0.count == BlobTransfer.hashBytes })
            else { return nil }
            self = .blobs(doc: doc, names: blobs.names.map { [UInt8]($0) })
        default: return nil
        }
    }

    /// The wire message.
    var wire: SyncMessage {
        var out = SyncMessage()
        switch self {
        case .redeem(let link): out.relayRedeem.link = Data(link)
        case .redeemed(let role, let quotaBytes):
            out.relayRedeemed.role = role
            out.relayRedeemed.quotaBytes = quotaBytes
        case .refused(let code, let reason):
            out.relayRefused.code = code
            out.relayRefused.reason = reason
        case .full(let doc, let reason):
            out.relayRefused.code = "relay-full"
            out.relayRefused.reason = reason
            out.relayRefused.doc = Data(doc.bytes)
        case .usage(let documents, let bytes, let quotaBytes):
            out.relayUsage.documents = documents
            out.relayUsage.bytes = bytes
            out.relayUsage.quotaBytes = quotaBytes
        case .blobs(let doc, let names):
            out.relayBlobs.doc = Data(doc.bytes)
            out.relayBlobs.names = names.map { Data($0) }
        }
        return out
    }
}
