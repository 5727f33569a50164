import Foundation
import PlacesAPI
import PlacesCrypto
import PlacesModel
import PlacesStore

/// Groups of friends ("close friends"): entities of the library document, which never leaves
/// this device, so a group's name and members are this person's alone.
extension Engine {
    static let maxGroups = 100

    /// `GET /v1/groups`.
    func groups() throws -> FriendGroupList {
        let library = try library()
        let records = try storeCall { () throws(StoreError) in try store.entities(in: library, kind: .group) }
        return FriendGroupList(groups: records.map(groupView).sorted { ($0.name, $0.id) < ($1.name, $1.id) })
    }

    func groupView(_ record: Store.EntityRecord) -> FriendGroup {
        let f = Views.fields(record)
        return FriendGroup(
            id: record.id, name: f[GroupFields.name] ?? "",
            members: (f[GroupFields.members] ?? []).compactMap { Engine.publicKey(hex: $0)?.humanID })
    }

    /// The group named by its id (or a unique prefix of 4+ characters) or its exact name.
    func groupRecord(_ reference: String) throws -> Store.EntityRecord {
        let library = try library()
        let records = try storeCall { () throws(StoreError) in try store.entities(in: library, kind: .group) }
        let lowered = reference.lowercased()
        if let exact = records.first(where: { $0.id == lowered }) { return exact }
        let byName = records.filter { Views.fields($0)[GroupFields.name] == reference }
        if byName.count == 1, let only = byName.first { return only }
        let byPrefix = lowered.count >= 4 ? records.filter { $0.id.hasPrefix(lowered) } : []
        if byPrefix.count == 1, let only = byPrefix.first { return only }
        throw ServiceError.notFound("no group '\(reference.prefix(80))': `places groups` lists them")
    }

    /// `POST /v1/groups` (`{"name", "members": [ID]}`).
    func createGroup(_ body: [String: JSONValue]) throws -> FriendGroup {
        if let unknown = body.keys.sorted().first(where: { !["name", "members"].contains($0) }) {
            throw ServiceError.invalid(unknown, "unknown field '\(unknown)': the fields are name and members")
        }
        let library = try library()
        let count = try storeCall { () throws(StoreError) in try store.entities(in: library, kind: .group).count }
        guard count < Self.maxGroups else {
            throw ServiceError.invalid("name", "you have \(Self.maxGroups) groups, the most there can be")
        }
        let name = try groupName(body["name"])
        let members = try groupMembers(body["members"] ?? .array([]), field: "members")
        let id = HexCoding.encode(SecureRandom.bytes(16))
        var write = EntityWrite<GroupFields>.create(id)
        write.set(GroupFields.name, to: name)
        write.set(GroupFields.members, to: members)
        try commit(library, write.changes, summary: "group created")
        return try groupView(groupRecord(id))
    }

    /// `PATCH /v1/groups/{id}`: `name`, `members` (the whole list), or `add` / `remove`.
    func updateGroup(_ reference: String, _ body: [String: JSONValue]) throws -> FriendGroup {
        let allowed: Set<String> = ["name", "members", "add", "remove"]
        if let unknown = body.keys.sorted().first(where: { !allowed.contains($0) }) {
            throw ServiceError.invalid(unknown, "unknown field '\(unknown)': the fields are name, members, add, remove")
        }
        let record = try groupRecord(reference)
        let f = Views.fields(record)
        var write = EntityWrite<GroupFields>.update(record.id)
        if let value = body["name"] {
            let name = try groupName(value)
            if name != f[GroupFields.name] { write.set(GroupFields.name, to: name, old: f[GroupFields.name]) }
        }
        var members = Set(f[GroupFields.members] ?? [])
        if let value = body["members"] { members = Set(try groupMembers(value, field: "members")) }
        if let value = body["add"] { members.formUnion(try groupMembers(value, field: "add")) }
        if let value = body["remove"] {
            guard case .array(let items) = value else {
                throw ServiceError.invalid("remove", "'remove' must be a list of public ids")
            }
            for item in items {
                guard let text = item.stringValue, let key = try? HumanID.decode(text) else {
                    throw ServiceError.invalid("remove", "'remove' must hold public ids")
                }
                members.remove(key.hex)
            }
        }
        guard members.count <= Self.maxFriends else {
            throw ServiceError.invalid("members", "a group holds at most \(Self.maxFriends) friends")
        }
        let sorted = members.sorted()
        if sorted != (f[GroupFields.members] ?? []) {
            write.set(GroupFields.members, to: sorted, old: f[GroupFields.members])
        }
        if !write.changes.isEmpty { try commit(try library(), write.changes, summary: "group changed") }
        return try groupView(groupRecord(record.id))
    }

    /// `DELETE /v1/groups/{id}`: posts already made to it keep their audience.
    func deleteGroup(_ reference: String) throws {
        let record = try groupRecord(reference)
        try commit(try library(), [.tombstone(entity: record.id, kind: .group)], summary: "group deleted")
    }

    private func groupName(_ value: JSONValue?) throws -> String {
        guard let raw = value?.stringValue else {
            throw ServiceError.invalid("name", "'name' (the group's name) is required")
        }
        let name = raw.trimmingCharacters(in: .whitespacesAndNewlines)
        guard !name.isEmpty, name.utf8.count <= 6_400, name.count <= 100 else {
            throw ServiceError.invalid("name", "a group's name is 1–100 characters")
        }
        return name
    }

    /// Public ids that must all be friends, as sorted hex keys.
    private func groupMembers(_ value: JSONValue, field: String) throws -> [String] {
        guard case .array(let items) = value, items.count <= Self.maxFriends else {
            throw ServiceError.invalid(field, "'\(field)' must be a list of at most \(Self.maxFriends) public ids")
        }
        let friends = currentFriends()
        var out = Set<String>()
        for item in items {
            guard let text = item.stringValue, let key = try? HumanID.decode(text) else {
                throw ServiceError.invalid(field, "'\(field)' must hold public ids")
            }
            guard friends.contains(key) else {
                throw ServiceError.invalid(
                    field,
                    "\(displayName(of: key)) (\(key.humanID.prefix(7))) is not your friend: a group holds friends")
            }
            out.insert(key.hex)
        }
        return out.sorted()
    }

    /// Takes a former friend out of every group (a group holds friends only).
    func dropFromGroups(_ key: PublicKey) {
        guard let library = try? library(), let groups = try? store.entities(in: library, kind: .group) else { return }
        var changes = [Change]()
        for group in groups {
            let members = Views.fields(group)[GroupFields.members] ?? []
            guard members.contains(key.hex) else { continue }
            var write = EntityWrite<GroupFields>.update(group.id)
            write.set(GroupFields.members, to: members.filter { $0 != key.hex }, old: members)
            changes += write.changes
        }
        guard !changes.isEmpty else { return }
        do { try commit(library, changes, summary: "a former friend left your groups") } catch {
            logger.error("updating groups failed", metadata: ["error": "\(error)"])
        }
    }
}
