import PlacesCrypto
import PlacesModel
import PlacesStore

/// Sync's state: what replication asks of documents on every offer and push, kept between
/// store writes, and the names connected peers gave.
///
/// A component of the engine (docs/devices-design.md §1): it owns the version vectors and
/// participants of documents (the store computes them with a scan of a document's ops),
/// kept current by `didStore`, and the names peers gave in their Hello; `Engine+Sync` (the
/// `ReplicationHost`) and `Engine+Ingest` hold the rules.
struct SyncComponent: EngineComponent {
    /// Version vectors of documents.
    private var vectors: [DocumentID: VersionVector] = [:]
    /// Owner and members of itineraries.
    private var participants: [DocumentID: Set<PublicKey>] = [:]
    /// Names connected peers gave in their Hello.
    private var names: [PublicKey: String] = [:]
    /// The itineraries' records and root names, each with the commit generation it was read
    /// at (current while the generation has not moved): a session's opening and a peer list
    /// with 10,000 shared trips listed them several times each, at 5–14 ms a time.
    private var itineraries: (generation: UInt64, records: [Store.DocumentRecord])?
    private var itineraryNames: (generation: UInt64, names: [DocumentID: String])?

    /// The version vector of `doc`, read from `store` when not kept.
    mutating func vector(of doc: DocumentID, _ store: Store) -> VersionVector? {
        if let cached = vectors[doc] { return cached }
        guard let vector = try? store.versionVector(of: doc) else { return nil }
        vectors[doc] = vector
        return vector
    }

    /// The owner and current members of an itinerary, read from `store` when not kept: its
    /// member entities, and the members its owner's grants name whose role events have not
    /// arrived yet (a daemon that accepted an invitation through a member other than the
    /// owner holds grants, not ops, and must take the ops from that member: sync.md §7).
    mutating func members(of doc: Store.DocumentRecord, _ store: Store) -> Set<PublicKey> {
        if let cached = participants[doc.id] { return cached }
        var out = Set<PublicKey>()
        if let owner = try? PublicKey(bytes: doc.owner) { out.insert(owner) }
        guard let members = try? store.members(of: doc.id) else { return out }
        for member in members {
            if let key = Engine.publicKey(hex: member.key) { out.insert(key) }
        }
        for member in (try? store.grantVouchedMembers(of: doc.id)) ?? [] {
            if let key = try? PublicKey(bytes: member) { out.insert(key) }
        }
        participants[doc.id] = out
        return out
    }

    /// Keeps what `Store.syncStates()` read for every document (after an unlock, before any
    /// write could make it stale).
    mutating func prime(vectors: [DocumentID: VersionVector], participants: [DocumentID: Store.Participants]) {
        self.vectors.merge(vectors) { kept, _ in kept }
        for (doc, read) in participants where self.participants[doc] == nil {
            var out = Set<PublicKey>()
            if let owner = try? PublicKey(bytes: read.owner) { out.insert(owner) }
            for member in read.members {
                if let key = Engine.publicKey(hex: member) { out.insert(key) }
            }
            for member in read.vouched {
                if let key = try? PublicKey(bytes: member) { out.insert(key) }
            }
            self.participants[doc] = out
        }
    }

    /// Every itinerary's record, read again only after a commit.
    mutating func itineraryRecords(_ store: Store) -> [Store.DocumentRecord] {
        let generation = store.generations.current
        if let kept = itineraries, kept.generation == generation { return kept.records }
        guard let records = try? store.documents(kind: .itinerary) else { return [] }
        itineraries = (generation, records)
        return records
    }

    /// The root names of `docs` (`Store.rootNames`); every itinerary's are read at once and
    /// kept until the next commit.
    mutating func rootNames(of docs: [DocumentID], _ store: Store) -> [DocumentID: String] {
        let generation = store.generations.current
        var all: [DocumentID: String]
        if let kept = itineraryNames, kept.generation == generation {
            all = kept.names
        } else {
            all = (try? store.rootNames(of: itineraryRecords(store).map(\.id))) ?? [:]
            itineraryNames = (generation, all)
        }
        // Documents of other kinds (cards, outboxes) are few: read on the spot.
        let others = docs.filter { all[$0] == nil }
        if !others.isEmpty { all.merge((try? store.rootNames(of: others)) ?? [:]) { kept, _ in kept } }
        return all
    }

    // MARK: Connected peers

    /// The names connected peers gave, by peer.
    var peerNames: [PublicKey: String] { names }

    mutating func peerConnected(_ peer: PublicKey, name: String) { names[peer] = name }

    /// The peer's last session closed: its name goes.
    mutating func peerDisconnected(_ peer: PublicKey) { names[peer] = nil }

    // MARK: Notifications

    /// Keeps vectors and participants current: ops extend their documents' vectors; what may
    /// change membership (member or link ops, a grant, a friendship) drops participants; a
    /// write outside ops drops both.
    mutating func didStore(_ change: StoreChange) {
        switch change {
        case .ops(let ops, let membership):
            for op in ops {
                vectors[op.header.doc]?.include(op.header.authorKey, op.header.seq)
            }
            for doc in membership { participants[doc] = nil }
        case .grant(let doc):
            participants[doc] = nil
        case .friendship:
            participants.removeAll()
        case .documents:
            forgetDocuments()
        }
    }

    /// Participants are seen from the identity: both go.
    mutating func didChangeIdentity() { forgetDocuments() }

    private mutating func forgetDocuments() {
        vectors.removeAll()
        participants.removeAll()
        itineraries = nil
        itineraryNames = nil
    }
}
