import Foundation
import PlacesCrypto
import PlacesModel
import SwiftProtobuf

@testable import PlacesAccess
@testable import PlacesSync

/// `relay`: what a peer sends a blind relay or its users (`Protocol/relay.md`): a relay link's
/// token (`RelayLink(token:)`) and pasted text (`RelayLink(parsing:)`), a signed access list
/// (`RelayAccess(decoding:)`), and the relay messages of a `SyncMessage` (`RelayMessage`).
///
/// Input: byte 0 picks the mode, the rest is the payload —
/// 0: a token, also read as link text; 1: an access list; 2 (3): a token's (a list's) signed
/// part, signed here by `FuzzWorld.owner` so mutations reach every rule before the signature;
/// 4: a serialized `SyncMessage`.
///
/// Checked: a decoded link or list encodes back to exactly its input and its text parses back
/// to the same link; every field is within relay.md's bounds (1…4 addresses of 1…64 bytes,
/// each `host:port`; 1…512 keys, strictly ascending; times 1…2^63 − 1); a list never supersedes
/// itself and allows exactly its keys; a relay message in bounds goes to the wire and back
/// unchanged.
enum FuzzRelay {
    static func run(_ input: [UInt8]) {
        guard let mode = input.first else { return }
        let payload = Array(input.dropFirst())
        switch mode % 5 {
        case 0:
            if let link = try? RelayLink(token: payload) { check(link, from: payload) }
            if let link = try? RelayLink(parsing: String(decoding: payload, as: UTF8.self)) {
                check(link, from: link.token)
            }
        case 1:
            if let access = try? RelayAccess(decoding: payload) { check(access, from: payload) }
        case 2:
            let token = payload + FuzzWorld.owner.sign(RelayLink.context + payload).bytes
            if let link = try? RelayLink(token: token) {
                precondition(link.relay == FuzzWorld.owner.publicKey, "a link decoded with another relay key")
                check(link, from: token)
            }
        case 3:
            let record = payload + FuzzWorld.owner.sign(RelayAccess.context + payload).bytes
            if let access = try? RelayAccess(decoding: record) {
                precondition(access.owner == FuzzWorld.owner.publicKey, "a list decoded with another owner")
                check(access, from: record)
            }
        default:
            guard let message = try? SyncMessage(serializedBytes: payload), let relay = RelayMessage(message) else {
                return
            }
            precondition(RelayMessage(relay.wire) == relay, "a relay message does not survive the wire")
        }
    }

    static func check(_ link: RelayLink, from token: [UInt8]) {
        precondition(link.token == token, "a decoded link does not encode back to its token")
        precondition((1...RelayLink.maxAddresses).contains(link.addresses.count), "a link out of its address bounds")
        for address in link.addresses {
            let bytes = Array(address.utf8)
            precondition(
                (1...RelayLink.maxAddressBytes).contains(bytes.count) && PairingCode.isHostPort(bytes[...]),
                "a link kept an address that is not host:port within 64 bytes")
        }
        precondition(link.expiresMs > 0 && link.id.count == RelayLink.idBytes, "a link's expiry or id out of bounds")
        precondition(token.count <= RelayLink.maxSize, "a link longer than its bound decoded")
        precondition((try? RelayLink(parsing: " \(link.text)\n")) == link, "a link's text does not parse back")
    }

    static func check(_ access: RelayAccess, from record: [UInt8]) {
        precondition(access.encoded == record, "a decoded list does not encode back to its bytes")
        precondition((1...RelayAccess.maxKeys).contains(access.keys.count), "a list out of its key bounds")
        precondition(
            zip(access.keys, access.keys.dropFirst()).allSatisfy { $0.bytes.lexicographicallyPrecedes($1.bytes) },
            "a list's keys are not strictly ascending")
        precondition(access.issuedMs > 0, "a list's time out of bounds")
        precondition(!access.supersedes(access), "a list supersedes itself")
        precondition(access.keys.allSatisfy(access.allows), "a list does not allow one of its keys")
        precondition(
            access.keys.contains(access.owner) || !access.allows(access.owner),
            "a list allows an owner it does not name")
    }
}

extension FuzzSeeds {
    /// The relay vectors (`Protocol/vectors/relay/`), each behind its mode byte (`FuzzRelay`):
    /// tokens, link texts and lists as they are, and their signed parts to be signed again.
    static func relay() throws -> [(String, [UInt8])] {
        let url = FuzzWorld.fuzzDirectory.deletingLastPathComponent()
            .appendingPathComponent("Protocol/vectors/relay/relay-vectors.json")
        let json = try JSONSerialization.jsonObject(with: Data(contentsOf: url)) as? [String: Any] ?? [:]
        let access = json["access"] as? [String: Any] ?? [:]
        var out: [(String, [UInt8])] = []
        func add(_ entries: Any?, field: String, kind: String, mode: UInt8) {
            for entry in entries as? [[String: Any]] ?? [] {
                guard let hex = entry[field] as? String, let bytes = HexCoding.decode(hex) else { continue }
                let name = "\(kind)-\(entry["name"] as? String ?? "vector")"
                out.append((name, [mode] + bytes))
                // The signed part, signed again by the harness (modes 2 and 3).
                if bytes.count > 64 { out.append((name + "-resigned", [mode + 2] + bytes.dropLast(64))) }
            }
        }
        add(json["valid"], field: "token", kind: "link", mode: 0)
        add(json["invalid"], field: "token", kind: "link-invalid", mode: 0)
        add(access["valid"], field: "record", kind: "access", mode: 1)
        add(access["invalid"], field: "record", kind: "access-invalid", mode: 1)
        for entry in json["valid"] as? [[String: Any]] ?? [] {
            if let text = entry["text"] as? String {
                out.append(("link-text-\(entry["name"] ?? "")", [0] + Array(text.utf8)))
            }
        }
        for message in [
            RelayMessage.redeem(link: [1, 2, 3]), .redeemed(role: "user", quotaBytes: 1 << 30),
            .refused(code: "used", reason: "used already"), .usage(documents: 1, bytes: 2, quotaBytes: 3),
            .full(doc: FuzzWorld.doc, reason: "full"),
        ] {
            if let bytes: [UInt8] = try? message.wire.serializedBytes() { out.append(("message", [4] + bytes)) }
        }
        return out
    }
}
