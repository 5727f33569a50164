import PlacesAPI
import PlacesCrypto
import PlacesModel
import PlacesStore

/// A publication (`Protocol/sync.md` §7.5): the read-only copy of an itinerary its owner
/// publishes. Decides what the copy holds — a whitelist of each kind's fields, so expenses,
/// checklists, members, booking references, confirmation codes, contacts, notes and links
/// never leave — and computes the edit that brings the published document to it (or withdraws
/// it). The engine commits; replication sends it to the audience.
struct PublishService {
    /// One entity of the copy.
    struct Entry: Equatable {
        var kind: EntityKind
        var id: EntityID
        var fields: [String: JSONValue]
        var position: String?
    }

    /// What a publication holds: the root's fields and the items and places to go.
    struct Copy {
        var root: [String: JSONValue]
        var entries: [Entry]
    }

    /// Most items and places to go a published trip holds.
    static let maxEntries = 5_000

    /// The item registers every kind copies (not `notes` or `url`: those are the owner's own).
    static let commonFields = [
        "title", "start", "end", "timeZone", "location.name", "location.address", "location.latitude",
        "location.longitude", "price",
    ]

    /// The fields copied of each kind (what `Protocol/op-format.md` §5 lists for `published`).
    static let copiedFields: [EntityKind: [String]] = [
        .lodging: commonFields,
        .transport: commonFields + [
            "mode", "endTimeZone", "to.name", "to.address", "to.latitude", "to.longitude", "carrier",
        ],
        .food: commonFields + ["recommendation", "rating"],
        .activity: commonFields + ["description", "linkedItem"],
        .stop: ["name", "latitude", "longitude", "address", "day", "gazetteerID"],
    ]

    /// The kinds of a copy's entries.
    static let entryKinds: [EntityKind] = EntityKind.tripItems + [.stop]

    /// A published trip's document id: the first 16 bytes of BLAKE2b-256(`"places/published/1"`
    /// ‖ 0x00 ‖ author's key ‖ salt), the salt random and sent in every offer
    /// (`Protocol/sync.md` §7.5): no one can offer a trip under another author's trip id. A
    /// republish keeps it; moving between a private audience and the network makes a new one.
    static func documentID(author: [UInt8], salt: [UInt8]) -> DocumentID {
        let digest = Blake2b.hash256(Array("places/published/1".utf8) + [0] + author + salt)
        // 16 of 32 bytes: always a valid document id.
        return DocumentID(bytes: Array(digest.prefix(16))) ?? DocumentID(bytes: [UInt8](repeating: 0, count: 16))!
    }

    /// The copy of the itinerary `snapshot` holds, as published by `authorName` to `audience`.
    static func copy(
        of snapshot: TripSnapshot, authorName: String, audience: String, publishedAt: String, updatedAt: String
    ) throws -> Copy {
        let count = snapshot.itemRecords.count + snapshot.stops.count
        guard count <= maxEntries else {
            throw ServiceError.invalid(
                "id", "a published trip holds at most \(maxEntries) items and places to go; this one has \(count)")
        }
        let rootFields = Views.fields(snapshot.root)
        var root = [String: JSONValue]()
        for spec in PublishedTripFields.copied {
            if let value = rootFields[spec.name], !value.isNull { root[spec.name] = value }
        }
        if !authorName.isEmpty { root[PublishedTripFields.authorName.name] = .string(String(authorName.prefix(100))) }
        root[PublishedTripFields.audience.name] = .string(audience)
        root[PublishedTripFields.publishedAt.name] = .string(publishedAt)
        root[PublishedTripFields.updatedAt.name] = .string(updatedAt)
        root[PublishedTripFields.withdrawn.name] = .bool(false)
        var entries = [Entry]()
        for record in snapshot.itemRecords + snapshot.stops {
            guard let names = copiedFields[record.kind] else { continue }
            let fields = Views.fields(record)
            var copied = [String: JSONValue]()
            for name in names {
                if let value = fields[name], !value.isNull { copied[name] = value }
            }
            entries.append(Entry(kind: record.kind, id: record.id, fields: copied, position: record.position))
        }
        return Copy(root: root, entries: entries)
    }

