import PlacesCrypto
import PlacesModel
import PlacesStore

/// Bounds on published trips (`Protocol/sync.md` §7.5, "Bounds").
enum PublishedBounds {
    /// Trips kept per author nobody here knows (not a friend, contact or co-member).
    static let perUnknownAuthor = 20
    /// Trips kept from unknown authors per address they came from.
    static let perUnknownAddress = 50
    /// Trips kept from unknown authors in all.
    static let unknownTotal = 1_000
    /// Trips kept per known author.
    static let perKnownAuthor = 1_000
    /// An unknown author's trip not offered again for this long is dropped (unless saved).
    static let unknownExpiryMs: Int64 = 30 * 24 * 3_600_000
    /// Most bytes of ops stored for one trip of an unknown author, and of a known one.
    static let unknownOpBytes: Int64 = 4 << 20
    static let knownOpBytes: Int64 = 16 << 20
    /// Most likers a trip's author copies in.
    static let likesPerTrip = 10_000
    /// Likes taken from one peer per minute.
    static let likesPerMinute = 30
    /// Published trips refused from one peer while it is connected, after which its further
    /// offers of trips not held are ignored unread (a flood costs one counter per offer).
    static let refusalsPerSession = 64
}

/// Publishing's state (issue 17): this person's publications, and what it keeps per
/// connected peer for others' published trips (the address each came from, the trips refused
/// from each). A component of the engine (docs/devices-design.md §1): `Engine+Publishing`
/// holds the rules, this the state, freed when a peer's last session closes.
struct PublishingComponent: EngineComponent {
    /// This person's publications by published document; nil until read after a change.
    private var publications: [DocumentID: Store.PublicationRecord]?
    /// Where each connected peer listens (`host:port`), for the bound per address on
    /// strangers' published trips.
    private var addresses: [PublicKey: String] = [:]
    /// Published trips refused from each connected peer.
    private var refusals: [PublicKey: Int] = [:]

    /// This person's publications, by published document (read once per change).
    mutating func publications(_ store: Store) -> [DocumentID: Store.PublicationRecord] {
        if let publications { return publications }
        let all = (try? store.publications()) ?? []
        let map = Dictionary(all.map { ($0.published, $0) }, uniquingKeysWith: { a, _ in a })
        publications = map
        return map
    }

    /// A publication was written (in place of `old`, the itinerary's previous one): the kept
    /// map is updated, not read again (a read of every publication per trip published made
    /// publishing thousands of trips quadratic).
    mutating func publicationSaved(_ record: Store.PublicationRecord, replacing old: Store.PublicationRecord?) {
        guard publications != nil else { return }
        if let old, old.published != record.published { publications?[old.published] = nil }
        publications?[record.published] = record
    }

    mutating func peerConnected(_ peer: PublicKey, address: String) { addresses[peer] = address }

    /// The peer's last session closed: what was kept for it goes.
    mutating func peerDisconnected(_ peer: PublicKey) {
        addresses[peer] = nil
        refusals[peer] = nil
    }

    /// Where a connected peer came from (`host:port`), nil when not connected.
    func address(of peer: PublicKey) -> String? { addresses[peer] }

    /// How many published trips were refused from `peer` in its sessions.
    func refusals(of peer: PublicKey) -> Int { refusals[peer] ?? 0 }

    /// Counts one more refusal of `peer`'s published trips.
    mutating func refuse(_ peer: PublicKey) { refusals[peer, default: 0] += 1 }
}
