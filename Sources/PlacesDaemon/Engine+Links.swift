import Foundation
import PlacesAccess
import PlacesControl
import PlacesCrypto
import PlacesModel
import PlacesStore
import PlacesSync

/// Share links (`Protocol/capabilities.md`): making them, redeeming them over sync,
/// revoking members and links with key rotation, leaving, and recording views.
extension Engine {
    /// Most joins a link may allow.
    static let maxLinkUses = 1_000_000

    // MARK: Making links

    /// `POST /v1/itineraries/{id}/links`.
    func createLink(_ reference: String, _ request: LinkRequest) async throws -> ShareLinkInfo {
        // The one await comes first: from here on every check and the commit run without a
        // suspension, so no other request can change the role, key or login in between.
        let hints = await addressHints()
        let doc = try itineraryDoc(reference)
        guard let identity, let me else { throw ServiceError.loggedOut }
        guard let role = CapabilityRole(rawValue: request.role) else {
            throw ServiceError.invalid("role", "role must be viewer or editor, not '\(request.role)'")
        }
        let myRole = self.role(in: doc)
        switch (myRole, role) {
        case ("owner", _), ("editor", .viewer): break
        case ("editor", .editor):
            throw ServiceError.notOwner("makes editor links; as an editor you can make viewer links")
        default:
            throw ServiceError(.viewerCannotShare, "you are a \(myRole) of this itinerary: viewers cannot share it")
        }
        let now = RFC3339.nowMs()
        var expiresMs: Int64?
        if let text = request.expires {
            guard let ms = Engine.parseExpiry(text, nowMs: now) else {
                throw ServiceError.invalid(
                    "expires", "'\(text)' is not a duration (30m, 12h, 7d, 2w), a date (2027-05-01) or an RFC 3339 time"
                )
            }
            guard ms > now else { throw ServiceError.invalid("expires", "'\(text)' is in the past") }
            expiresMs = ms
        }
        if let uses = request.uses, !(1...Engine.maxLinkUses).contains(uses) {
            throw ServiceError.invalid("uses", "uses must be from 1 to \(Engine.maxLinkUses), not \(uses)")
        }
        var audience: PublicKey?
        if let text = request.audience {
            do { audience = try HumanID.decode(text) } catch {
                throw ServiceError.invalid("audience", "'\(text)' is not a valid id: \(error.message)")
            }
        }
        guard let (epoch, key) = keyringCopy().current(doc.id) else {
            throw ServiceError(.failure("no-key", title: "No key"), "no key is held for this itinerary")
        }
        let token: CapabilityToken
        do {
            let notBefore = now - Store.linkClockAllowanceMs
            token = try CapabilityToken.issue(
                doc: doc.id, role: role, by: identity, audience: audience, notBeforeMs: notBefore,
                expiresMs: expiresMs, uses: request.uses.map(UInt32.init), addressHints: hints,
                epoch: epoch,
                documentKey: key)
        } catch {
            throw ServiceError.invalid("link", error.message)
        }
        var changes: [Change] = [
            .create(entity: token.id, kind: .link),
            .set(entity: token.id, kind: .link, field: "role", value: .string(role.rawValue), old: nil),
            .set(entity: token.id, kind: .link, field: "issuer", value: .string(me.hex), old: nil),
        ]
        if let expiresMs {
            changes.append(
                .set(
                    entity: token.id, kind: .link, field: "expiresAt", value: .string(RFC3339.string(ms: expiresMs)),
                    old: nil))
        }
        if let uses = request.uses {
            changes.append(.set(entity: token.id, kind: .link, field: "uses", value: .number(Double(uses)), old: nil))
        }
        if let audience {
            changes.append(
                .set(entity: token.id, kind: .link, field: "audience", value: .string(audience.hex), old: nil))
        }
        try commit(doc.id, changes, summary: "\(role.rawValue) link shared")
        var info = try linkInfos(doc).first { $0.id == token.id }!
        info.url = ShareLink(token: token).text
        return info
    }

