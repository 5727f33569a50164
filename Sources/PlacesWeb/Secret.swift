/// Random secrets (the URL's token, session ids, CSRF tokens) and their comparison.
enum Secret {
    /// 32 bytes from `random`, in unpadded base64url: 43 characters safe in a URL and a cookie.
    static func make(using random: inout some RandomNumberGenerator) -> String {
        var bytes = [UInt8]()
        bytes.reserveCapacity(32)
        for _ in 0..<4 {
            withUnsafeBytes(of: random.next()) { bytes += $0 }
        }
        return base64URL(bytes)
    }

    /// Compares two secrets in time that depends only on their lengths, so a wrong guess
    /// does not tell how many leading characters were right.
    static func equal(_ a: String, _ b: String) -> Bool {
        let x = Array(a.utf8)
        let y = Array(b.utf8)
        guard x.count == y.count else { return false }
        var difference: UInt8 = 0
        for i in x.indices { difference |= x[i] ^ y[i] }
        return difference == 0
    }

    /// Unpadded base64url (RFC 4648 §5).
    static func base64URL(_ bytes: [UInt8]) -> String {
        let alphabet = Array("ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789-_".utf8)
        var out = [UInt8]()
        out.reserveCapacity((bytes.count * 4 + 2) / 3)
        var i = 0
        while i < bytes.count {
            let b0 = UInt32(bytes[i])
            let b1 = i + 1 < bytes.count ? UInt32(bytes[i + 1]) : 0
            let b2 = i + 2 < bytes.count ? UInt32(bytes[i + 2]) : 0
            let triple = b0 << 16 | b1 << 8 | b2
            let available = min(bytes.count - i, 3) + 1
            for k in 0..<available { out.append(alphabet[Int((triple >> (18 - 6 * UInt32(k))) & 63)]) }
            i += 3
        }
        return String(decoding: out, as: UTF8.self)
    }
}

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
