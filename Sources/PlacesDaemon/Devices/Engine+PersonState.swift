import PlacesCrypto
import PlacesModel
import PlacesStore

/// The person's own tables (friends, contacts, saved trips, settings) following the person
/// to each of their devices (`Protocol/devices.md` §4.4): a row changed here is written into the
/// library document — which only the person's devices can read — as a `friend`, `contact`,
/// `saved` or `setting` entity; what a sibling device wrote there is applied to this
/// device's tables. The library's last-writer-wins order decides between two devices.
extension Engine {
    /// How many marked rows one library op carries.
    static let personRowsPerOp = 200

    /// Writes the rows changed here into the library (after a request or a peer's message
    /// that changed them). Cheap when nothing is marked.
    func mirrorPersonState() {
        guard store.personStateMarked, identity != nil, let library = try? library() else { return }
        // A few rounds at most per call: the next request or message takes what is left.
        for _ in 0..<10 {
            guard let marked = try? store.markedPersonRows(limit: Self.personRowsPerOp) else { return }
            guard !marked.isEmpty else {
                try? store.clearPersonMarks([])
                return
            }
            let changes = marked.flatMap { personChanges($0.row, $0.value, library: library) }
            do {
                if !changes.isEmpty { try commit(library, changes, summary: "your settings and friends changed") }
                try store.clearPersonMarks(marked.map(\.row))
            } catch {
                logger.error("writing friends and settings into the library failed", metadata: ["error": "\(error)"])
                return
            }
        }
    }

    /// The library entity a row is kept in: the first 16 bytes of BLAKE2b-256 of
    /// "<kind>:<row key>", in hex.
    static func personEntity(_ row: Store.PersonRow) -> EntityID? {
        guard let hash = try? Blake2bStream(),
            (try? hash.update(Array("\(row.table.rawValue):\(row.key)".utf8))) != nil,
            let digest = try? hash.finalize()
        else { return nil }
        return HexCoding.encode(digest.prefix(16))
    }

    /// The changes that make the library's entity for `row` say `value` (nil: removed).
    private func personChanges(_ row: Store.PersonRow, _ value: Store.PersonValue?, library: DocumentID) -> [Change] {
        guard let entity = Self.personEntity(row) else { return [] }
        let kind = Self.personKind(row.table)
        var fields: [(String, JSONValue)]
        switch value {
        case .friend(let state, let name, let since):
            fields = [
                (FriendFields.person.name, .string(row.key)), (FriendFields.state.name, .string(state.rawValue)),
                (FriendFields.name.name, .string(name)), (FriendFields.since.name, .string(RFC3339.string(ms: since))),
            ]
        case .contact(let name, let added):
            fields = [
                (ContactFields.person.name, .string(row.key)), (ContactFields.name.name, .string(name)),
                (ContactFields.addedAt.name, .string(RFC3339.string(ms: added))),
            ]
        case .saved(let ms):
            fields = [
                (SavedFields.trip.name, .string(row.key)), (SavedFields.savedAt.name, .string(RFC3339.string(ms: ms))),
            ]
        case .setting(let text):
            fields = [(SettingFields.key.name, .string(row.key)), (SettingFields.value.name, .string(text))]
        case nil:
            // Removed here: a tombstone on the entity, if the library has it.
            guard let held = try? store.entity(in: library, id: entity), !held.deleted, held.kind == kind else {
                return []
            }
            return [.set(entity: entity, kind: kind, field: FieldSpec.deleted.name, value: .bool(true), old: nil)]
        }
        fields.append((FieldSpec.deleted.name, .bool(false)))
        let held = try? store.entity(in: library, id: entity)
        let current = held.map(Views.fields) ?? [:]
        var changes = [Change]()
        if held == nil { changes.append(.create(entity: entity, kind: kind)) }
        for (field, value) in fields
        where field == FieldSpec.deleted.name ? held?.deleted != false : current[field] != value {
            changes.append(.set(entity: entity, kind: kind, field: field, value: value, old: nil))
        }
        return changes
    }

    private static func personKind(_ table: Store.PersonTable) -> EntityKind {
        switch table {
        case .friend: .friend
        case .contact: .contact
        case .saved: .saved
        case .setting: .setting
        }
    }

    /// Applies what a sibling device wrote into the library (`ops` of the library, stored):
    /// each person-state entity it touched, as the library now holds it, into this device's
    /// tables; a friendship that changed is followed as one changed here would be.
    func adoptPersonState(from bodies: [OpBody], library: DocumentID) {
        var touched = [EntityID: EntityKind]()
        for body in bodies {
            for change in body.changes where EntityKind.personState.contains(change.kind) {
                touched[change.entity] = change.kind
            }
        }
        guard !touched.isEmpty else { return }
        var entries = [(row: Store.PersonRow, value: Store.PersonValue?)]()
        for (id, kind) in touched {
            guard let record = try? store.entity(in: library, id: id), record.kind == kind,
                let entry = Self.personEntry(record)
            else { continue }
            entries.append(entry)
        }
        let changed: [Store.PersonRow]
        do {
            changed = try store.adoptPersonState(entries)
        } catch {
            logger.error("applying another device's friends and settings failed", metadata: ["error": "\(error)"])
            return
        }
        guard !changed.isEmpty else { return }
        logger.info("took friends and settings from another device", metadata: ["rows": "\(changed.count)"])
        if changed.contains(where: { $0.table == .friend }) {
            didStore(.friendship)
            for row in changed where row.table == .friend {
                guard let bytes = HexCoding.decode(row.key), let key = try? PublicKey(bytes: bytes),
                    friendState(key) == .friend
                else { continue }
                friendshipStarted(with: key)
            }
        }
        if changed.contains(where: { $0.table == .contact }) { didStore(.documents) }
    }

    /// The table row a library entity mirrors, and its value (nil when it is a tombstone);
    /// nil for an entity that is not well formed or not at its row's id (it is not applied).
    static func personEntry(_ record: Store.EntityRecord) -> (row: Store.PersonRow, value: Store.PersonValue?)? {
        let f = Views.fields(record)
        let row: Store.PersonRow
        switch record.kind {
        case .friend: row = Store.PersonRow(.friend, f[FriendFields.person] ?? "")
        case .contact: row = Store.PersonRow(.contact, f[ContactFields.person] ?? "")
        case .saved: row = Store.PersonRow(.saved, f[SavedFields.trip] ?? "")
        case .setting: row = Store.PersonRow(.setting, f[SettingFields.key] ?? "")
        default: return nil
        }
        guard !row.key.isEmpty, personEntity(row) == record.id,
            row.table != .setting || !row.key.hasPrefix(Store.localSettingPrefix)
        else { return nil }
        if record.deleted { return (row, nil) }
        switch row.table {
        case .friend:
            guard let state = f[FriendFields.state].flatMap(Store.FriendState.init(rawValue:)),
                let since = f[FriendFields.since].flatMap(RFC3339.parse)
            else { return nil }
            return (row, .friend(state: state, name: f[FriendFields.name] ?? "", sinceMs: since))
        case .contact:
            guard let added = f[ContactFields.addedAt].flatMap(RFC3339.parse) else { return nil }
            return (row, .contact(name: f[ContactFields.name] ?? "", addedMs: added))
        case .saved:
            guard let ms = f[SavedFields.savedAt].flatMap(RFC3339.parse) else { return nil }
            return (row, .saved(savedMs: ms))
        case .setting:
            return (row, .setting(f[SettingFields.value] ?? ""))
        }
    }
}
