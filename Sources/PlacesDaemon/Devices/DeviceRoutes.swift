import PlacesAPI
import PlacesControl

/// The control API's routes of a person's devices (issue 29): pairing, joining, listing and
/// revoking, kept out of `Router`'s table. Every route is listed in `Protocol/control-api.yaml`.
enum DeviceRoutes {
    static let sections: Set<String> = ["devices"]

    /// `path` is the request's path after `/v1`; nil when the route is not one of these.
    static func route(_ engine: Engine, _ r: ControlRequest, _ path: [String]) async throws -> ControlResponse? {
        switch (r.method, path.count) {
        case ("POST", 2) where path[1] == "join":
            return .encoding(try await engine.joinAsDevice(try r.decode(DeviceJoinRequest.self)), status: 202)
        case ("GET", 1): return .encoding(try await engine.deviceList())
        case ("DELETE", 2): return .encoding(try await engine.revokeDevice(path[1]))
        case ("POST", 2) where path[1] == "pairings":
            let body = r.body.isEmpty ? PairingRequest() : try r.decode(PairingRequest.self)
            return .encoding(try await engine.createPairing(body), status: 201)
        case ("GET", 2) where path[1] == "pairings": return .encoding(try await engine.pairingList())
        case ("POST", 4) where path[1] == "pairings" && path[3] == "confirm":
            return .encoding(try await engine.confirmPairing(path[2], try r.decode(PairingConfirmation.self)))
        default: return nil
        }
    }
}
