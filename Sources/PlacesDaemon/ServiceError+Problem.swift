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
        self.init(status: status, code: code, title: title, detail: error.message, field: error.field)
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
