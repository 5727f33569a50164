import PlacesAPI
import PlacesCrypto
import PlacesModel
import PlacesRoutes
import PlacesStore

/// Keeping nearby's index (`NearbyIndex`) current: read whole once, then updated from what
/// was stored since — the library places an op touched are read again one by one, a card
/// with new ops is read again alone.
extension Engine {
    /// The saved places, indexed: brought up to date with what was stored since the last read.
    func nearbyIndex() throws -> NearbyIndex {
        if nearbyComponent.isCurrent, let held = nearbyComponent.index { return held }
        let me = self.me.map { (id: $0.humanID, name: myDisplayName()) }
        let library = try library()
        // Taken out of the component while it is updated, so that the update writes the only
        // copy instead of copying 60,000 places.
        if var pending = nearbyComponent.takeForUpdate(), pending.index.me?.id == me?.id,
            pending.index.me?.name == me?.name,
            (try? update(&pending.index, library: library, ops: pending.libraryOps, cards: pending.cards)) == true
        {
            nearbyComponent.keep(pending.index, library: library)
            return pending.index
        }
        let own = try libraryService().placeRecords().compactMap { Self.nearbyOwnPlace($0, me: me) }
        let index = NearbyIndex(me: me, own: own, cards: knownCards())
        nearbyComponent.keep(index, library: library)
        return index
    }

    /// Every saved place by latitude, kept until the index changes.
    func savedPlaces() throws -> [SavedPlace] {
        let index = try nearbyIndex()
        if let all = nearbyComponent.allPlaces { return all }
        let all = index.places
        nearbyComponent.allPlaces = all
        return all
    }

    /// Reads again the library places `ops` touched and the cards `cards` into `index`; false
    /// when an op cannot be opened (the index is then read anew).
    private func update(_ index: inout NearbyIndex, library: DocumentID, ops: [SignedOp], cards: Set<DocumentID>)
        throws -> Bool
    {
        var touched = [EntityID](), seen = Set<EntityID>()
        for op in ops {
            guard let body = try? Store.openBody(op, keyring: account.keyring) else { return false }
            for change in body.changes where change.kind == .place && seen.insert(change.entity).inserted {
                touched.append(change.entity)
            }
        }
        for id in touched {
            let record = try storeCall { () throws(StoreError) in try store.entity(in: library, id: id) }
            index.setOwn(id, record.flatMap { Self.nearbyOwnPlace($0, me: index.me) })
        }
        guard !cards.isEmpty else { return true }
        let known = knownPeople()
        let held = heldCards()
        for doc in cards {
            guard let person = index.cardOwner(doc) else { continue }
            let card = held.first { $0.key.humanID == person && known.contains($0.key) }
            index.setCard(person, card.map { nearbyCard($0.key, $0.value) })
        }
        return true
    }

    /// One of the user's places as the index holds it; nil when deleted or without a position.
    static func nearbyOwnPlace(_ record: Store.EntityRecord, me: (id: String, name: String)?) -> NearbyIndex.Own? {
        guard record.kind == .place, !record.deleted else { return nil }
        let f = Views.fields(record)
        typealias P = PlaceFields
        guard let lat = f[P.latitude], let lon = f[P.longitude] else { return nil }
        return NearbyIndex.Own(
            SavedPlace(
                id: record.id, name: f[P.name] ?? "", point: GeoPoint(latitude: lat, longitude: lon),
                categories: f[P.categories] ?? [], hours: f[P.openingHours], notes: f[P.notes], rating: f[P.rating],
                address: f[P.address], savedBy: me.map { [$0] } ?? []),
            position: record.position)
    }

    /// The cards of the people the user knows (Sybil-aware: a stranger's card never counts).
    private func knownCards() -> [NearbyIndex.Card] {
        let known = knownPeople()
        return heldCards().filter { known.contains($0.key) }.map { nearbyCard($0.key, $0.value) }
    }

    /// A card's places, with the name its owner gave their profile, else the one this
    /// daemon knows them by.
    private func nearbyCard(_ key: PublicKey, _ card: Store.DocumentRecord) -> NearbyIndex.Card {
        let view = cardView(card)
        let person = (id: key.humanID, name: view.name.flatMap { $0.isEmpty ? nil : $0 } ?? displayName(of: key))
        return NearbyIndex.Card(doc: card.id, person: person, places: view.favorites)
    }
}

/// A place within the radius of a nearby query, before it is encoded.
struct NearbyRow {
    var distance: Double
    var slot: Int
    var open: Bool?

    /// Nearer first; at the same distance, in the index's order.
    static func precedes(_ a: NearbyRow, _ b: NearbyRow) -> Bool {
        a.distance != b.distance ? a.distance < b.distance : a.slot < b.slot
    }

    /// The `limit` nearest of `rows`, nearest first: a heap of the `limit` best seen, so that
    /// 14,000 rows are not all sorted to show 100.
    static func nearest(_ limit: Int, of rows: [NearbyRow]) -> [NearbyRow] {
        guard rows.count > limit else { return rows.sorted(by: precedes) }
        guard limit > 0 else { return [] }
        // A max-heap of the best `limit`: its root is the worst kept.
        var heap = [NearbyRow]()
        heap.reserveCapacity(limit)
        for row in rows {
            if heap.count < limit {
                heap.append(row)
                var child = heap.count - 1
                while child > 0 {
                    let parent = (child - 1) / 2
                    guard precedes(heap[parent], heap[child]) else { break }
                    heap.swapAt(parent, child)
                    child = parent
                }
            } else if precedes(row, heap[0]) {
                heap[0] = row
                var parent = 0
                while true {
                    let left = 2 * parent + 1, right = left + 1
                    var largest = parent
                    if left < heap.count, precedes(heap[largest], heap[left]) { largest = left }
                    if right < heap.count, precedes(heap[largest], heap[right]) { largest = right }
                    guard largest != parent else { break }
                    heap.swapAt(parent, largest)
                    parent = largest
                }
            }
        }
        return heap.sorted(by: precedes)
    }
}
