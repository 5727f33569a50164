import Testing

@testable import PlacesDaemon

/// What a client sees for each service error: the status, `code` and `title` that scripts
/// and the CLI match on, unchanged since they were written out at each throw.
@Suite("Service errors as HTTP problems")
struct ServiceErrorTests {
    static let cases: [(ServiceError.Code, Int, String, String)] = [
        (.invalidField, 400, "invalid-field", "Invalid field"),
        (.malformedRequest, 400, "malformed-request", "Malformed request"),
        (.notFound, 404, "not-found", "Not found"),
        (.noRoute, 404, "no-route", "No such route"),
        (.loggedOut, 401, "logged-out", "Logged out"),
        (.notInitialized, 401, "not-initialized", "No identity"),
        (.nothingToUnlock, 409, "not-initialized", "No identity"),
        (.wrongPassphrase, 401, "wrong-passphrase", "Wrong passphrase"),
        (.conflict("already-member"), 409, "already-member", "Conflict"),
        (.notOwner, 403, "not-owner", "Forbidden"),
        (.readOnly, 403, "read-only", "Read-only"),
        (.viewerCannotShare, 403, "read-only", "Forbidden"),
        (.link(.malformed), 400, "invalid-link", "Invalid link"),
        (.link(.wrongDocument), 400, "invalid-link", "Invalid link"),
        (.link(.expired), 410, "link-expired", "Link no longer valid"),
        (.link(.usedUp), 410, "link-used-up", "Link no longer valid"),
        (.link(.revoked), 410, "link-revoked", "Link revoked"),
        (.link(.badSignature), 403, "link-forged", "Forged link"),
        (.link(.notYetValid), 403, "link-refused", "Link refused"),
        (.link(.wrongAudience), 403, "link-refused", "Link refused"),
        (.link(.notAllowed), 403, "link-refused", "Link refused"),
        (.invitationInvalid, 410, "invitation-invalid", "Invitation no longer valid"),
        (.notAdmitted, 502, "not-admitted", "Not admitted"),
        (.noMemberReachable, 504, "no-member-reachable", "No member reachable"),
        (.invalidRoute, 400, "invalid-route", "Invalid route request"),
        (.unsupportedMediaType, 415, "unsupported-media-type", "Unsupported media type"),
        (.failure("store", title: "Could not save"), 500, "store", "Could not save"),
    ]

    @Test("each code answers with its status, code and title", arguments: 0..<cases.count)
    func mapping(index: Int) {
        let (code, status, name, title) = Self.cases[index]
        let problem = ServiceError(code, "what to do next", field: "name").problem
        #expect(problem.status == status)
        #expect(problem.code == name)
        #expect(problem.title == title)
        #expect(problem.type == "https://places.invalid/problems/\(name)")
        #expect(problem.detail == "what to do next")
        #expect(problem.field == "name")
    }

    @Test("logged out says what to run")
    func loggedOut() {
        let problem = ServiceError.loggedOut.problem
        #expect(problem.status == 401)
        #expect(problem.detail == "the daemon is logged out: run `places login` first")
    }
}
