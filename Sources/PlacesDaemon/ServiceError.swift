import PlacesAccess
import PlacesRoutes
import PlacesStore

/// Why a daemon service refused or failed a request: what went wrong (`code`), what to do
/// next (`message`), the request field at fault and the underlying error. Services throw it;
/// the router alone turns it into an HTTP status and a problem document
/// (`Problem(_:)` in `ServiceError+Problem.swift`).
struct ServiceError: Error, Sendable, CustomStringConvertible {
    /// What went wrong, one case per answer a client can tell apart.
    enum Code: Sendable, Equatable {
        /// A request field is missing or out of range.
        case invalidField
        /// The body is not the JSON expected.
        case malformedRequest
        /// An unknown id.
        case notFound
        /// A method and path the API does not have.
        case noRoute
        /// No identity is unlocked.
        case loggedOut
        /// No identity exists yet (any request but `init`, `login` and `status`).
        case notInitialized
        /// `login` with no identity to unlock.
        case nothingToUnlock
        /// The passphrase does not open the key file.
        case wrongPassphrase
        /// The request conflicts with the daemon's state; the string is the problem code
        /// (`already-initialized`, `already-member`, …).
        case conflict(String)
        /// Only the itinerary's owner may do this.
        case notOwner
        /// A viewer (or former member) tried to change an itinerary.
        case readOnly
        /// A viewer tried to share an itinerary through a link.
        case viewerCannotShare
        /// A share link is refused, expired, used up, revoked, forged or malformed.
        case link(AccessError.Code)
        /// A pending invitation's key no longer opens with this identity.
        case invitationInvalid
        /// A member sent the itinerary without this daemon's membership.
        case notAdmitted
        /// No member let this daemon in before the join's wait ran out.
        case noMemberReachable
        /// A route request the solver refuses.
        case invalidRoute
        /// A discover query parameter is out of its bounds (400 `bad-query`, `field` names it).
        case badQuery
        /// A `gazetteerId` this build's gazetteer does not hold (400 `unknown-gazetteer-id`).
        case unknownGazetteerID
        /// A body in a media type the route does not take (an import file, a file that is not
        /// an image).
        case unsupportedMediaType
        /// Someone other than who may do it (a post's author, a comment's author).
        case forbidden
        /// Pairing and revoking devices need a device that may manage devices.
        case notAdmin
        /// No device of the code's person answered a `places device join` in time.
        case noDeviceReachable
        /// The device that made a pairing code refused it (unknown, used, expired).
        case pairingRefused
        /// A body over its size cap (a photo over 20 MiB).
        case tooLarge
        /// No session with a relay could be opened to redeem its link.
        case relayUnreachable
        /// A device paired moments ago has not received its person's library yet.
        case stillSyncing
        /// The daemon failed (storage, keys, files): the string is the problem code
        /// (`store`, `crypto`, `io`, `internal`, `no-key`), `title` says what failed.
        case failure(String, title: String)
    }

    var code: Code
    /// What went wrong with this request and what to do about it (the problem's `detail`).
    var message: String
    /// The request field at fault, when there is one.
    var field: String?
    /// The error underneath (a store, crypto or file error), for the log.
    var cause: (any Error)?

    init(_ code: Code, _ message: String, field: String? = nil, cause: (any Error)? = nil) {
        self.code = code
        self.message = message
        self.field = field
        self.cause = cause
    }

    var description: String { message }

    /// A request field that is missing or out of range.
    static func invalid(_ field: String, _ message: String) -> ServiceError {
        ServiceError(.invalidField, message, field: field)
    }

    /// A body that is not the JSON expected.
    static func malformed(_ message: String) -> ServiceError { ServiceError(.malformedRequest, message) }

    /// An unknown id.
    static func notFound(_ message: String) -> ServiceError { ServiceError(.notFound, message) }

    /// A request that conflicts with the daemon's state, under its own problem code.
    static func conflict(_ code: String, _ message: String) -> ServiceError { ServiceError(.conflict(code), message) }

    /// No identity is unlocked.
    static let loggedOut = ServiceError(.loggedOut, "the daemon is logged out: run `places login` first")

    /// Only the owner may do `what` ("shares it", "removes members").
    static func notOwner(_ what: String) -> ServiceError {
        ServiceError(.notOwner, "only the itinerary's owner \(what)")
    }

    /// A storage failure.
    static func store(_ title: String, _ message: String, cause: (any Error)? = nil) -> ServiceError {
        ServiceError(.failure("store", title: title), message, cause: cause)
    }

    /// A key or signature failure.
    static func crypto(_ title: String, _ message: String, cause: (any Error)? = nil) -> ServiceError {
        ServiceError(.failure("crypto", title: title), message, cause: cause)
    }

    /// A failure that should not happen.
    static func `internal`(_ title: String, _ message: String) -> ServiceError {
        ServiceError(.failure("internal", title: title), message)
    }

    /// A share link the access rules refuse, at `field`.
    static func link(_ error: AccessError, field: String) -> ServiceError {
        ServiceError(.link(error.code), error.message, field: field, cause: error)
    }

    /// A route request the solver refuses: the field named is the one to fix.
    static func route(_ error: RouteError) -> ServiceError {
        let field: String =
            switch error.code {
            case .invalidCoordinate: "points"
            case .nonSquareMatrix, .invalidCost: "matrix"
            case .invalidEndpoints, .indexOutOfRange: "start"
            case .tooManyNodes: "points"
            case .invalidTimeBudget: "timeBudgetMs"
            default: "route"
            }
        return ServiceError(.invalidRoute, error.message, field: field, cause: error)
    }

    /// Runs a store call, its failure a storage error.
    static func storing<T>(_ body: () throws(StoreError) -> T) throws(ServiceError) -> T {
        do { return try body() } catch { throw ServiceError.store("Storage error", error.message, cause: error) }
    }
}

extension ServiceError {
    /// Whether it is a 404 (something named does not exist).
    var isNotFound: Bool {
        if case .notFound = code { return true }
        return false
    }
}
