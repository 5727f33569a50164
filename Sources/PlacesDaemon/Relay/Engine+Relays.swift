import Foundation
import PlacesAPI
import PlacesAccess
import PlacesCrypto
import PlacesStore
import PlacesSync

/// A person's daemon and its relays (`Protocol/relay.md` §3, §5): `POST /v1/relays` redeems a
/// relay link over a Noise session with the link's relay key, `GET /v1/relays` lists them,
/// `DELETE /v1/relays/{id}` forgets one.
extension Engine {
    /// `POST /v1/relays`.
    func addRelay(_ request: RelayAddRequest) async throws -> RelayInfo {
        let link: RelayLink
        do {
            link = try RelayLink(parsing: request.link)
            try link.check(nowMs: RFC3339.nowMs())
        } catch { throw ServiceError.link(error, field: "link") }
        let wait = request.waitSeconds ?? 15
        guard (1...120).contains(wait) else { throw ServiceError.invalid("waitSeconds", "waitSeconds is 1 to 120") }
        guard link.relay != identity?.publicKey else {
            throw ServiceError.invalid("link", "this relay link names this daemon's own key")
        }
        guard relays.redeeming[link.relay] == nil else {
            throw ServiceError.conflict("redeem-in-progress", "a link of this relay is being redeemed already")
        }
        guard relays.redeeming.count < RelaysComponent.maxRedemptions else {
            throw ServiceError.conflict("redeem-in-progress", "too many relay links are being redeemed: wait")
        }
        relays.redeeming[link.relay] = RelaysComponent.Redemption(token: link.token)
        defer { relays.redeeming[link.relay] = nil }
        var dialled = [(String, Int)]()
        for address in link.addresses {
            guard let (host, port) = Engine.parseHostPort(address), let sync, await sync.addPeer(host: host, port: port)
            else { continue }
            dialled.append((host, port))
        }
        // A session may be open already (the relay dialled, or an earlier link).
        if let sync, await sync.connectedPeers().contains(where: { $0.key == link.relay }) {
            sendRedeem(to: link.relay)
        }
        let deadline = ContinuousClock.now + .seconds(wait)
        while ContinuousClock.now < deadline, relays.redeeming[link.relay]?.answer == nil {
            try? await Task.sleep(for: .milliseconds(50))
        }
        let answer = relays.redeeming[link.relay]?.answer
        guard case .redeemed(let role, let quota) = answer else {
            for (host, port) in dialled { await sync?.forgetPeer(host: host, port: port) }
            if case .refused(let code, let reason) = answer { throw Self.refusal(code, reason) }
            throw ServiceError(
                .relayUnreachable,
                "the relay did not answer within \(wait) s at \(link.addresses.joined(separator: ", ")): is it "
                    + "running and reachable from here?", field: "link")
        }
        let address = link.addresses[0]
        let record = Store.RelayRecord(
            key: link.relay, address: address, role: role, addedMs: RFC3339.nowMs(), lastSyncMs: RFC3339.nowMs(),
            documents: 0, bytes: 0, quotaBytes: quota)
        try storeCall { () throws(StoreError) in
            try store.noteRelayKey(link.relay)
            try store.saveRelay(record)
            // An outbound session to the relay from now on, across restarts.
            try store.addStaticPeer(address)
        }
        relays.known.insert(link.relay)
        relays.named.insert(link.relay)
        // The documents kept at relays go to this one now (relay.md §4), and name it (§5.1).
        for doc in relayDocumentIDs() { replicator.offer(doc, to: [link.relay]) }
        nameRelaysEverywhere()
        nameRelaysPending()
        logger.info("relay added", metadata: ["relay.id": "\(link.relay.humanID.prefix(7))", "role": "\(role)"])
        return info(record)
    }

    /// The relay's refusal as the user sees it: the link problems of the API.
    static func refusal(_ code: String, _ reason: String) -> ServiceError {
        let access: AccessError.Code =
            switch code {
            case "used": .usedUp
            case "expired": .expired
            case "forged": .badSignature
            default: .notAllowed
            }
        return ServiceError.link(AccessError(access, "the relay refused the link (\(code)): \(reason)"), field: "link")
    }

    /// `GET /v1/relays`.
    func relayList() throws -> RelayList {
        let records = try storeCall { () throws(StoreError) in try store.relays() }
        relays.known = Set(records.map(\.key))
        return RelayList(relays: records.map(info))
    }

    /// `DELETE /v1/relays/{id}` (the relay's human id, or its first characters).
    func removeRelay(_ id: String) async throws {
        let records = try storeCall { () throws(StoreError) in try store.relays() }
        let wanted = id.uppercased().filter { $0 != "-" }
        let matches = records.filter {
            $0.key.humanID.filter { $0 != "-" }.hasPrefix(wanted) || $0.key.hex == id.lowercased()
        }
        guard !wanted.isEmpty, let relay = matches.first else { throw ServiceError.notFound("no relay \(id)") }
        guard matches.count == 1 else { throw ServiceError.invalid("id", "\(id) names several relays: type more") }
        try storeCall { () throws(StoreError) in
            _ = try store.removeRelay(relay.key)
            try? store.removeStaticPeer(relay.address)
        }
        relays.known.remove(relay.key)
        if let (host, port) = Engine.parseHostPort(relay.address) { await sync?.forgetPeer(host: host, port: port) }
        await sync?.disconnect(relay.key, reason: "relay removed")
        nameRelaysEverywhere()
        nameRelaysPending()
        logger.info("relay removed", metadata: ["relay.id": "\(relay.key.humanID.prefix(7))"])
    }

    func info(_ r: Store.RelayRecord) -> RelayInfo {
        RelayInfo(
            id: r.key.humanID, address: r.address,
            state: relays.full.contains(r.key) ? "full" : relays.connected.contains(r.key) ? "connected" : "offline",
            role: r.role, lastSync: r.lastSyncMs.map(RFC3339.string(ms:)), documents: r.documents, bytes: r.bytes,
            quotaBytes: r.quotaBytes)
    }

    // MARK: Sessions and messages

    /// Sends the waiting link to `relay` once per redemption.
    func sendRedeem(to relay: PublicKey) {
        guard let redemption = relays.redeeming[relay], !redemption.sent else { return }
        relays.redeeming[relay]?.sent = true
        replicator.sendRelay(.redeem(link: redemption.token), to: relay)
    }

    /// A session opened: a relay being redeemed gets its link; a relay in use is marked up.
    func relayPeerConnected(_ peer: PublicKey) {
        guard relays.isRelay(peer) else { return }
        relays.connected.insert(peer)
        sendRedeem(to: peer)
    }

    func relayPeerDisconnected(_ peer: PublicKey, lastSession: Bool) {
        guard lastSession, relays.connected.remove(peer) != nil else { return }
    }

    /// A relay's answer; only from a relay whose link this daemon is redeeming.
    public func relay(_ message: RelayMessage, from peer: PublicKey) async -> [RelayMessage] {
        if relayReport(message, from: peer) { return [] }
        guard relays.redeeming[peer]?.sent == true, relays.redeeming[peer]?.answer == nil else { return [] }
        switch message {
        case .redeemed(let role, let quotaBytes):
            relays.redeeming[peer]?.answer = .redeemed(role: role, quotaBytes: Int64(clamping: quotaBytes))
        case .refused(let code, let reason):
            relays.redeeming[peer]?.answer = .refused(code: code, reason: reason)
        case .redeem, .full, .usage, .blobs: break
        }
        return []
    }
}
