import Foundation
import PlacesAPI
import PlacesAccess
import PlacesCrypto
import PlacesModel
import PlacesStore

/// Sharing an itinerary: members added by id, share links (their terms, state and the
/// members who joined through them), removals and revocations. Reads the store and returns
/// edits; the engine commits them, then grants or rotates keys and tells peers.
struct SharingService {
    let store: Store
    /// The logged-in identity.
    let me: PublicKey
    let itineraries: ItineraryService

    /// Most joins a link may allow.
    static let maxLinkUses = 1_000_000

    /// What a new link allows, checked.
    struct LinkTerms {
        var role: CapabilityRole
        var expiresMs: Int64?
        var uses: Int?
        var audience: PublicKey?
    }

    // MARK: Links

    /// Checks a link request against the caller's role: owners make any link, editors
    /// viewer links only, viewers none.
    func linkTerms(_ doc: Store.DocumentRecord, _ request: LinkRequest, nowMs now: Int64) throws -> LinkTerms {
        guard let role = CapabilityRole(rawValue: request.role) else {
            throw ServiceError.invalid("role", "role must be viewer or editor, not '\(request.role)'")
        }
        let myRole = itineraries.role(in: doc)
        switch (myRole, role) {
        case ("owner", _), ("editor", .viewer): break
        case ("editor", .editor):
            throw ServiceError.notOwner("makes editor links; as an editor you can make viewer links")
        default:
            throw ServiceError(.viewerCannotShare, "you are a \(myRole) of this itinerary: viewers cannot share it")
        }
        var expiresMs: Int64?
        if let text = request.expires {
            guard let ms = SharingService.parseExpiry(text, nowMs: now) else {
                throw ServiceError.invalid(
                    "expires", "'\(text)' is not a duration (30m, 12h, 7d, 2w), a date (2027-05-01) or an RFC 3339 time"
                )
            }
            guard ms > now else { throw ServiceError.invalid("expires", "'\(text)' is in the past") }
            expiresMs = ms
        }
        if let uses = request.uses, !(1...SharingService.maxLinkUses).contains(uses) {
            throw ServiceError.invalid("uses", "uses must be from 1 to \(SharingService.maxLinkUses), not \(uses)")
        }
        var audience: PublicKey?
        if let text = request.audience {
            do { audience = try HumanID.decode(text) } catch {
                throw ServiceError.invalid("audience", "'\(text)' is not a valid id: \(error.message)")
            }
        }
        return LinkTerms(role: role, expiresMs: expiresMs, uses: request.uses, audience: audience)
    }

    /// The op recording a new link (never the token itself: its key stays with the holder).
    func linkCreated(_ token: CapabilityToken, _ terms: LinkTerms, in doc: DocumentID) -> Edit {
        var changes: [Change] = [
            .create(entity: token.id, kind: .link),
            .set(entity: token.id, kind: .link, field: "role", value: .string(terms.role.rawValue), old: nil),
            .set(LinkFields.issuer, of: token.id, to: me.hex),
        ]
        if let expiresMs = terms.expiresMs {
            changes.append(.set(LinkFields.expiresAt, of: token.id, to: RFC3339.string(ms: expiresMs)))
        }
        if let uses = terms.uses {
            changes.append(.set(LinkFields.uses, of: token.id, to: Int64(uses)))
        }
        if let audience = terms.audience {
            changes.append(.set(LinkFields.audience, of: token.id, to: audience.hex))
        }
        return Edit(doc: doc, changes: changes, summary: "\(terms.role.rawValue) link shared")
    }

    /// `30m`, `12h`, `7d`, `2w` from now; `YYYY-MM-DD` (the end of that day, UTC); or an
    /// RFC 3339 time.
    static func parseExpiry(_ text: String, nowMs: Int64) -> Int64? {
        let units: [Character: Int64] = ["m": 60_000, "h": 3_600_000, "d": 86_400_000, "w": 604_800_000]
        if let unit = text.last.flatMap({ units[$0] }), let count = Int64(text.dropLast()),
            (1...100_000).contains(count)
        {
            return nowMs + count * unit
        }
        if text.count == 10, let start = RFC3339.parseDate(text) { return start + 86_400_000 }
        return RFC3339.parse(text)
    }

    /// The itinerary's links with their state.
    func linkInfos(_ doc: Store.DocumentRecord) throws -> [ShareLinkInfo] {
        let links = try ServiceError.storing { () throws(StoreError) in try store.entities(in: doc.id, kind: .link) }
        let joins = linkJoins(doc)
        let now = RFC3339.nowMs()
        return links.map { record in
            let f = Views.fields(record)
            let issuer = f["issuer"]?.stringValue.flatMap(SharingService.publicKey(hex:))
            let expiresAt = f["expiresAt"]?.stringValue
            let uses = f["uses"]?.doubleValue.flatMap { Int(exactly: $0) }
            let members = joins.filter { $0.token == record.id && $0.active }.count
            let redeemed = joins.filter { $0.token == record.id }.count
            let state =
                if f["revoked"] == .bool(true) {
                    "revoked"
                } else if let expiresAt, let ms = RFC3339.parse(expiresAt), ms <= now {
                    "expired"
                } else if let uses, redeemed >= uses {
                    "used-up"
                } else {
                    "live"
                }
            return ShareLinkInfo(
                id: record.id, role: f["role"]?.stringValue ?? "viewer", issuer: issuer?.humanID ?? "",
                createdAt: record.createdMs.map { RFC3339.string(ms: $0) }, expiresAt: expiresAt, uses: uses,
                members: members, state: state,
                audience: f["audience"]?.stringValue.flatMap(SharingService.publicKey(hex:))?.humanID, url: nil)
        }
    }

