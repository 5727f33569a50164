import ArgumentParser
import Foundation

extension PlaceGroup.Add {
    /// Places farther than this from the `--in` city are not "in" it.
    static let withinMeters = 50_000.0

    /// `places place add NAME|RESULT [--in CITY]` without coordinates: they come from discover.
    func addFromDiscover() throws {
        let name = self.name ?? ""
        let results = ResultResolver(global: global)
        if DiscoverResult.isResultID(name) {
            return try add(try results.result(id: name), named: nil, results)
        }
        var area: DiscoverResult?
        if let within {
            guard let found = try results.search(within, limit: 1).first else {
                throw CLIExit.fail("--in: nothing called “\(within)” in discover", CLIExit.usage)
            }
            area = found
        }
        var match = try results.search(name, near: area).first
        if let area, let candidate = match, area.kind == "city",
            Self.distanceMeters(area, candidate) > Self.withinMeters
        {
            match = nil
        }
        if let match, Self.isWithin(typed: name, result: match) {
            // "Belem Tower" finding Belém: the tower is in Belém, it is not Belém.
            printError("no “\(name)” in discover: placing it at \(match.described)")
            let created = try results.create(from: match, name: name, details: details, gazetteer: false)
            if global.json { return printRaw(created.reply) }
            return print("added place \(Format.shortID(created.id)) \(created.place.name)")
        }
        if let match {
            printError("using \(match.described)")
            return try add(match, named: nil, results)
        }
        guard let area else {
            throw CLIExit.fail(
                "no “\(name)” in discover: give --in CITY (to place it at the city's centre) or --lat and --lon",
                CLIExit.usage)
        }
        printError("no “\(name)” near \(area.name): placing it at the centre of \(area.described)")
        let created = try results.create(from: area, name: name, details: details, gazetteer: false)
        if global.json { return printRaw(created.reply) }
        print("added place \(Format.shortID(created.id)) \(created.place.name)")
    }

    /// Adds `result` to the library unless it is there already (own place, same gazetteer id).
    private func add(_ result: DiscoverResult, named: String?, _ results: ResultResolver) throws {
        var existing = result.ownPlaceID
        if existing == nil, DiscoverResult.isGazetteerID(result.id) {
            existing = try results.placeID(withGazetteerID: result.id)
        }
        if let existing {
            let reply = try global.api.get(Target.v1("places", existing))
            if global.json { return printRaw(reply) }
            return print("already in your library: place \(Format.shortID(existing)) \(result.name)")
        }
        let created = try results.create(from: result, name: named, details: details)
        if global.json { return printRaw(created.reply) }
        print("added place \(Format.shortID(created.id)) \(created.place.name)")
    }

    /// Whether the typed name holds the result's whole name and more ("Belem Tower" and
    /// Belém): then the result is where the place is, not the place itself.
    static func isWithin(typed: String, result: DiscoverResult) -> Bool {
        let typedKey = NameResolver.fold(typed)
        let resultKey = NameResolver.fold(result.name)
        return !resultKey.isEmpty && typedKey != resultKey && (" \(typedKey) ").contains(" \(resultKey) ")
    }

    /// Great-circle distance between two results, in meters.
    static func distanceMeters(_ a: DiscoverResult, _ b: DiscoverResult) -> Double {
        let radians = Double.pi / 180
        let dLat = (b.latitude - a.latitude) * radians
        let dLon = (b.longitude - a.longitude) * radians
        let h =
            sin(dLat / 2) * sin(dLat / 2) + cos(a.latitude * radians) * cos(b.latitude * radians) * sin(dLon / 2)
            * sin(dLon / 2)
        return 2 * 6_371_000 * asin(min(1, sqrt(h)))
    }
}
