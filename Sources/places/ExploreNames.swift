import Foundation
import PlacesAPI

/// Turns what a user types for a published trip (`3f2a9c01`, `lisbon long`) into the id the
/// explore routes take, the way ``NameResolver`` does for itineraries: a text that plainly is
/// an id (4 to 32 hex digits with a digit) goes as it is, the daemon resolving prefixes;
/// otherwise the trips this person can see (explore's first page and the saved ones) are
/// compared by id and by name, ignoring case and accents. Several matches are listed on
/// standard error and `places` exits 2.
struct ExploreNames {
    let global: GlobalOptions

    /// Most trips read from explore when resolving a name (the route's largest page).
    static let pageLimit = 100

    /// The id of the published trip `text` names.
    func trip(_ text: String) throws -> String {
        if NameResolver.isPlainID(text) { return text.lowercased() }
        let trips = try candidates()
        let entries = trips.map { NameResolver.Entry(ids: [$0.id], name: $0.name) }
        if let id = try decide(NameResolver.match(text, in: entries), typed: text, trips: trips) { return id }
        if NameResolver.isHexWord(text) { return text.lowercased() }
        throw CLIExit.fail(
            "no published trip called “\(text)” (give its id, the start of it, or its name): see `places explore`",
            CLIExit.usage)
    }

    /// The id `itinerary create --from` copies: a published trip or one of your itineraries,
    /// by id, the start of it, or name. When a name fits both an itinerary and the trip you
    /// published from it, the itinerary wins (they hold the same plan).
    func template(_ text: String) throws -> String {
        if NameResolver.isPlainID(text) { return text.lowercased() }
        let kind = NameResolver.Kind.itinerary
        let itineraries = try kind.entries(Data(try global.api.get(kind.listTarget).response.body))
        let trips = try candidates()
        let entries = itineraries + trips.map { NameResolver.Entry(ids: [$0.id], name: $0.name) }
        var match = NameResolver.match(text, in: entries)
        if case .ambiguous(let tier) = match {
            let itineraryIDs = Set(itineraries.map { $0.ids[0] })
            let mine = Set(trips.filter(\.mine).map(\.id))
            let namesOfItineraries = Set(
                tier.filter { itineraryIDs.contains($0.ids[0]) }.map { NameResolver.fold($0.name) })
            let kept = tier.filter {
                !(mine.contains($0.ids[0]) && namesOfItineraries.contains(NameResolver.fold($0.name)))
            }
            match = kept.count == 1 ? .found(kept[0]) : .ambiguous(kept)
        }
        if let id = try decide(match, typed: text, trips: trips) { return id }
        if NameResolver.isHexWord(text) { return text.lowercased() }
        throw CLIExit.fail(
            "no itinerary or published trip called “\(text)”: see `places itinerary list` and `places explore`",
            CLIExit.usage)
    }

    /// Published trips this person can name: explore's first page and the saved ones.
    func candidates() throws -> [ExploreSummary] {
        let explored = try global.api.get(Target.v1("explore", query: [("limit", String(Self.pageLimit))]))
            .decode(ExploreList.self).trips
        let saved = try global.api.get(Target.v1("saved")).decode(ExploreList.self).trips
        var seen = Set<String>()
        return (explored + saved).filter { seen.insert($0.id).inserted }
    }

    /// The id a match gives; nil for none; several: listed (with their authors) and exit 2.
    private func decide(_ match: NameResolver.Match, typed text: String, trips: [ExploreSummary]) throws -> String? {
        switch match {
        case .found(let entry):
            return entry.ids[0]
        case .ambiguous(let tier):
            printError("error: “\(text)” could be \(tier.count) trips; give more of the name or the id:")
            for entry in tier {
                let by = trips.first { $0.id == entry.ids[0] }.map { " · by \(ExploreFormat.author($0))" } ?? ""
                printError("\(Format.shortID(entry.ids[0]))  \(entry.name)\(by)")
            }
            throw CLIExit.usage
        case .none:
            return nil
        }
    }
}

extension GlobalOptions {
    /// Resolves published trips for the daemon these options point at.
    var explore: ExploreNames { ExploreNames(global: self) }
}
