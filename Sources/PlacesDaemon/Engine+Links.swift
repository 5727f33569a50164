import Foundation
import PlacesAccess
import PlacesControl
import PlacesCrypto
import PlacesModel
import PlacesStore
import PlacesSync

/// A share link being redeemed by this daemon (`POST /v1/join`): the token, who was asked,
/// and the request waiting for the outcome.
struct PendingJoin {
    var token: CapabilityToken
    /// Fresh for each join: a holder's proof covers it, so a proof cannot be replayed.
    var nonce = SecureRandom.bytes(JoinProof.nonceBytes)
    /// Peers the token was presented to.
    var asked: Set<PublicKey> = []
    /// The peer that let this daemon in (its offer carried the document).
    var admittedBy: PublicKey?
    /// Link addresses this join started dialling (forgotten once it ends).
    var dialled: [(host: String, port: Int)] = []
    var waiter: CheckedContinuation<Result<Void, Problem>, Never>?
    /// The outcome, when it came before the request started waiting (a refusal can arrive
    /// while `join` is still presenting the token).
    var outcome: Result<Void, Problem>?
}

/// Share links (`Protocol/capabilities.md`): making them, redeeming them over sync,
/// revoking members and links with key rotation, leaving, and recording views.
extension Engine {
    /// Most joins a link may allow.
    static let maxLinkUses = 1_000_000
    /// A member records at most one view of an itinerary per this many milliseconds.
    static let viewCoalescingMs: Int64 = 10 * 60 * 1000

    // MARK: Making links

