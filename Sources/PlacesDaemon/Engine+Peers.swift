import Foundation
import PlacesControl
import PlacesCrypto
import PlacesModel
import PlacesStore
import PlacesSync

/// Peers (`GET`/`POST /v1/peers`): who is connected or known, how in sync each shared
/// document is with them, and peers added by address.
extension Engine {
    /// `GET /v1/peers`.
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
            byKey[info.key] = peer
        }
        for (key, var peer) in byKey {
            peer.documents = sharedDocuments(with: key).map { doc in
                let mine = (try? store.versionVector(of: doc.id)) ?? VersionVector()
                let theirs = peerVectors[key]?[doc.id]
                let name =
                    (try? store.entity(in: doc.id, id: doc.id.hex)).flatMap { Views.fields($0!)["name"]?.stringValue }
                    ?? ""
                guard let theirs else {
                    return PeerDocument(id: doc.id.hex, name: name, state: "unknown", theyLack: nil, weLack: nil)
                }
                var theyLack: UInt64 = 0, weLack: UInt64 = 0
                for author in Set(mine.seqs.keys).union(theirs.seqs.keys) {
                    if mine[author] > theirs[author] { theyLack += mine[author] - theirs[author] }
                    if theirs[author] > mine[author] { weLack += theirs[author] - mine[author] }
                }
                return PeerDocument(
                    id: doc.id.hex, name: name, state: theyLack == 0 && weLack == 0 ? "in-sync" : "syncing",
                    theyLack: Int(theyLack), weLack: Int(weLack))
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
