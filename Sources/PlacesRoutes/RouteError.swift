/// The one error type of `PlacesRoutes`: a stable machine-readable ``code`` and a
/// ``message`` that says what to change in the input.
///
/// Bad input never produces a partial result: every public entry point validates
/// first and throws before doing any work.
public struct RouteError: Error, Sendable, Equatable, CustomStringConvertible {
    /// What went wrong, stable across releases (the raw value is used in API problem documents).
    public enum Code: String, Sendable, Codable, CaseIterable {
        /// A latitude/longitude is NaN, infinite or outside [-90, 90] / [-180, 180].
        case invalidCoordinate
        /// A cost matrix is not square (some row's length differs from the row count).
        case nonSquareMatrix
        /// A cost is negative, NaN or infinite.
        case invalidCost
        /// `start` equals `end` on an open path with more than one place.
        case invalidEndpoints
        /// `start` or `end` is not a valid index (or place id).
        case indexOutOfRange
        /// More places or matrix rows than the documented maximum.
        case tooManyNodes
        /// Two places share the same id.
        case duplicatePlaceID
        /// The time budget is negative.
        case invalidTimeBudget
        /// A day route's time is outside 0…2879 minutes, a timed stop ends before it starts,
        /// a stop is timed twice, or the day's start or end is timed.
        case invalidTime
        /// An external ``TravelMatrixProvider`` failed or returned matrices of the wrong shape.
        case providerFailed
    }

    /// Machine-readable reason.
    public let code: Code
    /// Human-readable explanation that says what to fix.
    public let message: String

    /// Creates an error; `message` should tell the caller what to change.
    public init(_ code: Code, _ message: String) {
        self.code = code
        self.message = message
    }

    /// `"<code>: <message>"`.
    public var description: String { "\(code.rawValue): \(message)" }
}
