import ArgumentParser
import Foundation
import PlacesControlClient
import PlacesModel

/// Turns what a user types for a place, a favorite or an itinerary (`"belem tower"`,
/// `lisbon w`, `3f7a9c01`) into the id the control API takes.
///
/// One rule for every command, in this order:
/// 1. A text that plainly is an id (4 to 32 hex digits with at least one digit 0-9) goes to
///    the daemon as it is: the daemon resolves id prefixes, and no list is fetched.
/// 2. Otherwise the list is fetched and the text is compared, ignoring case and accents
///    (``NameResolver/fold(_:)``), with each entry's id and name: an equal id, then an
///    equal name, then a name (or an id, for 4+ hex digits) that starts with the text,
///    then a name with a word that starts with it.
/// 3. The first step with exactly one match wins. Several matches at that step: they are
///    listed on standard error as `id  name` lines, and `places` exits 2. No match: exit 2
///    naming what was looked for, unless the text is made of 4+ hex letters (`abcd`), which
///    is then left to the daemon as an id.
///
/// Favorites are found by their place's name (and by the favorite's or the place's id).
struct NameResolver {
    /// One entry a text can name.
    struct Entry: Sendable, Equatable {
        /// The id the API takes (the first of `ids` is the one returned).
        var ids: [String]
        var name: String
    }

    /// What is being looked for, for messages ("place", "places").
    struct Kind: Sendable {
        var singular: String
        var plural: String
        /// Where the list of them is.
        var listTarget: String
        /// Reads the list's entries out of its JSON body.
        var entries: @Sendable (Data) throws -> [Entry]
        /// How to see them all.
        var listCommand: String
    }

    let api: APIClient

    /// The id of the place `text` names.
    func place(_ text: String) throws -> String { try resolve(text, .place) }

    /// The id of the itinerary `text` names.
    func itinerary(_ text: String) throws -> String { try resolve(text, .itinerary) }

    /// The id of the favorite `text` names (by its place's name or either id).
    func favorite(_ text: String) throws -> String { try resolve(text, .favorite) }

    /// The id of the place to go (stop) `text` names in the itinerary `itineraryID`: the
    /// stop's name, the stop's or its library place's id.
    func stop(_ text: String, in itineraryID: String) throws -> String {
        let kind = Kind(
            singular: "place to go", plural: "places to go", listTarget: Target.v1("itineraries", itineraryID),
            entries: { data in
                try JSONDecoder().decode(Kind.Rows.self, from: data).places.map {
                    Entry(ids: [$0.id] + ($0.placeId.map { [$0] } ?? []), name: $0.name)
                }
            }, listCommand: "places itinerary show \(Format.shortID(itineraryID))")
        return try resolve(text, kind)
    }

    /// Resolves `text` among the entries of `kind` (see the type's rules).
    func resolve(_ text: String, _ kind: Kind) throws -> String {
        if Self.isPlainID(text) { return text.lowercased() }
        if let id = try decide(Self.match(text, in: try entries(kind, for: text)), typed: text, kind) { return id }
        if Self.isHexWord(text) { return text.lowercased() }
        throw CLIExit.fail(
            "no \(kind.singular) called “\(text)” (give its id, its name or the start of its name; "
                + "case and accents do not matter): see `\(kind.listCommand)`", CLIExit.usage)
    }

    /// The id a match gives; nil for no match; several: lists them on standard error and
    /// throws exit code 2.
    func decide(_ match: Match, typed text: String, _ kind: Kind) throws -> String? {
        switch match {
        case .found(let entry):
            return entry.ids[0]
        case .ambiguous(let tier):
            printError("error: “\(text)” could be \(tier.count) \(kind.plural); give more of the name or the id:")
            for entry in tier { printError("\(Format.shortID(entry.ids[0]))  \(entry.name)") }
            throw CLIExit.usage
        case .none:
            return nil
        }
    }

    /// The outcome of matching a text against a list.
    enum Match: Equatable {
        case found(Entry)
        case ambiguous([Entry])
        case none
    }

