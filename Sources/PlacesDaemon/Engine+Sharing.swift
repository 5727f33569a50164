import Foundation
import PlacesAPI
import PlacesAccess
import PlacesCrypto
import PlacesModel
import PlacesStore
import PlacesSync

extension Engine {
    /// `POST /v1/itineraries/{id}/share`: the owner adds a member by public id. The role is
    /// an op in the itinerary (it syncs and shows in activity); the document key of every
    /// epoch is sealed to the member in a signed key grant, handed over at the next meeting.
    func share(_ reference: String, _ request: ShareRequest) async throws -> MemberList {
        let doc = try itineraryDoc(reference)
        guard identity != nil else { throw ServiceError.notOwner("shares it") }
        let (member, edit) = try sharingService().share(doc, request, displayName: { displayName(of: $0) })
        // A relay's key never receives a document key (relay.md §1): refused before anything is written.
        guard !isRelayKey(member) else {
            throw ServiceError.invalid("member", "that key is a relay's: a relay never receives a document key")
        }
        if let edit { try commit(edit) }
        do {
            for (epoch, key) in keyringCopy().all(doc.id) {
                try store.saveGrant(try issueGrant(key: key, doc: doc.id, epoch: epoch, to: member))
            }
        } catch {
            throw ServiceError.crypto("Could not seal the key", "\(error)", cause: error)
        }
        // Offer the itinerary to the new member now if it is connected, and hand the new
        // grant to the other participants so that any of them can pass it on. Through the
        // outbox, after the share op: a participant learns of the member before its grant.
        offerToConnected(doc, newcomers: withDevices(participants(of: doc)))
        return try members(doc.id.hex)
    }

    /// `GET /v1/itineraries/{id}/members`.
    func members(_ reference: String) throws -> MemberList {
        let doc = try itineraryDoc(reference)
        return try sharingService().members(doc, displayName: { displayName(of: $0) })
    }

    // MARK: Peers

    func peersView() async -> PeerList {
        let connected = await sync?.connectedPeers() ?? []
        var byKey = [PublicKey: Peer]()
        for record in (try? store.peers()) ?? [] {
            guard let key = try? PublicKey(bytes: record.key) else { continue }
            byKey[key] = Peer(
                id: key.humanID, name: record.name, addresses: record.address.map { [$0] } ?? [], connected: false,
                lastSeen: record.lastSeenMs.map { RFC3339.string(ms: $0) }, documents: [])
        }
        for info in connected {
            var peer =
                byKey[info.key]
                ?? Peer(
                    id: info.key.humanID, name: info.name, addresses: [], connected: true, lastSeen: nil, documents: [])
            peer.connected = true
            peer.name = info.name.isEmpty ? peer.name : info.name
            let reachable =
                info.listenPort > 0
                ? (info.address.contains(":") ? "[\(info.address)]" : info.address) + ":\(info.listenPort)"
                : info.address
            peer.addresses.removeAll { $0 == reachable }
            peer.addresses.insert(reachable, at: 0)
            peer.opsSent = (peer.opsSent ?? 0) + info.opsSent
            peer.opsSentAgain = (peer.opsSentAgain ?? 0) + info.opsSentAgain
            byKey[info.key] = peer
        }
        for (key, var peer) in byKey {
            let vectors = await replicator.peerVectors(of: key)
            let shared = sharedDocuments(with: key)
            // A document whose root has not arrived yet (shared, its ops still on the way) has
            // no entity: no name, and no trap.
            let names = syncComponent.rootNames(of: shared.map(\.id), store)
            peer.documents = shared.map { doc in
                let mine = currentVector(doc.id) ?? VersionVector()
                let theirs = vectors[doc.id]
                let name = names[doc.id] ?? ""
                guard let theirs else {
                    return PeerDocument(id: doc.id.hex, name: name, state: "unknown", theyLack: nil, weLack: nil)
                }
                var theyLack: UInt64 = 0, weLack: UInt64 = 0
                for (author, seq) in mine.seqs where seq > theirs[author] { theyLack += seq - theirs[author] }
                for (author, seq) in theirs.seqs where seq > mine[author] { weLack += seq - mine[author] }
                return PeerDocument(
                    id: doc.id.hex, name: name, state: theyLack == 0 && weLack == 0 ? "in-sync" : "syncing",
                    theyLack: Int(theyLack), weLack: Int(weLack))
            }
            // How it is reached (relay.md §5.1): its own session, or a relay of a shared document.
            let throughRelay = {
                shared.contains {
                    !self.relayPeers(of: $0).isDisjoint(with: self.relays.connected)
                }
            }
            if relays.isRelay(key) {
                peer.relay = true
            } else if peer.connected {
                peer.via = "direct"
            } else if throughRelay() {
                peer.via = "relay"
            }
            byKey[key] = peer
        }
        let list = byKey.values.sorted {
            ($0.connected ? 0 : 1, $0.name, $0.id) < ($1.connected ? 0 : 1, $1.name, $1.id)
        }
        return PeerList(peers: list, count: list.count, staticPeers: (try? store.staticPeers()) ?? [])
    }

    func addPeer(_ request: AddPeerRequest) async throws -> PeerList {
        guard let (host, port) = Engine.parseHostPort(request.address) else {
            throw ServiceError.invalid("address", "'\(request.address)' is not HOST:PORT (for IPv6: [ADDR]:PORT)")
        }
        try storeCall { () throws(StoreError) in
            try store.addStaticPeer("\(host.contains(":") ? "[\(host)]" : host):\(port)")
        }
        await sync?.addPeer(host: host, port: port)
        return await peersView()
    }

    /// Parses `HOST:PORT` or `[IPv6]:PORT` with a port from 1 to 65535 (0 too when
    /// `allowZero`, for "pick a free port").
    static func parseHostPort(_ text: String, allowZero: Bool = false) -> (String, Int)? {
        let host: Substring, portText: Substring
        if text.hasPrefix("["), let close = text.firstIndex(of: "]") {
            host = text[text.index(after: text.startIndex)..<close]
            let rest = text[text.index(after: close)...]
            guard rest.hasPrefix(":") else { return nil }
            portText = rest.dropFirst()
        } else {
            guard let colon = text.lastIndex(of: ":") else { return nil }
            host = text[..<colon]
            portText = text[text.index(after: colon)...]
        }
        guard !host.isEmpty, host.count <= 253, let port = Int(portText), ((allowZero ? 0 : 1)...65535).contains(port),
            host.allSatisfy({ $0.isLetter || $0.isNumber || ".-:".contains($0) })
        else { return nil }
        return (String(host), port)
    }
}