    /// `POST /v1/itineraries/{id}/links`.
    func createLink(_ reference: String, _ request: LinkRequest) async throws(Problem) -> ShareLinkInfo {
        let doc = try itineraryDoc(reference)
        guard let identity, let me else { throw Problem.loggedOut }
        guard let role = CapabilityRole(rawValue: request.role) else {
            throw Problem.invalid("role", "role must be viewer or editor, not '\(request.role)'")
        }
        let myRole = self.role(in: doc)
        switch (myRole, role) {
        case ("owner", _), ("editor", .viewer): break
        case ("editor", .editor):
            throw Problem(
                status: 403, code: "not-owner", title: "Forbidden",
                detail: "only the itinerary's owner makes editor links; as an editor you can make viewer links")
        default:
            throw Problem(
                status: 403, code: "read-only", title: "Forbidden",
                detail: "you are a \(myRole) of this itinerary: viewers cannot share it")
        }
        let now = RFC3339.nowMs()
        var expiresMs: Int64?
        if let text = request.expires {
            guard let ms = Engine.parseExpiry(text, nowMs: now) else {
                throw Problem.invalid(
                    "expires", "'\(text)' is not a duration (30m, 12h, 7d, 2w), a date (2027-05-01) or an RFC 3339 time"
                )
            }
            guard ms > now else { throw Problem.invalid("expires", "'\(text)' is in the past") }
            expiresMs = ms
        }
        if let uses = request.uses, !(1...Engine.maxLinkUses).contains(uses) {
            throw Problem.invalid("uses", "uses must be from 1 to \(Engine.maxLinkUses), not \(uses)")
        }
        var audience: PublicKey?
        if let text = request.audience {
            do { audience = try HumanID.decode(text) } catch {
                throw Problem.invalid("audience", "'\(text)' is not a valid id: \(error.message)")
            }
        }
        guard let (epoch, key) = keyringCopy().current(doc.id) else {
            throw Problem(status: 500, code: "no-key", title: "No key", detail: "no key is held for this itinerary")
        }
        let token: CapabilityToken
        do {
            let notBefore = now - Store.linkClockAllowanceMs
            token = try CapabilityToken.issue(
                doc: doc.id, role: role, by: identity, audience: audience, notBeforeMs: notBefore,
                expiresMs: expiresMs, uses: request.uses.map(UInt32.init), addressHints: await addressHints(),
                epoch: epoch,
                documentKey: key)
        } catch {
            throw Problem.invalid("link", error.message)
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
    func linkInfos(_ doc: Store.DocumentRecord) throws(Problem) -> [ShareLinkInfo] {
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
    func removeMember(_ reference: String, member text: String) async throws(Problem) -> MemberList {
        let doc = try itineraryDoc(reference)
        try requireOwner(doc, "removes members")
        let member: PublicKey
        do { member = try HumanID.decode(text) } catch {
            throw Problem.invalid("member", "'\(text)' is not a valid id: \(error.message)")
        }
        let current = try storeCall { () throws(StoreError) in try store.members(of: doc.id) }
        guard let old = current.first(where: { $0.key == member.hex })?.role else {
            throw Problem.notFound("\(member.humanID) is not a member of this itinerary")
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
    func revokeLink(_ reference: String, link: String) async throws(Problem) -> MemberList {
        let doc = try itineraryDoc(reference)
        try requireOwner(doc, "revokes links")
        let id = link.lowercased()
        guard let info = try linkInfos(doc).first(where: { $0.id == id }) else {
            throw Problem.notFound("this itinerary has no link with id '\(link)' (see `places members`)")
        }
        guard info.state != "revoked" else {
            throw Problem.conflict("already-revoked", "link \(id) is already revoked")
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

    private func requireOwner(_ doc: Store.DocumentRecord, _ what: String) throws(Problem) {
        guard doc.owner == me?.bytes else {
            throw Problem(
                status: 403, code: "not-owner", title: "Forbidden", detail: "only the itinerary's owner \(what)")
        }
    }

    /// Starts a new epoch: a fresh document key, kept sealed to the owner and granted (sealed
    /// and signed) to each remaining member, who receive it in the next offer. Later ops use
    /// it, so a removed member cannot read them even with the ciphertext.
    func rotateKey(_ doc: Store.DocumentRecord) throws(Problem) {
        guard let identity, let me else { throw Problem.loggedOut }
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
            throw Problem(status: 500, code: "crypto", title: "Could not rotate the key", detail: "\(error)")
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
    func leave(_ doc: Store.DocumentRecord) throws(Problem) {
        guard let me else { throw Problem.loggedOut }
        let role = self.role(in: doc)
        try commit(
            doc.id, [.set(entity: me.hex, kind: .member, field: "role", value: .string("left"), old: .string(role))],
            summary: "left the itinerary")
    }

    // MARK: Views

    /// `GET /v1/itineraries/{id}`: the itinerary, recording a signed view when a member other
    /// than the owner opens it (at most one per `viewCoalescingMs`).
    func viewItinerary(_ reference: String) throws(Problem) -> Itinerary {
        let doc = try itineraryDoc(reference)
        if let me, doc.owner != me.bytes, Store.activeRoles.contains(role(in: doc)) {
            let now = RFC3339.nowMs()
            if now - (lastViewMs[doc.id] ?? 0) >= Engine.viewCoalescingMs {
                lastViewMs[doc.id] = now
                try commit(
                    doc.id,
                    [
                        .set(
                            entity: me.hex, kind: .view, field: "viewedAt", value: .string(RFC3339.string(ms: now)),
                            old: nil)
                    ],
                    summary: "itinerary viewed")
            }
        }
        return try itinerary(doc.id.hex)
    }

    // MARK: Joining

    /// `POST /v1/join`: redeems a share link. Presents the token to every connected peer and
    /// to the link's address hints; a peer holding the itinerary checks it and sends the
    /// itinerary; this daemon then writes its `join` op. Waits up to `waitSeconds`.
    func join(_ request: JoinRequest) async throws(Problem) -> Itinerary {
        guard let me else { throw Problem.loggedOut }
        let link: ShareLink
        do { link = try ShareLink(parsing: request.link) } catch { throw Engine.problem(error, field: "link") }
        let token = link.token
        do { try token.check(nowMs: RFC3339.nowMs(), presenter: me) } catch {
            throw Engine.problem(error, field: "link")
        }
        let wait = request.waitSeconds ?? 15
        guard (1...120).contains(wait) else { throw Problem.invalid("waitSeconds", "waitSeconds must be 1 to 120") }
        if let doc = try? store.document(token.doc), doc.owner == me.bytes || Store.activeRoles.contains(role(in: doc))
        {
            throw Problem.conflict("already-member", "you are already the \(role(in: doc)) of this itinerary")
        }
        guard pendingJoins[token.doc] == nil else {
            throw Problem.conflict("join-in-progress", "this daemon is already joining that itinerary")
        }
        pendingJoins[token.doc] = PendingJoin(token: token)
        for hint in token.addressHints {
            if let (host, port) = Engine.parseHostPort(hint), await sync?.addPeer(host: host, port: port) == true {
                pendingJoins[token.doc]?.dialled.append((host, port))
            }
        }
        for peer in Set((await sync?.connectedPeers() ?? []).map(\.key)) { await presentToken(token, to: peer) }
        let outcome = await withCheckedContinuation { continuation in
            guard let pending = pendingJoins[token.doc], pending.outcome == nil else {
                // Already decided while the token was being presented.
                let done = pendingJoins.removeValue(forKey: token.doc)?.outcome
                continuation.resume(
                    returning: done ?? .failure(Problem(status: 500, code: "internal", title: "Join lost", detail: "")))
                return
            }
            pendingJoins[token.doc]?.waiter = continuation
            Task { [weak self] in
                try? await Task.sleep(for: .seconds(wait))
                await self?.finishJoin(
                    token.doc,
                    .failure(
                        Problem(
                            status: 504, code: "no-member-reachable", title: "No member reachable",
                            detail:
                                "no daemon holding this itinerary let this one in within \(wait) s: the link's addresses "
                                + "(\(token.addressHints.joined(separator: ", "))) and peers on this network did not "
                                + "answer. Try again when a member's device is on, or add it with `places peers add`")))
            }
        }
        switch outcome {
        case .success: return try itinerary(token.doc.hex)
        case .failure(let problem): throw problem
        }
    }

    /// Resolves a pending join once; a failure forgets a document fetched but not joined.
    func finishJoin(_ doc: DocumentID, _ outcome: Result<Void, Problem>) {
        guard var pending = pendingJoins[doc], pending.outcome == nil else { return }
        if pending.waiter == nil {
            // `join` has not started waiting yet: it takes the outcome when it does.
            pending.outcome = outcome
            pendingJoins[doc] = pending
        } else {
            pendingJoins[doc] = nil
        }
        if case .failure = outcome, pending.admittedBy != nil, let me, let record = try? store.document(doc),
            record.owner != me.bytes, !Store.activeRoles.contains(role(in: record))
        {
            try? store.purgeDocument(doc)
            forgetDocumentState()
            // Send windows remember positions in the log; a purged document's ops are gone.
            for peer in sendWindows.keys { sendWindows[peer]?[doc] = nil }
        }
        if let sync {
            for (host, port) in pending.dialled { Task { await sync.forgetPeer(host: host, port: port) } }
        }
        pending.waiter?.resume(returning: outcome)
    }

    /// The join of `doc` still waiting for an outcome, if any.
    func openJoin(_ doc: DocumentID) -> PendingJoin? {
        guard let pending = pendingJoins[doc], pending.outcome == nil else { return nil }
        return pending
    }

    /// Sends a JoinRequest for `token` to `peer` (once per peer).
    func presentToken(_ token: CapabilityToken, to peer: PublicKey) async {
        guard let message = askOnce(token.doc, peer) else { return }
        outbox.yield(Outgoing(doc: token.doc, messages: [message], recipients: [peer]))
    }

    /// JoinRequests for every pending join, for a peer that just connected.
    func joinRequests(for peer: PublicKey) -> [SyncMessage] {
        pendingJoins.keys.sorted { $0.hex < $1.hex }.compactMap { askOnce($0, peer) }
    }

    /// The JoinRequest of the pending join of `doc` for `peer`, once per peer (nil when it
    /// was already asked or the join is over).
    private func askOnce(_ doc: DocumentID, _ peer: PublicKey) -> SyncMessage? {
        guard var pending = openJoin(doc), !pending.asked.contains(peer) else { return nil }
        pending.asked.insert(peer)
        pendingJoins[doc] = pending
        var request = Places_Sync_V1_JoinRequest()
        // Never the document key: a peer that does not hold the itinerary must learn nothing
        // that lets it read it (capabilities.md §4.1).
        request.token = Data(pending.token.redacted.encoded)
        request.nonce = Data(pending.nonce)
        var message = SyncMessage()
        message.join = request
        return message
    }

    /// A holder's answer to a JoinRequest (`Protocol/sync.md` §8.2): nothing when it does not
    /// hold the document and the key of the token's epoch; a JoinRefused when the token does
    /// not let `peer` in; else an offer of the document whose grants carry every epoch key
    /// held, sealed to `peer`. Both carry a proof that this daemon holds the key.
    func handleJoinRequest(_ request: Places_Sync_V1_JoinRequest, from peer: PublicKey) -> [SyncMessage] {
        guard let identity, request.nonce.count == JoinProof.nonceBytes,
            let presented = try? CapabilityToken(decoding: [UInt8](request.token)),
            let record = try? store.document(presented.doc), record.kind == .itinerary,
            participants(of: record).contains(identity.publicKey),
            let key = keyringCopy().key(presented.doc, epoch: presented.epoch)
        else { return [] }
        // The joiner sends the token without its key; the holder's own key of that epoch
        // makes it whole again (a token with another key fails its signature check).
        let token = presented.withDocumentKey(key)
        let nonce = [UInt8](request.nonce)
        let refusal: AccessError?
        do { refusal = try store.redemptionRefusal(token, joiner: peer, nowMs: RFC3339.nowMs()) } catch { return [] }
        if let refusal {
            logger.notice(
                "refused a share link",
                metadata: [
                    "peer.id": "\(peer.humanID.prefix(7))", "doc.id": "\(token.doc)",
                    "reason": "\(refusal.code.rawValue)",
                ])
            var refused = Places_Sync_V1_JoinRefused()
            refused.doc = Data(token.doc.bytes)
            refused.tokenID = Data(token.tokenID)
            refused.code = refusal.code.rawValue
            refused.reason = refusal.message
            refused.proof = Data(
                JoinProof.make(
                    .refuse, key: key, doc: token.doc, tokenID: token.tokenID, nonce: nonce, joiner: peer,
                    holder: identity.publicKey, owner: nil) ?? [])
            var message = SyncMessage()
            message.joinRefused = refused
            return [message]
        }
        provisional[token.doc, default: []].insert(peer)
        guard var offer = makeOffer(for: record, to: peer, reply: false) else { return [] }
        offer.offer.grants = []
        for (epoch, key) in keyringCopy().all(token.doc) {
            guard let grant = try? KeyGrant.issue(key: key, doc: token.doc, epoch: epoch, to: peer, by: identity) else {
                continue
            }
            offer.offer.grants.append(Engine.wire(grant))
        }
        offer.offer.role = token.role.rawValue
        offer.offer.joinProof = Data(
            JoinProof.make(
                .admit, key: key, doc: token.doc, tokenID: token.tokenID, nonce: nonce, joiner: peer,
                holder: identity.publicKey, owner: record.owner) ?? [])
        logger.info(
            "let a share link's holder fetch an itinerary",
            metadata: ["peer.id": "\(peer.humanID.prefix(7))", "doc.id": "\(token.doc)", "role": "\(token.role)"])
        return [offer]
    }

    /// A refusal counts only from a peer that was asked and proves it holds the document: a
    /// stranger cannot cancel a join.
    func handleJoinRefused(_ refused: Places_Sync_V1_JoinRefused, from peer: PublicKey) {
        guard let me, let doc = DocumentID(bytes: [UInt8](refused.doc)), let pending = openJoin(doc),
            pending.asked.contains(peer), pending.token.tokenID == [UInt8](refused.tokenID),
            JoinProof.verify(
                [UInt8](refused.proof), .refuse, key: pending.token.documentKey, doc: doc,
                tokenID: pending.token.tokenID, nonce: pending.nonce, joiner: me, holder: peer, owner: nil)
        else {
            logger.notice(
                "ignored a join refusal without a valid proof", metadata: ["peer.id": "\(peer.humanID.prefix(7))"])
            return
        }
        let code = AccessError.Code(rawValue: refused.code) ?? .notAllowed
        let reason = String(refused.reason.prefix(500))
        finishJoin(
            doc,
            .failure(
                Engine.problem(
                    AccessError(code, "\(displayName(of: peer)) refused the link: \(reason)"), field: "link")))
    }

    /// For an offer of a document this daemon is joining through a link from a peer it asked:
    /// registers the document with the token's key and the peer's grants. Returns whether
    /// the document is now held.
    func admitJoin(_ offer: Places_Sync_V1_DocOffer, doc: DocumentID, from peer: PublicKey) -> Bool {
        guard let identity, var pending = openJoin(doc), pending.asked.contains(peer),
            pending.admittedBy == nil || pending.admittedBy == peer, offer.owner.count == 32
        else { return false }
        let token = pending.token
        // Only a holder that proves it holds the document key, and only with the owner the
        // link implies: an editor link's issuer is the owner (capabilities.md §4.1).
        guard
            JoinProof.verify(
                [UInt8](offer.joinProof), .admit, key: token.documentKey, doc: doc, tokenID: token.tokenID,
                nonce: pending.nonce, joiner: identity.publicKey, holder: peer, owner: [UInt8](offer.owner))
        else {
            logger.notice(
                "ignored an offer for a pending join without a valid proof",
                metadata: ["peer.id": "\(peer.humanID.prefix(7))", "doc.id": "\(doc)"])
            return false
        }
        guard token.role != .editor || [UInt8](offer.owner) == token.issuer.bytes else {
            logger.notice(
                "ignored an offer naming another owner than the editor link's issuer",
                metadata: ["peer.id": "\(peer.humanID.prefix(7))", "doc.id": "\(doc)"])
            return false
        }
        var ring = keyringCopy()
        do {
            forgetDocumentState()
            try store.registerDocument(doc, kind: .itinerary, owner: [UInt8](offer.owner), timeMs: RFC3339.nowMs())
            var keys = [(token.epoch, token.documentKey)]
            for grant in offer.grants.prefix(Engine.maxGrantsPerOffer).compactMap(Engine.keyGrant)
            where grant.doc == doc && grant.member == identity.publicKey.bytes && grant.issuer == peer.bytes
                && grant.isValid
            {
                if let key = try? SealedBox.open(grant.sealedKey, with: identity) { keys.append((grant.epoch, key)) }
            }
            for (epoch, key) in keys {
                try store.addDocumentKey(doc, epoch: epoch, sealed: try SealedBox.seal(key, to: identity.publicKey))
                ring.insert(key, doc: doc, epoch: epoch)
            }
        } catch {
            logger.error("registering a joined itinerary failed", metadata: ["doc.id": "\(doc)", "error": "\(error)"])
            return false
        }
        setKeyring(ring)
        pending.admittedBy = peer
        pendingJoins[doc] = pending
        return true
    }

    /// After ops of a document being joined are stored: once this daemon holds what the
    /// admitting peer offered, writes the `join` op and completes the join.
    func completeJoinIfCaughtUp(_ doc: DocumentID, from peer: PublicKey) {
        guard let me, let pending = openJoin(doc), pending.admittedBy == peer,
            let offered = offeredVectors[peer]?[doc], let mine = currentVector(doc),
            !offered.seqs.contains(where: { mine[$0.key] < $0.value })
        else { return }
        let token = pending.token
        var changes: [Change] = [
            .create(entity: me.hex, kind: .member),
            .set(entity: me.hex, kind: .member, field: "role", value: .string(token.role.rawValue), old: nil),
            .set(entity: me.hex, kind: .member, field: "token", value: .string(token.base64url), old: nil),
        ]
        if let name = currentProfileName(), !name.isEmpty {
            changes.append(.set(entity: me.hex, kind: .member, field: "name", value: .string(name), old: nil))
        }
        do {
            try commit(doc, changes, summary: "joined through a share link")
        } catch {
            finishJoin(doc, .failure(error))
            return
        }
        // Redeeming the link was consent to this itinerary: its owner becomes a contact.
        if let owner = try? store.document(doc)?.owner {
            try? store.addContact(owner, name: "", timeMs: RFC3339.nowMs())
        }
        logger.info("joined an itinerary through a share link", metadata: ["doc.id": "\(doc)"])
        finishJoin(doc, .success(()))
    }

    static func problem(_ error: AccessError, field: String) -> Problem {
        switch error.code {
        case .malformed, .wrongDocument:
            return Problem(
                status: 400, code: "invalid-link", title: "Invalid link", detail: error.message, field: field)
        case .expired, .usedUp:
            return Problem(
                status: 410, code: error.code == .expired ? "link-expired" : "link-used-up",
                title: "Link no longer valid",
                detail: error.message, field: field)
        case .revoked:
            return Problem(
                status: 410, code: "link-revoked", title: "Link revoked", detail: error.message, field: field)
        case .badSignature:
            return Problem(status: 403, code: "link-forged", title: "Forged link", detail: error.message, field: field)
        case .notYetValid, .wrongAudience, .notAllowed:
            return Problem(
                status: 403, code: "link-refused", title: "Link refused", detail: error.message, field: field)
        }
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
