import PlacesCrypto
import PlacesModel
import PlacesStore

/// Display names of the keys an itinerary's expenses mention, for one snapshot or answer.
///
/// `Engine.displayName(of:)` reads the peer and contact tables and looks for a member's join
/// name across every itinerary on each call: a few queries per key. A peer's expenses may name
/// thousands of keys that are no member's (5,000 took 4.5 s per snapshot in a debug build, and
/// every client waited), so here the owner, the members and anyone with a member entity in the
/// itinerary are named by `displayName(of:)` as before, each once, and any other key from the
/// peer and contact names read once, else by the start of its human id (as `displayName` does).
final class ExpenseNames {
    private let exact: (PublicKey) -> String
    /// Keys (hex) named by `exact`: the owner, the members, anyone who ever had a member entity.
    private let members: Set<String>
    /// Names of peers and contacts, by key, in `displayName`'s order of preference.
    private let known: [PublicKey: String]
    private var cache: [PublicKey: String] = [:]

    init(
        doc: DocumentID, owner: [UInt8], me: PublicKey?, store: Store, peerNames: [PublicKey: String],
        exact: @escaping (PublicKey) -> String
    ) {
        self.exact = exact
        var members = Set<String>([HexCoding.encode(owner)])
        if let me { members.insert(me.hex) }
        for member in (try? store.members(of: doc)) ?? [] { members.insert(member.key) }
        for record in (try? store.entities(in: doc, kind: .member)) ?? [] { members.insert(record.id) }
        self.members = members
        var known = [PublicKey: String]()
        for contact in (try? store.contacts()) ?? [] where !contact.name.isEmpty {
            if let key = try? PublicKey(bytes: contact.key) { known[key] = contact.name }
        }
        for peer in (try? store.peers()) ?? [] where !peer.name.isEmpty {
            if let key = try? PublicKey(bytes: peer.key) { known[key] = peer.name }
        }
        for (key, name) in peerNames where !name.isEmpty { known[key] = name }
        self.known = known
    }

    /// The name to show for `key`.
    func name(_ key: PublicKey) -> String {
        if let cached = cache[key] { return cached }
        let name = members.contains(key.hex) ? exact(key) : known[key] ?? String(key.humanID.prefix(7))
        cache[key] = name
        return name
    }
}