    /// Current members who joined through a link: member key hex → link id.
    func joinedThrough(_ doc: Store.DocumentRecord) -> [String: String] {
        Dictionary(
            linkJoins(doc).filter(\.active).map { ($0.member, $0.token) }, uniquingKeysWith: { first, _ in first })
    }

    /// Every join through a link the document holds (member key hex, link id, and whether
    /// the member still is one).
    private func linkJoins(_ doc: Store.DocumentRecord) -> [(member: String, token: String, active: Bool)] {
        ((try? store.entities(in: doc.id, kind: .member)) ?? []).compactMap { member in
            let f = Views.fields(member)
            guard let text = f["token"]?.stringValue, let token = try? CapabilityToken(base64url: text) else {
                return nil
            }
            return (member.id, token.id, f["role"]?.stringValue.map(Store.activeRoles.contains) ?? false)
        }
    }

    // MARK: Members

    /// Only the owner shares, removes members and revokes links.
    func requireOwner(_ doc: Store.DocumentRecord, _ what: String) throws {
        guard doc.owner == me.bytes else { throw ServiceError.notOwner(what) }
    }

    /// The owner, then each member with how they came in; and the links.
    func members(_ doc: Store.DocumentRecord, displayName: (PublicKey) -> String) throws -> MemberList {
        let owner = Views.ownerID(doc.owner)
        var list = [Member(id: owner, name: (try? PublicKey(bytes: doc.owner)).map(displayName), role: "owner")]
        let viaLink = joinedThrough(doc)
        for m in try ServiceError.storing({ () throws(StoreError) in try store.members(of: doc.id) }) {
            guard let key = SharingService.publicKey(hex: m.key) else { continue }
            let link = viaLink[m.key]
            list.append(
                Member(
                    id: key.humanID, name: displayName(key), role: m.role, via: link == nil ? "key" : "link",
                    link: link))
        }
        return MemberList(members: list, count: list.count, links: try linkInfos(doc))
    }

    /// The member a share names, and the op giving it the role (nil when it has it already).
    func share(
        _ doc: Store.DocumentRecord, _ request: ShareRequest, displayName: (PublicKey) -> String
    ) throws -> (member: PublicKey, edit: Edit?) {
        try requireOwner(doc, "shares it")
        guard ["editor", "viewer"].contains(request.role) else {
            throw ServiceError.invalid("role", "role must be editor or viewer")
        }
        let member: PublicKey
        do { member = try HumanID.decode(request.member) } catch {
            throw ServiceError.invalid("member", "'\(request.member)' is not a valid id: \(error.message)")
        }
        guard member != me else { throw ServiceError.invalid("member", "you already own this itinerary") }
        let current = try ServiceError.storing { () throws(StoreError) in try store.members(of: doc.id) }
        let old = current.first { $0.key == member.hex }?.role
        guard old != request.role else { return (member, nil) }
        var changes: [Change] = []
        if old == nil { changes.append(.create(entity: member.hex, kind: .member)) }
        changes.append(
            .set(
                entity: member.hex, kind: .member, field: "role", value: .string(request.role),
                old: old.map(JSONValue.string)))
        let summary = "itinerary shared with \(displayName(member)) as \(request.role)"
        return (member, Edit(doc: doc.id, changes: changes, summary: summary))
    }

    /// The op removing a member.
    func removal(
        _ doc: Store.DocumentRecord, member text: String, displayName: (PublicKey) -> String
    ) throws -> (member: PublicKey, edit: Edit) {
        try requireOwner(doc, "removes members")
        let member: PublicKey
        do { member = try HumanID.decode(text) } catch {
            throw ServiceError.invalid("member", "'\(text)' is not a valid id: \(error.message)")
        }
        let current = try ServiceError.storing { () throws(StoreError) in try store.members(of: doc.id) }
        guard let old = current.first(where: { $0.key == member.hex })?.role else {
            throw ServiceError.notFound("\(member.humanID) is not a member of this itinerary")
        }
        let edit = Edit(
            doc: doc.id,
            changes: [
                .set(entity: member.hex, kind: .member, field: "role", value: .string("removed"), old: .string(old))
            ],
            summary: "\(displayName(member)) removed from the itinerary")
        return (member, edit)
    }

    /// The op revoking a link and removing the members who joined through it.
    func revocation(_ doc: Store.DocumentRecord, link: String) throws -> (removed: [PublicKey], edit: Edit) {
        try requireOwner(doc, "revokes links")
        let id = link.lowercased()
        guard let info = try linkInfos(doc).first(where: { $0.id == id }) else {
            throw ServiceError.notFound("this itinerary has no link with id '\(link)' (see `places members`)")
        }
        guard info.state != "revoked" else {
            throw ServiceError.conflict("already-revoked", "link \(id) is already revoked")
        }
        var changes: [Change] = [.set(LinkFields.revoked, of: id, to: true, old: false)]
        let current = Dictionary(
            try ServiceError.storing { () throws(StoreError) in try store.members(of: doc.id) }.map {
                ($0.key, $0.role)
            },
            uniquingKeysWith: { a, _ in a })
        let joinedThroughBefore = joinedThrough(doc).filter { $0.value == id }.keys.sorted()
        for member in joinedThroughBefore {
            changes.append(
                .set(
                    entity: member, kind: .member, field: "role", value: .string("removed"),
                    old: current[member].map(JSONValue.string)))
        }
        return (
            joinedThroughBefore.compactMap(SharingService.publicKey(hex:)),
            Edit(doc: doc.id, changes: changes, summary: "link \(id.prefix(8)) revoked")
        )
    }

    /// A public key from its hex, nil when it is not one.
    static func publicKey(hex: String) -> PublicKey? {
        HexCoding.decode(hex).flatMap { try? PublicKey(bytes: $0) }
    }
}
