import PlacesAccess
import PlacesCrypto

/// A share link being redeemed by this daemon (`POST /v1/join`): the token, who was asked,
/// where the join stands (`JoinState`) and the request waiting for the outcome.
struct PendingJoin {
    var token: CapabilityToken
    /// Fresh for each join: a holder's proof covers it, so a proof cannot be replayed.
    var nonce = SecureRandom.bytes(JoinProof.nonceBytes)
    /// Peers the token was presented to.
    var asked: Set<PublicKey> = []
    /// Link addresses this join started dialling (forgotten once it ends).
    var dialled: [(host: String, port: Int)] = []
    /// Where the join stands.
    var state = JoinState.presenting
    /// The `POST /v1/join` request, once it waits.
    var waiter: CheckedContinuation<JoinOutcome, Never>?

    /// The peer that let this daemon in (its offer carried the document); setting it admits.
    var admittedBy: PublicKey? {
        get { state.admittedBy }
        set { if let newValue { state.admit(by: newValue) } }
    }

    /// The outcome, when it came before the request started waiting (a refusal can arrive
    /// while `join` is still presenting the token).
    var outcome: JoinOutcome? { state.outcome }
}
