import Foundation

/// An RFC 9457 problem document (`application/problem+json`): every error of the control
/// API. `code` is a stable machine-readable name; `detail` says what to fix.
public struct Problem: Error, Codable, Sendable, Equatable, CustomStringConvertible {
    /// A URI naming the problem type (`https://places.invalid/problems/<code>`).
    public var type: String
    /// A short summary of the problem type.
    public var title: String
    /// The HTTP status code.
    public var status: Int
    /// What went wrong with this request and what to do about it.
    public var detail: String
    /// Stable code, e.g. `logged-out`, `invalid-field`, `not-found`.
    public var code: String
    /// The request field at fault, when there is one (`latitude`, `rating`, …).
    public var field: String?

    public init(status: Int, code: String, title: String, detail: String, field: String? = nil) {
        self.type = "https://places.invalid/problems/\(code)"
        self.title = title
        self.status = status
        self.detail = detail
        self.code = code
        self.field = field
    }

    public var description: String { detail }

    /// 400 for a request field that is missing or out of range.
    public static func invalid(_ field: String, _ detail: String) -> Problem {
        Problem(status: 400, code: "invalid-field", title: "Invalid field", detail: detail, field: field)
    }

    /// 400 for a body that is not the JSON expected.
    public static func malformed(_ detail: String) -> Problem {
        Problem(status: 400, code: "malformed-request", title: "Malformed request", detail: detail)
    }

    /// 404 for an unknown id or route.
    public static func notFound(_ detail: String) -> Problem {
        Problem(status: 404, code: "not-found", title: "Not found", detail: detail)
    }

    /// 409 for a request that conflicts with the daemon's state.
    public static func conflict(_ code: String, _ detail: String) -> Problem {
        Problem(status: 409, code: code, title: "Conflict", detail: detail)
    }

    /// 401 while no identity is unlocked.
    public static let loggedOut = Problem(
        status: 401, code: "logged-out", title: "Logged out",
        detail: "the daemon is logged out: run `places login` first")
}
