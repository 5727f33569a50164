import ArgumentParser
import Foundation
import PlacesAPI

/// Turns a RESULT|PLACE argument into a library place id, creating the library place from
/// a discover result when needed.
///
/// - A gazetteer id (`city:2267057`) is the library place with that `gazetteerId` if there is
///   one, else a new library place created from it (the daemon fills in name and
///   coordinates).
/// - `place:<32 hex>` is that library place; `place:<owner>.<32 hex>` (a contact's shared
///   favorite) is copied into the library (name, coordinates, address, categories).
/// - Anything else is first looked for among library places (``NameResolver``); when no
///   library place matches, it goes to discover and the first result is used (exact name
///   matches rank first), and the CLI says which one on standard error.
struct ResultResolver {
    let global: GlobalOptions

    /// The library place `text` stands for (see the type's rules); `created` is true when
    /// this call added it to the library.
    func libraryPlace(_ text: String) throws -> (id: String, created: Bool) {
        if DiscoverResult.isResultID(text) { return try libraryPlace(for: try result(id: text)) }
        let names = global.names
        let places = try names.entries(.place, for: text)
        if NameResolver.isPlainID(text) { return (text.lowercased(), false) }
        if let id = try names.decide(NameResolver.match(text, in: places), typed: text, .place) { return (id, false) }
        guard let found = try search(text).first else {
            if NameResolver.isHexWord(text) { return (text.lowercased(), false) }
            throw CLIExit.fail(
                "no place called “\(text)” in your library or in discover: see `places discover \(text)`",
                CLIExit.usage)
        }
        printError("using \(found.described)")
        return try libraryPlace(for: found)
    }

    /// The library place for a discover result, reused or created.
    func libraryPlace(for result: DiscoverResult) throws -> (id: String, created: Bool) {
        if let own = result.ownPlaceID { return (own, false) }
        if DiscoverResult.isGazetteerID(result.id), let existing = try placeID(withGazetteerID: result.id) {
            return (existing, false)
        }
        let place = try create(from: result, name: nil)
        return (place.id, true)
    }

    /// Adds a library place from `result`, named `name` (the result's name when nil).
    func create(
        from result: DiscoverResult, name: String?, details: PlaceDetails? = nil, gazetteer: Bool = true
    ) throws -> CreatedPlace {
        var body = JSONBody()
        details?.fill(&body)
        if gazetteer && DiscoverResult.isGazetteerID(result.id) {
            body["gazetteerId"] = .string(result.id)
        }
        body["name"] = .string(name ?? result.name)
        body["latitude"] = .double(result.latitude)
        body["longitude"] = .double(result.longitude)
        let reply = try global.api.post(Target.v1("places"), body)
        return CreatedPlace(reply: reply, place: try reply.decode(CreatedPlace.Body.self))
    }

    /// The library place that carries `gazetteerID`, if any.
    func placeID(withGazetteerID gazetteerID: String) throws -> String? {
        let reply = try global.api.get(Target.v1("places"))
        return try reply.decode(LibraryRows.self).places.first { $0.gazetteerId == gazetteerID }?.id
    }

    /// `GET /v1/discover/{id}`.
    func result(id: String) throws -> DiscoverResult {
        try global.api.get(Target.v1("discover", id)).decode(DiscoverResult.self)
    }

    /// `GET /v1/discover?q=…`, best first.
    func search(_ text: String, near: DiscoverResult? = nil, limit: Int = 5) throws -> [DiscoverResult] {
        let nearText = near.map { "\($0.latitude),\($0.longitude)" }
        let target = Target.v1("discover", query: [("q", text), ("near", nearText), ("limit", String(limit))])
        return try global.api.get(target).decode(DiscoverResults.self).results
    }

    /// A place the daemon just created: its reply (for `--json`) and the fields printed.
    struct CreatedPlace {
        struct Body: Decodable {
            var id: String
            var name: String
        }
        var reply: APIClient.Reply
        var place: Body

        var id: String { place.id }
    }

    /// The fields of `GET /v1/places` this type reads.
    private struct LibraryRows: Decodable {
        struct Row: Decodable {
            var id: String
            var gazetteerId: String?
        }
        var places: [Row]
    }
}

extension NameResolver {
    /// The entries of `kind` for resolving `text` (no request for a plain id).
    func entries(_ kind: Kind, for text: String) throws -> [Entry] {
        if Self.isPlainID(text) { return [] }
        do {
            return try kind.entries(Data(api.get(kind.listTarget).response.body))
        } catch let code as ExitCode {
            throw code
        } catch {
            throw CLIExit.fail("cannot read the daemon's list of \(kind.plural): \(error)", CLIExit.refused)
        }
    }
}
