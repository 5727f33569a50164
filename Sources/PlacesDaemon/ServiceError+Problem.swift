import PlacesAPI

/// The one place where a service's error becomes HTTP: status, problem code and title for
/// each `ServiceError.Code`. Codes and titles are part of the API (`Protocol/control-api.yaml`)
/// and scripts match on them: change none.
extension Problem {
    init(_ error: ServiceError) {
        let (status, code, title): (Int, String, String) =
            switch error.code {
            case .invalidField: (400, "invalid-field", "Invalid field")
            case .malformedRequest: (400, "malformed-request", "Malformed request")
            case .notFound: (404, "not-found", "Not found")
            case .noRoute: (404, "no-route", "No such route")
            case .loggedOut: (401, "logged-out", "Logged out")
            case .notInitialized: (401, "not-initialized", "No identity")
            case .nothingToUnlock: (409, "not-initialized", "No identity")
            case .wrongPassphrase: (401, "wrong-passphrase", "Wrong passphrase")
            case .conflict(let code): (409, code, "Conflict")
            case .notOwner: (403, "not-owner", "Forbidden")
            case .readOnly: (403, "read-only", "Read-only")
            case .viewerCannotShare: (403, "read-only", "Forbidden")
            case .link(let access):
                switch access {
                case .malformed, .wrongDocument: (400, "invalid-link", "Invalid link")
                case .expired: (410, "link-expired", "Link no longer valid")
                case .usedUp: (410, "link-used-up", "Link no longer valid")
                case .revoked: (410, "link-revoked", "Link revoked")
                case .badSignature: (403, "link-forged", "Forged link")
                case .notYetValid, .wrongAudience, .notAllowed: (403, "link-refused", "Link refused")
                }
            case .invitationInvalid: (410, "invitation-invalid", "Invitation no longer valid")
            case .notAdmitted: (502, "not-admitted", "Not admitted")
            case .noMemberReachable: (504, "no-member-reachable", "No member reachable")
            case .invalidRoute: (400, "invalid-route", "Invalid route request")
            case .badQuery: (400, "bad-query", "Bad query")
            case .unknownGazetteerID: (400, "unknown-gazetteer-id", "Unknown gazetteer id")
            case .unsupportedMediaType: (415, "unsupported-media-type", "Unsupported media type")
            case .forbidden: (403, "forbidden", "Forbidden")
            case .notAdmin: (403, "not-admin", "Not a device that manages devices")
            case .noDeviceReachable: (504, "no-device-reachable", "No device reachable")
            case .pairingRefused: (403, "pairing-refused", "Pairing refused")
            case .tooLarge: (413, "too-large", "Too large")
            case .relayUnreachable: (504, "relay-unreachable", "Relay unreachable")
            case .stillSyncing: (409, "still-syncing", "Still receiving your data")
            case .failure(let code, let title): (500, code, title)
            }
        self.init(
            status: status, code: code, title: title, detail: Self.bounded(error.message, bytes: Self.maxDetailBytes),
            field: error.field.map { Self.bounded($0, bytes: Self.maxFieldBytes) })
    }

    /// The most bytes of a problem's `detail` and `field`. Messages quote the input with
    /// `prefix(n)`, a count of characters (graphemes): 'a' with 30,000 combining accents is
    /// one character of 60 KB, and an unknown field's name is the client's, whole.
    static let maxDetailBytes = 2_000
    static let maxFieldBytes = 200

    /// `text`, cut to at most `bytes` UTF-8 bytes (at a scalar, with "…") when longer.
    static func bounded(_ text: String, bytes: Int) -> String {
        guard text.utf8.count > bytes else { return text }
        var out = String.UnicodeScalarView()
        var used = 3  // "…"
        for scalar in text.unicodeScalars {
            used += String(scalar).utf8.count
            guard used <= bytes else { break }
            out.append(scalar)
        }
        return String(out) + "…"
    }

    /// Any error a route handler lets out: a service's error mapped above, a problem the
    /// request decoding or field rules already made, anything else as an internal failure.
    static func from(_ error: any Error) -> Problem {
        switch error {
        case let error as ServiceError: Problem(error)
        case let problem as Problem: problem
        default: Problem(status: 500, code: "internal", title: "Internal error", detail: "\(error)")
        }
    }
}

extension ServiceError {
    /// This error as the client sees it.
    var problem: Problem { Problem(self) }
}
