import PlacesModel
import PlacesStore

/// Nearby's state (issue 32): the index of saved places (`NearbyIndex`) and what was stored
/// since it was read. An op of the library is kept and applied at the next read (the
/// places it touched are read again, nothing else); an op of a card held marks that card
/// to be read again; membership, friendships and documents coming and going make the
/// index read anew (`docs/nearby.md`, `make bench` "nearby").
struct NearbyComponent: EngineComponent {
    /// Library ops kept for the next read; past this many the index is read anew.
    static let maxPendingOps = 1_000

    private(set) var index: NearbyIndex?
    /// The library the index read.
    private(set) var library: DocumentID?
    /// Library ops stored since the index was read; nil when there were too many to keep.
    private(set) var pendingLibrary: [SignedOp]? = []
    /// Cards held in the index with ops stored since it was read.
    private(set) var dirtyCards: Set<DocumentID> = []
    /// Every place by latitude, for the callers that read them all; made at the first
    /// such read after a change.
    var allPlaces: [Engine.SavedPlace]?

    /// Whether the index holds everything stored.
    var isCurrent: Bool { index != nil && pendingLibrary?.isEmpty == true && dirtyCards.isEmpty }

    /// Keeps `index`, read from `library` with nothing pending.
    mutating func keep(_ index: NearbyIndex, library: DocumentID) {
        self.index = index
        self.library = library
        pendingLibrary = []
        dirtyCards = []
        allPlaces = nil
    }

    /// The index with what is pending to apply, leaving nothing held (so that the caller
    /// updates the only copy); nil when it must be read anew.
    mutating func takeForUpdate() -> (index: NearbyIndex, libraryOps: [SignedOp], cards: Set<DocumentID>)? {
        defer { drop() }
        guard let index, let pendingLibrary else { return nil }
        return (index, pendingLibrary, dirtyCards)
    }

    mutating func didStore(_ change: StoreChange) {
        switch change {
        case .ops(let ops, let membership):
            guard let held = index else { return }
            guard membership.isEmpty else { return drop() }
            for op in ops {
                if op.header.doc == library {
                    pendingLibrary?.append(op)
                    if (pendingLibrary?.count ?? 0) > Self.maxPendingOps { pendingLibrary = nil }
                    allPlaces = nil
                } else if held.cardOwner(op.header.doc) != nil {
                    dirtyCards.insert(op.header.doc)
                    allPlaces = nil
                }
            }
        case .grant: break
        case .friendship, .documents: drop()
        }
    }

    mutating func didChangeIdentity() { drop() }

    private mutating func drop() {
        index = nil
        library = nil
        pendingLibrary = []
        dirtyCards = []
        allPlaces = nil
    }
}
