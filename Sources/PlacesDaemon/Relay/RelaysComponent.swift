import PlacesAccess
import PlacesCrypto
import PlacesModel

/// The relays a person's daemon uses (`Protocol/relay.md` §5): links being redeemed and the
/// relays' sessions. What was redeemed is in the store (`relay` table).
struct RelaysComponent: EngineComponent {
    /// A relay link waiting for the relay's answer.
    struct Redemption {
        var token: [UInt8]
        var sent = false
        var answer: Answer?
    }

    enum Answer: Equatable {
        case redeemed(role: String, quotaBytes: Int64)
        case refused(code: String, reason: String)
    }

    /// At most a few links at once: each is a user's request waiting on its answer.
    static let maxRedemptions = 8
    /// Links being redeemed, by relay key.
    var redeeming: [PublicKey: Redemption] = [:]
    /// Relays this daemon uses (read from the store at start and on changes).
    var known: Set<PublicKey> = []
    /// Relays with a live session.
    var connected: Set<PublicKey> = []
    /// Every key a relay link added here named, removed relays included: never a grant's member.
    var named: Set<PublicKey> = []
    /// Relays that refused ops over quota (`relay-full`) since they last reported their usage.
    var full: Set<PublicKey> = []
    /// The newest access list held per document, decoded (what every offer carries): at most
    /// `maxCachedLists`, emptied when full.
    var access: [DocumentID: RelayAccess] = [:]
    static let maxCachedLists = 4_096
    /// The participants and epoch each document's list was last checked against: while they
    /// stay the same, an offer carries the list held without reading devices again.
    var checked: [DocumentID: (persons: Set<PublicKey>, epoch: UInt32, own: Set<PublicKey>)] = [:]
    /// This person's devices (`Engine.ownDevices`), with the library version they were read at.
    var ownDevices: (version: UInt64, keys: Set<PublicKey>)?

    /// A relay named in documents this daemon holds and does not own (relay.md §5.1): where
    /// to dial it and the documents naming it.
    struct Learned: Equatable {
        var address: String
        var docs: Set<DocumentID>
    }

    /// Relays learned from documents, by key: at most the limit `learn` is given.
    var learned: [PublicKey: Learned] = [:]
    /// The relays each document names (documents naming none are not kept).
    var learnedByDoc: [DocumentID: Set<PublicKey>] = [:]
    /// Learned relays dialled now (a member of one of their documents is not reachable
    /// directly), with the address dialled.
    var dialled: [PublicKey: String] = [:]
    /// Documents of this person whose `relay` entities are to be written again.
    var namingPending: Set<DocumentID> = []

    func isRelay(_ peer: PublicKey) -> Bool {
        known.contains(peer) || redeeming[peer] != nil || learned[peer] != nil
    }

    /// Records that `doc` names `found` (relay key → address); a relay beyond `limit` is not
    /// learned.
    mutating func learn(_ found: [PublicKey: String], in doc: DocumentID, limit: Int) {
        for key in learnedByDoc[doc] ?? [] where found[key] == nil {
            learned[key]?.docs.remove(doc)
            if learned[key]?.docs.isEmpty == true { learned[key] = nil }
        }
        var kept = Set<PublicKey>()
        for (key, address) in found {
            if learned[key] == nil {
                guard learned.count < limit else { continue }
                learned[key] = Learned(address: address, docs: [])
            }
            // The newest document read says where the relay is.
            learned[key]?.address = address
            learned[key]?.docs.insert(doc)
            kept.insert(key)
        }
        learnedByDoc[doc] = kept.isEmpty ? nil : kept
    }

    mutating func forgetLearned() {
        learned.removeAll()
        learnedByDoc.removeAll()
    }
}
