import PlacesCrypto
import PlacesModel
import PlacesStore

/// Social's state (issue 16): friendships, the readers of this person's outboxes, and the
/// reactions whose signatures were checked.
///
/// A component of the engine (docs/devices-design.md §1): it owns what friends, posts and
/// reactions keep between requests; `Engine+Friends`, `Engine+Outboxes`, `Engine+Posts` and
/// `Engine+Reactions` hold the rules. Friend states are read from the store on first use and
/// again after a friendship changes or documents change outside ops (`didStore`), or the
/// identity changes (`didChangeIdentity`).
struct SocialComponent: EngineComponent {
    /// What friendships are read with.
    struct Context {
        let store: Store
        /// The logged-in identity; nil while logged out.
        let me: PublicKey?
    }

    /// Friendships by person (participants of outboxes are asked for on every offer); nil
    /// until read after a change.
    private var friends: [PublicKey: Store.FriendState]?
    /// The reader of each of this person's outboxes, rebuilt with `friends`.
    private var outboxReaders: [DocumentID: PublicKey] = [:]
    /// Reactions whose signature was checked, by `doc/entity/data`: a feed page verifies
    /// each reaction once.
    private var verifiedReactions: Set<String> = []

    /// Every friendship and request by person (read once per change).
    mutating func friendStates(_ context: Context) -> [PublicKey: Store.FriendState] {
        if let friends { return friends }
        var states = [PublicKey: Store.FriendState]()
        var readers = [DocumentID: PublicKey]()
        for record in (try? context.store.friends()) ?? [] {
            guard let key = try? PublicKey(bytes: record.key) else { continue }
            states[key] = record.state
            if let me = context.me { readers[Outboxes.documentID(author: me.bytes, reader: key.bytes)] = key }
        }
        friends = states
        outboxReaders = readers
        return states
    }

    /// The reader of one of this person's outboxes (nil for another's outbox or the journal).
    mutating func outboxReader(_ doc: DocumentID, _ context: Context) -> PublicKey? {
        _ = friendStates(context)
        return outboxReaders[doc]
    }

    /// Whether the reaction kept under `key` had its signature checked already.
    func isVerifiedReaction(_ key: String) -> Bool { verifiedReactions.contains(key) }

    /// The reaction kept under `key` has a valid signature.
    mutating func noteVerifiedReaction(_ key: String) {
        if verifiedReactions.count > 100_000 { verifiedReactions.removeAll() }
        verifiedReactions.insert(key)
    }

    /// A friendship was recorded, or documents changed outside ops: friendships are read again.
    mutating func didStore(_ change: StoreChange) {
        switch change {
        case .friendship, .documents: friends = nil
        case .ops, .grant: break
        }
    }

    /// Friendships are the identity's: read again for the new one.
    mutating func didChangeIdentity() { friends = nil }
}
