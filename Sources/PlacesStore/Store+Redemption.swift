import Foundation
import GRDB
import PlacesAccess
import PlacesCrypto
import PlacesModel

/// Redeeming a capability token (`Protocol/capabilities.md` §4): the parts of an admission
/// or legacy join op, and the checks of the token at the op's causal point and time.
extension Store {
    /// The parts of a `join` op: a member's create of its own `member` entity with `role` and
    /// `token` (`Protocol/capabilities.md` §4) — or of an admission, the same changes written
    /// by a member who lets the token's holder in.
    struct JoinChanges {
        var role: String
        var token: String
        /// The member written: the author for a join, the joiner for an admission.
        var member: String = ""

        init?(_ body: OpBody, author: String) {
            self.init(body, member: author)
        }

        /// An admission: `create` + `role` + `token` of one `member` entity other than the author.
        init?(admission body: OpBody, author: String) {
            guard let first = body.changes.first?.entity, first != author else { return nil }
            self.init(body, member: first)
        }

        private init?(_ body: OpBody, member author: String) {
            member = author
            var role: String?, token: String?, created = false
            for change in body.changes {
                guard change.entity == author, change.kind == .member else { return nil }
                switch change {
                case .create: created = true
                case .set(_, _, "role", .string(let value), _): role = value
                case .set(_, _, "token", .string(let value), _): token = value
                case .set(_, _, "name", .string(let value), _) where value.count <= 100: continue
                default: return nil
                }
            }
            guard created, let role, let token else { return nil }
            self.role = role
            self.token = token
        }
    }

    static func joinRefusal(
        _ db: Database, _ join: JoinChanges, header: OpHeader, body: OpBody, owner: String,
        causalPast: VersionVector
    ) throws -> String? {
        let token: CapabilityToken
        do {
            token = try CapabilityToken(base64url: join.token)
        } catch {
            return "join: \(error)"
        }
        guard let author = try? PublicKey(bytes: header.author) else { return "join: the author key is invalid" }
        guard token.role.rawValue == join.role else { return "join: the role written is not the token's" }
        // A join op's deps and time are its author's own claims: from this version on, links
        // are redeemed through a member's admission instead (below). Joins with links made
        // before it are still accepted, so that existing histories stay valid.
        guard token.notBeforeMs < admissionsFromMs else {
            return "join: a link made since \(admissionsFrom) is redeemed through a member's admission, not a join op"
        }
        return try redemptionRefusal(
            db, token, doc: header.doc, joiner: author, timeMs: body.timeMs, owner: owner, causalPast: causalPast
        ).map { "join: \($0)" }
    }

    /// Links whose `not_before` is at or after this instant (2026-11-24T18:00:00Z) are
    /// redeemed only through an admission (`Protocol/capabilities.md` §4).
    public static let admissionsFromMs: Int64 = 1_795_543_200_000
    static let admissionsFrom = "2026-11-24T18:00Z"

    /// An admission by an editor (the owner may write anything): the token must be a viewer
    /// link and pass every check of `capabilities.md` §4 for the member it writes, at the
    /// admitting op's causal point and time — the admitting member's, not the joiner's.
    static func admissionRefusal(
        _ db: Database, _ admission: JoinChanges, authorRole: String, header: OpHeader, body: OpBody, owner: String,
        causalPast: VersionVector
    ) throws -> String? {
        guard authorRole == "editor" else { return "admission: only the owner and editors let link holders in" }
        let token: CapabilityToken
        do {
            token = try CapabilityToken(base64url: admission.token)
        } catch {
            return "admission: \(error)"
        }
        guard token.role == .viewer, admission.role == "viewer" else {
            return "admission: editors let viewer links in only"
        }
        guard let raw = HexCoding.decode(admission.member), let joiner = try? PublicKey(bytes: raw) else {
            return "admission: the member is not a key"
        }
        // An admission lets a link holder in; it never changes the role of a member (an editor
        // would otherwise demote another editor to viewer with a link of its own).
        if try role(db, of: joiner.hex, in: header.doc, owner: owner, causalPast: causalPast) != nil {
            return "admission: \(joiner.humanID.prefix(7)) is a member already"
        }
        return try redemptionRefusal(
            db, token, doc: header.doc, joiner: joiner, timeMs: body.timeMs, owner: owner, causalPast: causalPast
        ).map { "admission: \($0)" }
    }

    /// The checks of `Protocol/capabilities.md` §4 for `joiner` redeeming `token` at `timeMs`
    /// with `causalPast` known: nil when it may, else the refusal (an `AccessError`).
    static func redemptionRefusal(
        _ db: Database, _ token: CapabilityToken, doc: DocumentID, joiner: PublicKey, timeMs: Int64, owner: String,
        causalPast: VersionVector
    ) throws -> AccessError? {
        do { try token.check(nowMs: timeMs, presenter: joiner) } catch { return error }
        guard token.doc == doc else { return AccessError(.wrongDocument, "the link is for another itinerary") }
        let issuer = token.issuer.hex
        if issuer != owner {
            let issuerRole = try role(db, of: issuer, in: doc, owner: owner, causalPast: causalPast)
            guard issuerRole == "editor", token.role == .viewer else {
                return AccessError(
                    .notAllowed,
                    "whoever made the link could not grant \(token.role.rawValue) rights (only the owner makes editor "
                        + "links, and editors viewer links): ask the owner for a new link")
            }
        }
        if try isRevoked(db, token: token.id, in: doc, owner: owner, causalPast: causalPast) {
            return AccessError(.revoked, "the link was revoked by the itinerary's owner")
        }
        // Removal is sticky: a member the owner removed comes back only through the owner —
        // re-added by id, or with a link the owner made after the removal.
        let ownerEvents = try events(db, doc: doc, member: joiner.hex).filter {
            $0.person == owner && causalPast.covers($0.author, $0.seq)
        }
        // `notBeforeMs + allowance <= removal time`, written so that no token value overflows.
        if let last = ownerEvents.max(by: { $0.stamp < $1.stamp }), last.role == "removed",
            issuer != owner
                || last.timeMs >= Int64.min + linkClockAllowanceMs
                    && token.notBeforeMs <= last.timeMs - linkClockAllowanceMs
        {
            return AccessError(
                .notAllowed,
                "the itinerary's owner removed you from it; only a new link from the owner (or being added "
                    + "again by id) lets you back in")
        }
        if let uses = token.uses {
            var used = 0
            var select = try RawStatement(db, "SELECT author, seq FROM member_event WHERE doc = ? AND token = ?")
            select.bind(doc.bytes)
            select.bind(token.id)
            try select.forEachRow(db) { row in
                if causalPast.covers(row.string(0), UInt64(row.int64(1))) { used += 1 }
            }
            if used >= Int(uses) {
                return AccessError(.usedUp, "the link was already used \(used) of the \(uses) times it allows")
            }
        }
        return nil
    }

    /// Whether `joiner` may redeem `token` now, given everything held of its document (what a
    /// holder checks before letting a joiner fetch the itinerary). Nil when it may.
    public func redemptionRefusal(_ token: CapabilityToken, joiner: PublicKey, nowMs: Int64) throws(StoreError)
        -> AccessError?
    {
        try read { db in
            let owner = try ownerKey(db, token.doc)
            return try Store.redemptionRefusal(
                db, token, doc: token.doc, joiner: joiner, timeMs: nowMs, owner: owner,
                causalPast: try versionVector(db, token.doc))
        }
    }
}
