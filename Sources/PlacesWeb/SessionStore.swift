/// The app's sessions: made when the URL's token is exchanged, held in memory only, at
/// most `capacity` of them (the oldest is forgotten first). Each has a CSRF token that the
/// page sends back with every state-changing request.
actor SessionStore {
    /// One browser's session.
    struct Session: Sendable {
        /// The value of the HttpOnly `places_session` cookie.
        var id: String
        /// The value of the readable `places_csrf` cookie, expected in `X-Places-CSRF`.
        var csrfToken: String
    }

    /// How many sessions are kept.
    let capacity: Int
    private var sessions: [Session] = []
    private var random: any RandomNumberGenerator & Sendable

    /// - Parameters:
    ///   - capacity: the most sessions held at once.
    ///   - random: the source of session ids and CSRF tokens (a cryptographic one outside tests).
    init(capacity: Int = 64, random: any RandomNumberGenerator & Sendable = SystemRandomNumberGenerator()) {
        self.capacity = max(1, capacity)
        self.random = random
    }

    /// Opens a new session, forgetting the oldest one beyond the capacity.
    func open() -> Session {
        let session = Session(id: Secret.make(using: &random), csrfToken: Secret.make(using: &random))
        sessions.append(session)
        if sessions.count > capacity { sessions.removeFirst(sessions.count - capacity) }
        return session
    }

    /// The session whose id is one of `candidates` (the `places_session` cookies a request
    /// carries), comparing every stored id in constant time.
    func session(amongIDs candidates: [String]) -> Session? {
        var found: Session?
        for candidate in candidates.prefix(4) {
            for session in sessions where Secret.equal(session.id, candidate) { found = session }
        }
        return found
    }
}
