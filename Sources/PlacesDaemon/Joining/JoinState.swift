import PlacesAPI
import PlacesCrypto

/// How a share-link join ended: the itinerary is held and joined, or the problem the
/// `POST /v1/join` request answers with.
enum JoinOutcome: Equatable, Sendable {
    case joined
    case failed(Problem)

    init(_ result: Result<Void, Problem>) {
        switch result {
        case .success: self = .joined
        case .failure(let problem): self = .failed(problem)
        }
    }
}

/// Where a share-link join stands (`POST /v1/join`, `Protocol/sync.md` §8.2), as a value:
/// each transition is a pure function of the state and says what the engine must do, so the
/// rules (one outcome per join, an outcome that comes before the request waits is kept for
/// it, one admitting peer) are tested without a network (`JoinStateTests`).
///
///     presenting ──admit──▶ admitted(waiting: false) ──wait──▶ admitted(waiting: true)
///         │ wait                  │ finish                          │ finish
///         ▼                       ▼                                 ▼
///      waiting ──admit──▶ …    decided ──wait──▶ finished      finished
enum JoinState: Equatable, Sendable {
    /// The token is being presented; the request is not waiting yet and no holder let it in.
    case presenting
    /// The request waits for an outcome; no holder let it in yet.
    case waiting
    /// A holder proved it holds the itinerary and sent it: this daemon is catching up.
    case admitted(by: PublicKey, waiting: Bool)
    /// Decided before the request started waiting: the request takes the outcome when it does.
    case decided(JoinOutcome)
    /// Over: the outcome went to the waiting request.
    case finished(JoinOutcome)

    /// What `finish` asks of the engine.
    enum FinishStep: Equatable, Sendable {
        /// Keep the join until the request comes to wait for it.
        case hold
        /// Hand the outcome to the waiting request and forget the join.
        case resume
    }

    /// Whether the join still waits for an outcome (peers may answer it).
    var isOpen: Bool {
        switch self {
        case .presenting, .waiting, .admitted: true
        case .decided, .finished: false
        }
    }

    /// The holder that let this daemon in, while the join is open.
    var admittedBy: PublicKey? {
        if case .admitted(let peer, _) = self { return peer }
        return nil
    }

    /// The outcome, once decided.
    var outcome: JoinOutcome? {
        switch self {
        case .decided(let outcome), .finished(let outcome): outcome
        case .presenting, .waiting, .admitted: nil
        }
    }

    /// A holder's offer was taken: only one peer admits a join, and only while it is open.
    /// Returns whether `peer` is (now) the admitting peer.
    @discardableResult
    mutating func admit(by peer: PublicKey) -> Bool {
        switch self {
        case .presenting: self = .admitted(by: peer, waiting: false)
        case .waiting: self = .admitted(by: peer, waiting: true)
        case .admitted(let by, _): return by == peer
        case .decided, .finished: return false
        }
        return true
    }

    /// The request starts waiting. Returns the outcome when it was decided before (the join
    /// is then over), nil when the request must wait for `finish`.
    mutating func wait() -> JoinOutcome? {
        switch self {
        case .presenting: self = .waiting
        case .admitted(let by, false): self = .admitted(by: by, waiting: true)
        case .decided(let outcome):
            self = .finished(outcome)
            return outcome
        case .waiting, .admitted, .finished: break
        }
        return nil
    }

    /// Decides the join, once: a second outcome (a late refusal, the timeout after success)
    /// changes nothing and returns nil.
    mutating func finish(_ outcome: JoinOutcome) -> FinishStep? {
        switch self {
        case .presenting, .admitted(_, false):
            self = .decided(outcome)
            return .hold
        case .waiting, .admitted(_, true):
            self = .finished(outcome)
            return .resume
        case .decided, .finished:
            return nil
        }
    }
}