    /// Matches `text` against `entries` (rule 2 and 3 of the type's documentation).
    static func match(_ text: String, in entries: [Entry]) -> Match {
        let key = fold(text)
        guard !key.isEmpty else { return .none }
        let lowered = text.lowercased()
        let byID = entries.filter { $0.ids.contains { $0.lowercased() == lowered } }
        let exact = entries.filter { fold($0.name) == key }
        let idPrefix = isHexWord(text) || isPlainID(text)
        let prefixed = entries.filter {
            fold($0.name).hasPrefix(key) || (idPrefix && $0.ids.contains { $0.lowercased().hasPrefix(lowered) })
        }
        // Last: the text starts a later word of the name ("nicola" → Café Nicola).
        let worded = entries.filter { (" " + fold($0.name)).contains(" " + key) }
        for tier in [byID, exact, prefixed, worded] where !tier.isEmpty {
            return tier.count == 1 ? .found(tier[0]) : .ambiguous(tier)
        }
        return .none
    }

    /// 4 to 32 hex digits with at least one decimal digit: an id, not a word.
    static func isPlainID(_ text: String) -> Bool {
        let bytes = text.utf8
        return (4...32).contains(bytes.count) && bytes.allSatisfy(\.isHexDigit) && bytes.contains { $0 < 58 }
    }

    /// 4 to 32 hex letters and digits: could be an id prefix (`abcd`) or a word (`cafe`).
    static func isHexWord(_ text: String) -> Bool {
        let bytes = text.utf8
        return (4...32).contains(bytes.count) && bytes.allSatisfy(\.isHexDigit)
    }

    /// Case- and accent-free form of a name: `NameFolding.fold`, the one the daemon's
    /// discover search and the gazetteer use.
    static func fold(_ text: String) -> String { NameFolding.fold(text) }
}

extension NameResolver.Kind {
    /// Library places (`GET /v1/places`).
    static let place = NameResolver.Kind(
        singular: "place", plural: "places", listTarget: Target.v1("places"),
        entries: { data in
            try JSONDecoder().decode(Rows.self, from: data).places.map {
                NameResolver.Entry(ids: [$0.id], name: $0.name)
            }
        }, listCommand: "places place list")

    /// Itineraries the user holds, own and shared (`GET /v1/itineraries?scope=all`).
    static let itinerary = NameResolver.Kind(
        singular: "itinerary", plural: "itineraries", listTarget: Target.v1("itineraries", query: [("scope", "all")]),
        entries: { data in
            try JSONDecoder().decode(Rows.self, from: data).itineraries.map {
                NameResolver.Entry(ids: [$0.id], name: $0.name)
            }
        }, listCommand: "places itinerary list")

    /// Favorites, named by their place (`GET /v1/favorites`).
    static let favorite = NameResolver.Kind(
        singular: "favorite", plural: "favorites", listTarget: Target.v1("favorites"),
        entries: { data in
            try JSONDecoder().decode(Rows.self, from: data).favorites.map {
                NameResolver.Entry(ids: [$0.id, $0.placeId ?? $0.id], name: $0.name)
            }
        }, listCommand: "places favorite list")

    /// Favorites by their place's name, giving the place id (`GET /v1/favorites`).
    static let favoritePlace = NameResolver.Kind(
        singular: "favorite", plural: "favorites", listTarget: Target.v1("favorites"),
        entries: { data in
            try JSONDecoder().decode(Rows.self, from: data).favorites.map {
                NameResolver.Entry(ids: [$0.placeId ?? $0.id, $0.id], name: $0.name)
            }
        }, listCommand: "places favorite list")

    /// The few fields of a list the resolver reads; anything else in the body is ignored.
    fileprivate struct Rows: Decodable {
        struct Row: Decodable {
            var id: String
            var name: String
            var placeId: String?
        }
        var places: [Row] = []
        var itineraries: [Row] = []
        var favorites: [Row] = []

        init(from decoder: any Decoder) throws {
            let container = try decoder.container(keyedBy: CodingKeys.self)
            places = try container.decodeIfPresent([Row].self, forKey: .places) ?? []
            itineraries = try container.decodeIfPresent([Row].self, forKey: .itineraries) ?? []
            favorites = try container.decodeIfPresent([Row].self, forKey: .favorites) ?? []
        }

        enum CodingKeys: String, CodingKey { case places, itineraries, favorites }
    }
}

extension GlobalOptions {
    /// The name resolver for the daemon these options point at.
    var names: NameResolver { NameResolver(api: api) }
}

extension UInt8 {
    /// 0-9, a-f, A-F.
    fileprivate var isHexDigit: Bool {
        (48...57).contains(self) || (97...102).contains(self) || (65...70).contains(self)
    }
}
