import Foundation
import PlacesAPI
import PlacesControl
import PlacesModel

/// Maps control-API requests to the engine. Every route is listed in
/// `Protocol/control-api.yaml`.
struct Router: ControlHandler {
    let engine: Engine

    func handle(_ request: ControlRequest) async -> ControlResponse {
        let response: ControlResponse
        do {
            response = try await route(request)
        } catch {
            response = .problem(Problem.from(error))
        }
        // Friends, contacts, saved trips and settings a request changed follow the person
        // to their other devices (`Engine+PersonState`).
        if request.method != "GET", engine.store.personStateMarked { await engine.mirrorPersonState() }
        if request.method != "GET" { await engine.nameRelaysPending() }
        return response
    }

    /// `GET /v1/favorites` as the engine last answered it, while the store has not changed
    /// since and the identity is the same (`Engine.keptFavorites`); every other request goes
    /// through `handle`.
    func keptAnswer(_ request: ControlRequest) -> ControlResponse? {
        guard request.method == "GET", request.segments == ["v1", "favorites"],
            let bytes = engine.keptFavorites.bytes(at: engine.store.generations.current)
        else { return nil }
        return .json(status: 200, body: bytes)
    }

    private func route(_ r: ControlRequest) async throws -> ControlResponse {
        let s = r.segments.map(String.init)
        guard s.first == "v1" else { throw ServiceError.notFound("unknown path \(r.path): the API lives under /v1/") }
        let path = Array(s.dropFirst())
        // Logged out, the daemon answers only status, init, login and logout.
        // A new device joins its person before it has an identity (`POST /v1/devices/join`).
        if !["status", "init", "login", "logout"].contains(path.first ?? ""), path != ["devices", "join"] {
            try await engine.requireLogin()
        }
        if let section = path.first, DeviceRoutes.sections.contains(section),
            let response = try await DeviceRoutes.route(engine, r, path)
        {
            return response
        }
        if let section = path.first, SocialRoutes.sections.contains(section),
            let response = try await SocialRoutes.route(engine, r, path)
        {
            return response
        }
        if let section = path.first, MessageRoutes.sections.contains(section),
            let response = try await MessageRoutes.route(engine, r, path)
        {
            return response
        }
        if let section = path.first, DiscoverRoutes.sections.contains(section),
            let response = try await DiscoverRoutes.route(engine, r, path)
        {
            return response
        }
        if let section = path.first, DestinationRoutes.sections.contains(section),
            let response = try await DestinationRoutes.route(engine, r, path)
        {
            return response
        }
        if let section = path.first, ["explore", "saved", "itineraries"].contains(section),
            let response = try await ExploreRoutes.route(engine, r, path)
        {
            return response
        }
        switch (r.method, path.count, path.first) {
        case ("GET", 1, "status"): return .encoding(await engine.status())
        case ("POST", 1, "init"):
            return .encoding(try await engine.initialize(try r.decode(InitRequest.self)), status: 201)
        case ("POST", 1, "login"):
            let body = r.body.isEmpty ? LoginRequest(passphrase: nil) : try r.decode(LoginRequest.self)
            return .encoding(try await engine.login(passphrase: body.passphrase))
        case ("POST", 1, "logout"): return .encoding(await engine.logout())
        case ("GET", 1, "profile"): return .encoding(try await engine.profile())
        // Relays (Protocol/relay.md §5)
        case ("POST", 1, "relays"):
            return .encoding(try await engine.addRelay(try r.decode(RelayAddRequest.self)), status: 201)
        case ("GET", 1, "relays"): return .encoding(try await engine.relayList())
        case ("DELETE", 2, "relays"):
            try await engine.removeRelay(path[1])
            return .json(status: 204, body: [])
        case (_, _, "relay"):
            throw ServiceError.conflict(
                "not-a-relay", "this is a person's daemon: /v1/relay answers on a relay (placesd --relay)")
        case ("GET", 1, "events"):
            return .stream(await engine.subscribe())
        // Places
        case ("GET", 1, "places"): return .encoding(try await engine.places())
        case ("POST", 1, "places"): return .encoding(try await engine.createPlace(try Self.object(r)), status: 201)
        case ("POST", 2, "places") where path[1] == "import":
            return .encoding(try await engine.importPlaces(r.body, mediaType: r.contentType))
        case ("GET", 2, "places") where path[1] == "export":
            return try await engine.exportPlaces(format: r.query["format"])
        case ("GET", 2, "places"): return .encoding(try await engine.place(path[1]))
        case ("POST", 3, "places") where path[2] == "photos":
            return .encoding(try await engine.addPlacePhoto(path[1], try Self.object(r)), status: 201)
        case ("DELETE", 4, "places") where path[2] == "photos":
            return .encoding(try await engine.removePlacePhoto(path[1], photo: path[3]))
        case ("PATCH", 2, "places"): return .encoding(try await engine.updatePlace(path[1], try Self.object(r)))
        case ("DELETE", 2, "places"):
            try await engine.deletePlace(path[1])
            return .json(status: 204, body: [])
        // Favorites
        case ("GET", 1, "favorites"): return .json(status: 200, body: try await engine.favoritesJSON())
        case ("GET", 2, "favorites") where path[1] == "sharing":
            return .encoding(try await engine.favoriteSharingSetting())
        case ("PUT", 2, "favorites") where path[1] == "sharing":
            return .encoding(try await engine.setFavoriteSharing(try Self.object(r)))
        case ("POST", 1, "favorites"):
            return .encoding(try await engine.addFavorite(try r.decode(AddFavoriteRequest.self)), status: 201)
        case ("POST", 3, "favorites") where path[2] == "move":
            return .encoding(try await engine.moveFavorite(path[1], to: try r.decode(MoveRequest.self).position))
        case ("DELETE", 2, "favorites"):
            try await engine.removeFavorite(path[1])
            return .json(status: 204, body: [])
        // Itineraries
        case ("GET", 1, "itineraries"): return .encoding(try await engine.itineraries(scope: r.query["scope"]))
        case ("POST", 1, "itineraries"):
            return .encoding(try await engine.createItinerary(try Self.object(r)), status: 201)
        case ("GET", 2, "itineraries"): return .jsonParts(status: 200, body: try await engine.viewItinerary(path[1]))
        case ("PATCH", 2, "itineraries"):
            return .jsonParts(status: 200, body: try await engine.updateItinerary(path[1], try Self.object(r)))
        case ("DELETE", 2, "itineraries"):
            try await engine.deleteItinerary(path[1])
            return .json(status: 204, body: [])
        case ("GET", 3, "itineraries") where path[2] == "activity":
            return .encoding(try await engine.activity(path[1]))
        case ("POST", 3, "itineraries") where path[2] == "places":
            return .encoding(try await engine.addStop(path[1], try r.decode(AddStopRequest.self)), status: 201)
        case ("DELETE", 4, "itineraries") where path[2] == "places":
            return .encoding(try await engine.removeStop(path[1], stop: path[3]))
        case ("POST", 5, "itineraries") where path[2] == "places" && path[4] == "move":
            return .encoding(try await engine.moveStop(path[1], stop: path[3], try Self.object(r)))
        // Trip folder
        case ("GET", 3, "itineraries") where path[2] == "items":
            return .encoding(try await engine.items(path[1], type: r.query["type"]))
        case ("POST", 3, "itineraries") where path[2] == "items":
            return .encoding(try await engine.createItem(path[1], try Self.object(r)), status: 201)
        case ("GET", 4, "itineraries") where path[2] == "items":
            return .encoding(try await engine.item(path[1], item: path[3]))
        case ("PATCH", 4, "itineraries") where path[2] == "items":
            return .encoding(try await engine.updateItem(path[1], item: path[3], try Self.object(r)))
        case ("DELETE", 4, "itineraries") where path[2] == "items":
            try await engine.deleteItem(path[1], item: path[3])
            return .json(status: 204, body: [])
        case ("POST", 5, "itineraries") where path[2] == "items" && path[4] == "move":
            return .encoding(try await engine.moveItem(path[1], item: path[3], try Self.object(r)))
        case ("GET", 3, "itineraries") where path[2] == "days":
            return .json(status: 200, body: try await engine.days(path[1]))
        case ("GET", 4, "itineraries") where path[2] == "days":
            return .encoding(try await engine.day(path[1], day: path[3]))
        case ("GET", 3, "itineraries") where path[2] == "warnings":
            return .json(status: 200, body: try await engine.warnings(path[1]))
        case ("GET", 3, "itineraries") where path[2] == "calendar":
            return try await engine.calendar(path[1])
        case ("GET", 3, "itineraries") where path[2] == "checklist":
            return .encoding(try await engine.checklist(path[1]))
        case ("POST", 3, "itineraries") where path[2] == "checklist":
            return .encoding(try await engine.addChecklistItem(path[1], try Self.object(r)), status: 201)
        case ("PATCH", 4, "itineraries") where path[2] == "checklist":
            return .encoding(try await engine.updateChecklistItem(path[1], item: path[3], try Self.object(r)))
        case ("DELETE", 4, "itineraries") where path[2] == "checklist":
            try await engine.removeChecklistItem(path[1], item: path[3])
            return .json(status: 204, body: [])
        case ("POST", 5, "itineraries") where path[2] == "checklist" && path[4] == "move":
            return .encoding(
                try await engine.moveChecklistItem(path[1], item: path[3], to: try r.decode(MoveRequest.self).position))
        case ("POST", 3, "itineraries") where path[2] == "share":
            return .encoding(try await engine.share(path[1], try r.decode(ShareRequest.self)))
        case ("GET", 3, "itineraries") where path[2] == "members":
            return .encoding(try await engine.members(path[1]))
        case ("DELETE", 4, "itineraries") where path[2] == "members":
            return .encoding(try await engine.removeMember(path[1], member: path[3]))
        case ("POST", 3, "itineraries") where path[2] == "links":
            return .encoding(try await engine.createLink(path[1], try r.decode(LinkRequest.self)), status: 201)
        case ("DELETE", 4, "itineraries") where path[2] == "links":
            return .encoding(try await engine.revokeLink(path[1], link: path[3]))
        case ("POST", 1, "join"): return .encoding(try await engine.join(try r.decode(JoinRequest.self)))
        case ("GET", 1, "invitations"): return .encoding(try await engine.invitations())
        case ("POST", 3, "invitations") where path[2] == "accept":
            return .encoding(try await engine.acceptInvitation(path[1]))
        case ("POST", 3, "invitations") where path[2] == "decline":
            return .encoding(try await engine.declineInvitation(path[1]))
        case ("GET", 1, "contacts"): return .encoding(try await engine.contactList())
        case ("GET", 2, "contacts"): return .encoding(try await engine.contactProfile(path[1]))
        case ("POST", 1, "contacts"):
            return .encoding(try await engine.addContact(try r.decode(AddContactRequest.self)))
        case ("DELETE", 2, "contacts"): return .encoding(try await engine.removeContact(path[1]))
        case ("GET", 1, "peers"): return .json(status: 200, body: await engine.peersView().jsonBytes())
        case ("POST", 1, "peers"): return .encoding(try await engine.addPeer(try r.decode(AddPeerRequest.self)))
        case (_, 3...4, "itineraries") where ExpenseRoutes.sections.contains(path[2]):
            return try await ExpenseRoutes.route(engine, r, path)
        case ("GET", 3, "itineraries") where path[2] == "route":
            return try await RouteService.route(engine, path[1], query: r.query)
        case ("POST", 4, "itineraries") where path[2] == "route" && path[3] == "apply":
            return .encoding(try await RouteService.apply(engine, path[1], query: r.query))
        case ("POST", 2, "maintenance") where path[1] == "rebuild":
            return .encoding(try await engine.rebuild())
        case ("POST", 2, "routes") where path[1] == "solve":
            return try RouteService.solve(r.body)
        case ("GET", 1, "nearby"):
            return .json(status: 200, body: try await engine.nearbyBody(r.query))
        case ("PUT", 1, "out"): return .encoding(try await engine.putOut(try Router.object(r)))
        case ("DELETE", 1, "out"): return .encoding(try await engine.stopOut())
        case ("GET", 1, "out"): return .encoding(try await engine.outList(r.query))
        case ("POST", 1, "plans"):
            return try await PlanRoutes.plan(engine, try Router.object(r))
        case ("POST", 2, "plans") where path[1] == "solve":
            return try PlanSolveService.solve(r.body)
        default:
            throw ServiceError(
                .noRoute, "\(r.method) \(r.path) is not part of the API; see Protocol/control-api.yaml")
        }
    }

    /// A request body that must be a JSON object (the expense routes read theirs here too).
    static func object(_ r: ControlRequest) throws -> [String: JSONValue] {
        guard case .object(let o) = try r.decode(JSONValue.self) else {
            throw ServiceError.malformed("the body must be a JSON object")
        }
        return o
    }
}

extension Engine {
    func subscribe() -> AsyncStream<[UInt8]> {
        events.subscribe(
            hello: Event(
                type: "hello", time: RFC3339.string(ms: RFC3339.nowMs()), summary: "subscribed to placesd events"))
    }
}

extension ControlResponse {
    /// `value` written by `JSONValue.write`: compact with keys sorted, the bytes
    /// `ControlJSON.encoder` writes for it (whole numbers are `.int` by `JSONValue.number`),
    /// at a fraction of Foundation's cost, which on a page of 50 messages was more than the
    /// reading.
    static func written(_ value: JSONValue, status: Int = 200) -> ControlResponse {
        var out = [UInt8]()
        out.reserveCapacity(16 << 10)
        value.write(to: &out)
        return .json(status: status, body: out)
    }
}