    /// The copy as a snapshot (its records unstored), for the views a dry run shows.
    static func snapshot(of copy: Copy, as doc: DocumentID) -> TripSnapshot {
        func record(_ kind: EntityKind, _ id: EntityID, _ fields: [String: JSONValue], _ position: String?)
            -> Store.EntityRecord
        {
            var text = [UInt8]()
            JSONValue.object(fields).write(to: &text)
            return Store.EntityRecord(
                unstored: doc, id: id, kind: kind, dataJSON: String(decoding: text, as: UTF8.self), position: position)
        }
        let root = record(.publishedTrip, doc.hex, copy.root, nil)
        let items = copy.entries.filter { $0.kind != .stop }.map { record($0.kind, $0.id, $0.fields, $0.position) }
        let stops = copy.entries.filter { $0.kind == .stop }.map { record($0.kind, $0.id, $0.fields, $0.position) }
        return TripSnapshot(doc: doc, root: root, items: items, stops: stops)
    }

    let store: Store
    /// The published document.
    let doc: DocumentID

    /// The changes that make the published document hold `copy`; empty when it does.
    func changes(to copy: Copy) throws(StoreError) -> [Change] {
        var changes = [Change]()
        let root = try store.entity(in: doc, id: doc.hex)
        let held = root.map(Views.fields) ?? [:]
        if root == nil { changes.append(.create(entity: doc.hex, kind: .publishedTrip)) }
        // `publishedAt` stays what it first was.
        var wanted = copy.root
        if let first = held[PublishedTripFields.publishedAt.name], !first.isNull {
            wanted[PublishedTripFields.publishedAt.name] = first
        }
        changes += Self.sets(
            doc.hex, .publishedTrip, from: held, to: wanted, fields: PublishedTripFields.schema.fields.map(\.name))
        var live = [EntityID: Store.EntityRecord]()
        for kind in Self.entryKinds {
            for record in try store.entities(in: doc, kind: kind) { live[record.id] = record }
        }
        for entry in copy.entries {
            var existing = live.removeValue(forKey: entry.id)
            if existing == nil { existing = try store.entity(in: doc, id: entry.id) }
            // An id held under another kind (it cannot be: ids are the itinerary's) is skipped.
            if let existing, existing.kind != entry.kind { continue }
            let current = existing.map(Views.fields) ?? [:]
            if let existing {
                if existing.deleted {
                    changes.append(
                        .set(
                            entity: entry.id, kind: entry.kind, field: FieldSpec.deleted.name, value: .bool(false),
                            old: .bool(true)))
                }
            } else {
                changes.append(.create(entity: entry.id, kind: entry.kind))
            }
            changes += Self.sets(
                entry.id, entry.kind, from: current, to: entry.fields, fields: Self.copiedFields[entry.kind] ?? [])
            if let position = entry.position, existing?.position != position {
                changes.append(
                    .set(
                        entity: entry.id, kind: entry.kind, field: FieldSpec.position.name, value: .string(position),
                        old: existing?.position.map(JSONValue.string)))
            }
        }
        // Items and places to go the itinerary no longer has.
        for (id, record) in live.sorted(by: { $0.key < $1.key }) {
            changes.append(.tombstone(entity: id, kind: record.kind))
        }
        return changes
    }

    /// The changes that withdraw the trip: `withdrawn` set, every item and place to go
    /// tombstoned (the likes stay, so a republish keeps them).
    func withdrawal(at time: String) throws(StoreError) -> [Change] {
        guard let root = try store.entity(in: doc, id: doc.hex) else { return [] }
        let held = Views.fields(root)
        var changes = [Change]()
        if held[PublishedTripFields.withdrawn.name] != .bool(true) {
            changes.append(
                .set(
                    entity: doc.hex, kind: .publishedTrip, field: PublishedTripFields.withdrawn.name,
                    value: .bool(true),
                    old: held[PublishedTripFields.withdrawn.name]))
        }
        changes.append(
            .set(
                entity: doc.hex, kind: .publishedTrip, field: PublishedTripFields.updatedAt.name, value: .string(time),
                old: held[PublishedTripFields.updatedAt.name]))
        for kind in Self.entryKinds {
            for record in try store.entities(in: doc, kind: kind) {
                changes.append(.tombstone(entity: record.id, kind: kind))
            }
        }
        return changes
    }

    /// `set`s of `fields` that differ between `current` and `wanted` (absent is null; a field
    /// never written stays unwritten when it should be null).
    private static func sets(
        _ entity: EntityID, _ kind: EntityKind, from current: [String: JSONValue], to wanted: [String: JSONValue],
        fields: [String]
    ) -> [Change] {
        var out = [Change]()
        for name in fields where name != FieldSpec.deleted.name && name != FieldSpec.position.name {
            let want = wanted[name] ?? .null
            let have = current[name] ?? .null
            guard want != have else { continue }
            out.append(.set(entity: entity, kind: kind, field: name, value: want, old: current[name]))
        }
        return out
    }
}
