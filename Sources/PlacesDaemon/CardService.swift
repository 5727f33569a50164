import PlacesAPI
import PlacesCrypto
import PlacesModel
import PlacesStore

/// The contact card (`Protocol/sync.md` §7 "Document kinds"): what this person shows their
/// contacts and co-members — their profile and the favorites they chose to share — kept in
/// step with the library and the sharing setting. Computes the edit that brings the card
/// to what it should hold; the engine commits it (and replication sends it).
struct CardService {
    let store: Store
    let library: DocumentID
    let card: DocumentID

    /// The most favorites a card carries (`Protocol/sync.md` §7, "Bounds"): the first ones in
    /// the owner's order.
    static let maxSharedPlaces = 10_000

    /// A person's card's document id: the first 16 bytes of BLAKE2b-256(`"places/card/1"` ‖
    /// 0x00 ‖ owner's Ed25519 key) (`Protocol/sync.md` §7.2). Fixed by the owner, so that no
    /// one — not even the owner — can make a receiver hold a second or a decoy card, and
    /// an itinerary can never be offered under a card's id.
    static func documentID(owner: [UInt8]) -> DocumentID {
        let digest = Blake2b.hash256(Array("places/card/1".utf8) + [0] + owner)
        // 16 of 32 bytes: always a valid document id.
        return DocumentID(bytes: Array(digest.prefix(16))) ?? DocumentID(bytes: [UInt8](repeating: 0, count: 16))!
    }

    /// The most entities one op of the card changes (an op is at most 1 MiB; a shared
    /// favorite's changes are under 1 KB).
    static let entitiesPerOp = 400

    /// `changes` cut into runs that change at most `entitiesPerOp` entities each, an
    /// entity's changes never split (its `create` and `set`s stay in one op).
    static func chunks(_ changes: [Change], entitiesPerOp: Int) -> [[Change]] {
        var out = [[Change]]()
        var current = [Change]()
        var entities = Set<EntityID>()
        for change in changes {
            if !entities.contains(change.entity), entities.count == entitiesPerOp {
                out.append(current)
                current = []
                entities = []
            }
            entities.insert(change.entity)
            current.append(change)
        }
        if !current.isEmpty { out.append(current) }
        return out
    }

    /// The fields a shared favorite copies from its library place.
    static let copied: [(place: FieldSpec, shared: FieldSpec)] = [
        (PlaceFields.name.spec, SharedPlaceFields.name.spec),
        (PlaceFields.latitude.spec, SharedPlaceFields.latitude.spec),
        (PlaceFields.longitude.spec, SharedPlaceFields.longitude.spec),
        (PlaceFields.address.spec, SharedPlaceFields.address.spec),
        (PlaceFields.categories.spec, SharedPlaceFields.categories.spec),
        (PlaceFields.gazetteerID.spec, SharedPlaceFields.gazetteerID.spec),
        (PlaceFields.notes.spec, SharedPlaceFields.notes.spec),
        (PlaceFields.photos.spec, SharedPlaceFields.photos.spec),
    ]

    /// The changes that make the card show `profile` and the favorites `sharing` selects;
    /// empty when it already does.
    func changes(profile: Profile?, sharing: FavoriteSharing) throws(StoreError) -> [Change] {
        var changes = [Change]()
        let root = try store.entity(in: card, id: card.hex)
        let rootFields = root.map(Views.fields) ?? [:]
        var write = root == nil ? EntityWrite<CardFields>.create(card.hex) : EntityWrite<CardFields>.update(card.hex)
        let wanted: [(FieldSpec, JSONValue)] = [
            (CardFields.name.spec, .string(profile?.name ?? "")),
            (CardFields.username.spec, profile.map { .string($0.username) } ?? .null),
            (CardFields.bio.spec, profile?.bio.map(JSONValue.string) ?? .null),
            (CardFields.picture.spec, profile?.picture.map(JSONValue.string) ?? .null),
        ]
        for (spec, value) in wanted where (rootFields[spec.name] ?? .null) != value {
            guard !(root == nil && value.isNull) else { continue }
            write.set(spec.name, to: value, old: rootFields[spec.name])
        }
        changes += write.changes
        changes += try placeChanges(sharing: sharing)
        return changes
    }

    /// Shared favorites to create, update, restore and remove.
    private func placeChanges(sharing: FavoriteSharing) throws(StoreError) -> [Change] {
        let places = Dictionary(
            try store.entities(in: library, kind: .place).map { ($0.id, $0) }, uniquingKeysWith: { a, _ in a })
        var wanted = [(id: String, fields: [String: JSONValue], position: String)]()
        if sharing.mode != .off {
            for favorite in try store.entities(in: library, kind: .favorite) {
                guard wanted.count < Self.maxSharedPlaces, let placeID = favorite.ref, let place = places[placeID],
                    sharing.mode == .all || sharing.placeIDs.contains(placeID)
                else { continue }
                let fields = Views.fields(place)
                var copy = [String: JSONValue]()
                for (from, to) in Self.copied { copy[to.name] = fields[from.name] ?? .null }
                wanted.append((placeID, copy, favorite.position ?? ""))
            }
        }
        var changes = [Change]()
        var live = Dictionary(
            try store.entities(in: card, kind: .sharedPlace).map { ($0.id, $0) }, uniquingKeysWith: { a, _ in a })
        for entry in wanted {
            var existing = live.removeValue(forKey: entry.id)
            if existing == nil { existing = try store.entity(in: card, id: entry.id) }
            var write: EntityWrite<SharedPlaceFields>
            let current: [String: JSONValue]
            if let existing {
                write = .update(entry.id)
                current = Views.fields(existing)
                if existing.deleted { write.set(FieldSpec.deleted.name, to: .bool(false), old: .bool(true)) }
            } else {
                write = .create(entry.id)
                current = [:]
            }
            var fields = entry.fields
            fields[SharedPlaceFields.position.name] = entry.position.isEmpty ? nil : .string(entry.position)
            for (name, value) in fields.sorted(by: { $0.key < $1.key }) where (current[name] ?? .null) != value {
                guard !(existing == nil && value.isNull) else { continue }
                write.set(name, to: value, old: current[name])
            }
            changes += write.changes
        }
        // Favorites no longer shared (unhearted, deleted, or sharing narrowed or off).
        for id in live.keys.sorted() { changes.append(.tombstone(entity: id, kind: .sharedPlace)) }
        return changes
    }
}

/// Which favorites this person shares with their contacts (a device setting).
struct FavoriteSharing: Equatable, Sendable {
    enum Mode: String, Sendable { case all, selected, off }
    var mode: Mode
    /// The library places shared when `mode` is `selected`.
    var placeIDs: Set<String>

    static let off = FavoriteSharing(mode: .off, placeIDs: [])
}