    /// Where peers may reach this daemon, for a token's address hints: the sync listening
    /// port on each non-loopback IPv4 address (loopback when there is no other), at most 4.
    func addressHints() async -> [String] {
        guard let listenAddress, let (host, port) = Engine.parseHostPort(listenAddress, allowZero: true) else {
            return []
        }
        let bound = await sync?.boundPort ?? port
        guard bound > 0 else { return [] }
        if host != "0.0.0.0" && host != "::" {
            return [(host.contains(":") ? "[\(host)]" : host) + ":\(bound)"]
        }
        var addresses = Engine.interfaceAddresses()
        if addresses.isEmpty { addresses = ["127.0.0.1"] }
        return addresses.prefix(4).map { "\($0):\(bound)" }
    }

    /// Non-loopback IPv4 addresses of this host's interfaces that are up.
    static func interfaceAddresses() -> [String] {
        var out = [String]()
        var list: UnsafeMutablePointer<ifaddrs>?
        guard getifaddrs(&list) == 0, let first = list else { return [] }
        defer { freeifaddrs(list) }
        var cursor: UnsafeMutablePointer<ifaddrs>? = first
        while let entry = cursor {
            defer { cursor = entry.pointee.ifa_next }
            let flags = Int32(entry.pointee.ifa_flags)
            guard let addr = entry.pointee.ifa_addr, addr.pointee.sa_family == sa_family_t(AF_INET),
                flags & Int32(IFF_UP) != 0, flags & Int32(IFF_LOOPBACK) == 0
            else { continue }
            var host = [CChar](repeating: 0, count: Int(NI_MAXHOST))
            guard
                getnameinfo(
                    addr, socklen_t(MemoryLayout<sockaddr_in>.size), &host, socklen_t(host.count), nil, 0,
                    NI_NUMERICHOST) == 0
            else { continue }
            out.append(String(decoding: host.prefix { $0 != 0 }.map { UInt8(bitPattern: $0) }, as: UTF8.self))
        }
        return out
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

    // MARK: Members and links

    /// The itinerary's links with their state.
    func linkInfos(_ doc: Store.DocumentRecord) throws -> [ShareLinkInfo] {
        let links = try storeCall { () throws(StoreError) in try store.entities(in: doc.id, kind: .link) }
        let joins = linkJoins(doc)
        let now = RFC3339.nowMs()
        return links.map { record in
            let f = Views.fields(record)
            let issuer = f["issuer"]?.stringValue.flatMap(Engine.publicKey(hex:))
            let expiresAt = f["expiresAt"]?.stringValue
            let uses = f["uses"]?.doubleValue.map { Int($0) }
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
                audience: f["audience"]?.stringValue.flatMap(Engine.publicKey(hex:))?.humanID, url: nil)
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

    /// A public key from its hex, nil when it is not one.
    static func publicKey(hex: String) -> PublicKey? {
        HexCoding.decode(hex).flatMap { try? PublicKey(bytes: $0) }
    }

    // MARK: Revoking

    /// `DELETE /v1/itineraries/{id}/members/{member}`: the owner removes a member and
    /// rotates the document key.
    func removeMember(_ reference: String, member text: String) async throws -> MemberList {
        let doc = try itineraryDoc(reference)
        try requireOwner(doc, "removes members")
        let member: PublicKey
        do { member = try HumanID.decode(text) } catch {
            throw ServiceError.invalid("member", "'\(text)' is not a valid id: \(error.message)")
        }
        let current = try storeCall { () throws(StoreError) in try store.members(of: doc.id) }
        guard let old = current.first(where: { $0.key == member.hex })?.role else {
            throw ServiceError.notFound("\(member.humanID) is not a member of this itinerary")
        }
        let ops = try commit(
            doc.id,
            [.set(entity: member.hex, kind: .member, field: "role", value: .string("removed"), old: .string(old))],
            summary: "\(displayName(of: member)) removed from the itinerary")
        tellRemoved([member], ops, doc: doc.id)
        try rotateKey(doc)
        return try members(doc.id.hex)
    }

    /// `DELETE /v1/itineraries/{id}/links/{link}`: the owner revokes a link, which also
    /// removes the members who joined through it, and rotates the document key.
    func revokeLink(_ reference: String, link: String) async throws -> MemberList {
        let doc = try itineraryDoc(reference)
        try requireOwner(doc, "revokes links")
        let id = link.lowercased()
        guard let info = try linkInfos(doc).first(where: { $0.id == id }) else {
            throw ServiceError.notFound("this itinerary has no link with id '\(link)' (see `places members`)")
        }
        guard info.state != "revoked" else {
            throw ServiceError.conflict("already-revoked", "link \(id) is already revoked")
        }
        var changes: [Change] = [.set(entity: id, kind: .link, field: "revoked", value: .bool(true), old: .bool(false))]
        let current = Dictionary(
            try storeCall { () throws(StoreError) in try store.members(of: doc.id) }.map { ($0.key, $0.role) },
            uniquingKeysWith: { a, _ in a })
        let joinedThroughBefore = joinedThrough(doc).filter { $0.value == id }.keys.sorted()
        for member in joinedThroughBefore {
            changes.append(
                .set(
                    entity: member, kind: .member, field: "role", value: .string("removed"),
                    old: current[member].map(JSONValue.string)))
        }
        let ops = try commit(doc.id, changes, summary: "link \(id.prefix(8)) revoked")
        tellRemoved(
            joinedThroughBefore.compactMap(Engine.publicKey(hex:)), ops,
            doc: doc.id)
        try rotateKey(doc)
        return try members(doc.id.hex)
    }

    /// Sends the removal itself (still in the old epoch) to the removed members, so that
    /// their daemons, if connected, show they are no longer members. Nothing later is sent.
    private func tellRemoved(_ members: [PublicKey], _ ops: [SignedOp], doc: DocumentID) {
        guard !members.isEmpty, !ops.isEmpty else { return }
        outbox.yield(Outgoing(doc: doc, messages: batches(of: ops.map(\.encoded), doc: doc), recipients: members))
    }

    private func requireOwner(_ doc: Store.DocumentRecord, _ what: String) throws {
        guard doc.owner == me?.bytes else {
            throw ServiceError.notOwner(what)
        }
    }

    /// Starts a new epoch: a fresh document key, kept sealed to the owner and granted (sealed
    /// and signed) to each remaining member, who receive it in the next offer. Later ops use
    /// it, so a removed member cannot read them even with the ciphertext.
    func rotateKey(_ doc: Store.DocumentRecord) throws {
        guard let identity, let me else { throw ServiceError.loggedOut }
        var ring = keyringCopy()
        let epoch = (ring.current(doc.id)?.epoch ?? 0) + 1
        let remaining = participants(of: doc).subtracting([me])
        do {
            let key = try SecretBox.randomKey()
            try store.addDocumentKey(doc.id, epoch: epoch, sealed: try SealedBox.seal(key, to: me))
            for member in remaining {
                try store.saveGrant(try KeyGrant.issue(key: key, doc: doc.id, epoch: epoch, to: member, by: identity))
            }
            ring.insert(key, doc: doc.id, epoch: epoch)
        } catch {
            throw ServiceError.crypto("Could not rotate the key", "\(error)", cause: error)
        }
        setKeyring(ring)
        responseCache.removeAll()
        logger.info(
            "document key rotated",
            metadata: ["doc.id": "\(doc.id)", "epoch": "\(epoch)", "members": "\(remaining.count)"])
        offerToConnected(doc, newcomers: remaining)
    }

    // MARK: Leaving

    /// A member's delete: writes its `left` role and hides the itinerary here; it stays for
    /// the others, who learn of the leave at the next exchange.
    func leave(_ doc: Store.DocumentRecord) throws {
        guard let me else { throw ServiceError.loggedOut }
        let role = self.role(in: doc)
        try commit(
            doc.id, [.set(entity: me.hex, kind: .member, field: "role", value: .string("left"), old: .string(role))],
            summary: "left the itinerary")
    }

    /// A refused link as the problem a join ends with (`ServiceError.link` mapped at the edge).
    static func problem(_ error: AccessError, field: String) -> Problem {
        Problem(ServiceError.link(error, field: field))
    }

    static func wire(_ grant: KeyGrant) -> Places_Sync_V1_KeyGrant {
        var g = Places_Sync_V1_KeyGrant()
        g.doc = Data(grant.doc.bytes)
        g.epoch = grant.epoch
        g.member = Data(grant.member)
        g.sealedKey = Data(grant.sealedKey)
        g.issuer = Data(grant.issuer)
        g.signature = Data(grant.signature)
        return g
    }
}
