import PlacesModel

/// What a store write changed, as the engine's components learn of it (`Engine.didStore`,
/// docs/devices-design.md §1, "One notification"): each component keeps what it holds
/// current in its own `didStore`. Caches checked against the store's commit generation
/// (`SnapshotCache`, `Store.generations`) need no notification.
enum StoreChange {
    /// Ops were stored (a local commit, a peer's ops); `membership` names the documents among
    /// them whose ops wrote `member` or `link` entities (roles, joins, leaves, link
    /// revocations).
    case ops([SignedOp], membership: Set<DocumentID>)
    /// A grant was kept for `doc`: it may name a member before its role event arrives.
    case grant(DocumentID)
    /// A friendship's state was recorded.
    case friendship
    /// Documents were created, joined, purged or replayed outside ops (a share taken, a
    /// batch, a rebuild, a failed ingest): what was kept of any document may be stale.
    case documents
}
