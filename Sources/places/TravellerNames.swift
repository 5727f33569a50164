import Foundation

/// Resolves the names users type (`ana`, `Bruno`, `me`) to the traveller ids the API takes.
///
/// Matching ignores case and accents (`jose` finds José). An exact name wins over a prefix;
/// a prefix must be unique. `me` is always the logged-in identity. An id (a member's public
/// id, a 64-hex key or a named traveller's 32-hex id or a prefix of 4+ of it) works as well.
/// Current travellers are tried first; removed travellers and former members only when no
/// current one matches.
struct TravellerNames {
    /// Why a name did not resolve: the message lists the candidates.
    struct Failure: Error, CustomStringConvertible {
        var description: String
    }

    let travellers: [ExpenseAPI.Traveller]
    /// The logged-in identity's public id, for `me` (nil: not known); asked only when `me`
    /// is used.
    let me: () -> String?

    init(_ travellers: [ExpenseAPI.Traveller], me: @escaping () -> String?) {
        self.travellers = travellers
        self.me = me
    }

    /// Case- and accent-insensitive form of a name: the one fold every name lookup uses.
    static func folded(_ text: String) -> String { NameResolver.fold(text) }

    /// The traveller `text` names.
    func resolve(_ text: String) throws(Failure) -> ExpenseAPI.Traveller {
        let key = Self.folded(text)
        if key == "me" {
            guard let me = me() else { throw Failure(description: "cannot tell who `me` is: is the daemon logged in?") }
            return travellers.first { $0.id == me } ?? ExpenseAPI.Traveller(id: me, name: "me", member: true)
        }
        guard !key.isEmpty else { throw Failure(description: "an empty traveller name") }
        if let byID = travellers.first(where: { Self.folded($0.id) == key }) { return byID }
        let current = travellers.filter(\.isCurrent)
        for pool in [current, travellers] {
            if let found = try Self.match(key, in: pool, typed: text) { return found }
        }
        // A 64-hex key or a member's public id not (yet) in the list: the daemon decides.
        if text.utf8.count == 64 && text.utf8.allSatisfy(\.isHexDigit) {
            return ExpenseAPI.Traveller(id: text.lowercased(), name: text)
        }
        throw Failure(description: "no traveller called “\(text)”; \(Self.listing(current))")
    }

    /// Exact name, then unique name prefix, then unique id prefix (4+ hex digits); nil
    /// when nothing in `pool` matches.
    private static func match(
        _ key: String, in pool: [ExpenseAPI.Traveller], typed: String
    ) throws(Failure) -> ExpenseAPI.Traveller? {
        let exact = pool.filter { folded($0.name) == key }
        let prefixed = pool.filter { folded($0.name).hasPrefix(key) }
        let byID =
            key.count >= 4 && key.utf8.allSatisfy(\.isHexDigit)
            ? pool.filter { !($0.member ?? false) && $0.id.lowercased().hasPrefix(key) } : []
        for tier in [exact, prefixed, byID] where !tier.isEmpty {
            guard tier.count == 1 else {
                throw Failure(
                    description: "“\(typed)” could be \(tier.count) travellers; give more of the name or the id: "
                        + tier.map(describe).joined(separator: ", "))
            }
            return tier[0]
        }
        return nil
    }

    /// "Ana (member, 3f7Q…)" style, for listing candidates.
    static func describe(_ traveller: ExpenseAPI.Traveller) -> String {
        "\(traveller.name) (\(Format.shortID(traveller.id)))"
    }

    /// "the travellers are: Ana, Bruno" or how to add one.
    static func listing(_ travellers: [ExpenseAPI.Traveller]) -> String {
        guard !travellers.isEmpty else {
            return "the trip has no travellers yet: `places traveller add ITIN NAME`"
        }
        return "the travellers are: " + travellers.map(\.name).joined(separator: ", ")
            + " (add one with `places traveller add ITIN NAME`)"
    }
}

extension ExpenseAPI.Traveller {
    init(id: String, name: String, member: Bool? = nil) {
        self.init(id: id, name: name, member: member, removed: nil, left: nil, expenseCount: nil)
    }
}

extension UInt8 {
    /// 0-9, a-f, A-F.
    fileprivate var isHexDigit: Bool {
        (48...57).contains(self) || (97...102).contains(self) || (65...70).contains(self)
    }
}
