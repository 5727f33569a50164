import Foundation
import PlacesCrypto
import PlacesModel
import PlacesStore

/// Who can appear in a trip's expenses, with their names and API ids: the owner and every
/// member (named by their key; `member` true), and the named travellers without a device
/// (`traveller` entities). A former member or a removed traveller whom an expense still
/// names stays listed (`left`, `removed`), so no money disappears from the balances.
final class TravellerDirectory: @unchecked Sendable {
    struct Entry: Sendable {
        /// The stored reference: a member's key in hex (64) or a traveller's entity id (32).
        var ref: String
        /// What the API shows: a member's human id, a traveller's entity id.
        var id: String
        var name: String
        var member: Bool
        /// A member who left, or a named traveller removed while an expense named them.
        var gone: Bool
    }

    /// The current travellers, by reference.
    let entries: [String: Entry]
    /// The current travellers in listing order: members (owner first), then named
    /// travellers, each by name.
    let current: [String]
    private let lookup: (String) -> Store.EntityRecord?
    private let displayName: (PublicKey) -> String
    /// Travellers an expense names who are no longer current, made on first use (a write
    /// names only current ones, so it never reads the trip's every expense for them).
    private var former: [String: Entry] = [:]

    /// `members` are the owner's and active members' keys; `named` the live traveller
    /// entities; `lookup` reads a removed traveller's last record; `displayName` names a
    /// member. Read inside the engine actor only.
    init(
        members: [PublicKey], named: [Store.EntityRecord], lookup: @escaping (String) -> Store.EntityRecord?,
        displayName: @escaping (PublicKey) -> String
    ) {
        self.lookup = lookup
        self.displayName = displayName
        var entries = [String: Entry]()
        var people = [Entry]()
        var travellers = [Entry]()
        for key in members where entries[key.hex] == nil {
            let entry = Entry(ref: key.hex, id: key.humanID, name: displayName(key), member: true, gone: false)
            entries[key.hex] = entry
            people.append(entry)
        }
        for record in named {
            let name = Views.fields(record)[TravellerFields.name] ?? "traveller"
            let entry = Entry(ref: record.id, id: record.id, name: name, member: false, gone: false)
            entries[record.id] = entry
            travellers.append(entry)
        }
        self.entries = entries
        let owner = members.first?.hex
        current = Self.sorted(people, owner: owner) + Self.sorted(travellers, owner: owner)
    }

    private static func sorted(_ list: [Entry], owner: String?) -> [String] {
        list.sorted { a, b in
            if (a.ref == owner) != (b.ref == owner) { return a.ref == owner }
            let (x, y) = (a.name.lowercased(), b.name.lowercased())
            return x != y ? x < y : a.ref < b.ref
        }.map(\.ref)
    }

    /// The traveller `ref`, current or former.
    func entry(_ ref: String) -> Entry {
        if let entry = entries[ref] ?? former[ref] { return entry }
        let entry: Entry
        if let key = Engine.publicKey(hex: ref) {
            entry = Entry(ref: ref, id: key.humanID, name: displayName(key), member: true, gone: true)
        } else {
            let name = lookup(ref).flatMap { Views.fields($0)[TravellerFields.name] } ?? "unknown traveller"
            entry = Entry(ref: ref, id: ref, name: name, member: false, gone: true)
        }
        former[ref] = entry
        return entry
    }

    /// Every traveller to list: the current ones, then the former ones of `referenced` (the
    /// travellers expenses name), members before named travellers.
    func order(referenced: Set<String>) -> [String] {
        let gone = referenced.filter { entries[$0] == nil }.map(entry)
        return current + Self.sorted(gone.filter(\.member), owner: nil)
            + Self.sorted(gone.filter { !$0.member }, owner: nil)
    }

    static func isHexDigit(_ c: UInt8) -> Bool { (48...57).contains(c) || (97...102).contains(c) }

    func name(_ ref: String) -> String { entry(ref).name }

    /// The API id of a stored reference.
    func apiID(_ ref: String) -> String { entry(ref).id }

    /// The stored reference of a traveller given in a request: a member's human id or key
    /// hex, or a named traveller's id. It must be a current traveller, or one of `also` (the
    /// travellers the edited expense already names).
    func resolve(_ value: JSONValue?, field: String, also: Set<String> = []) throws -> String {
        guard let text = value?.stringValue, !text.isEmpty, text.utf8.count <= 200 else {
            throw ServiceError.invalid(field, "'\(field)' must be a traveller's id (see GET …/travellers)")
        }
        let lower = text.lowercased()
        var ref: String?
        if let key = Engine.publicKey(hex: lower) {
            ref = key.hex
        } else if lower.utf8.count == 32, HexCoding.decode(lower) != nil {
            ref = lower
        } else if let key = try? HumanID.decode(text) {
            ref = key.hex
        } else if (4..<32).contains(lower.utf8.count), lower.utf8.allSatisfy(Self.isHexDigit) {
            // A unique prefix of a named traveller's id, as other ids in the API.
            let matches = entries.values.filter { !$0.member && $0.ref.hasPrefix(lower) }
            guard matches.count <= 1 else {
                throw ServiceError.invalid(field, "'\(text)' is the start of several travellers' ids: give more of it")
            }
            ref = matches.first?.ref
        }
        guard let ref, entries[ref] != nil || also.contains(ref) else {
            throw ServiceError.invalid(
                field, "'\(text.prefix(80))' is not a traveller of this trip: add them first (POST …/travellers)")
        }
        return ref
    }
}
