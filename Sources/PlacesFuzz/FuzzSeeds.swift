import Foundation
import PlacesAccess
import PlacesCrypto
import PlacesModel
import PlacesStore
import SwiftProtobuf

@testable import PlacesSync

/// Makes `Fuzz/fixtures/base-ops.bin` (when missing) and the seed corpora under
/// `Fuzz/corpus/<target>/` (`places-fuzz seed`). Seeds are real inputs: ops signed and
/// sealed by the fixture identities, tokens from `Protocol/vectors/`, well-formed requests.
public enum FuzzSeeds {
    public static func writeAll() throws {
        let fixtures = FuzzWorld.fuzzDirectory.appendingPathComponent("fixtures")
        try FileManager.default.createDirectory(at: fixtures, withIntermediateDirectories: true)
        if !FileManager.default.fileExists(atPath: FuzzWorld.baseOpsFile.path) {
            try Data(FuzzReader.records(try makeBaseOps())).write(to: FuzzWorld.baseOpsFile)
        }
        let ops = try memberOps()
        let seeds: [(FuzzTarget, [(String, [UInt8])])] = [
            (.frames, frames()), (.syncSession, try session(ops)), (.ingest, try ingest(ops)),
            (.tokens, try tokens()), (.beacons, beacons()), (.control, control()), (.relay, try relay()),
        ]
        // The import target's seeds are hand-written files in Fuzz/corpus/import (kept as they are).
        for (target, files) in seeds {
            let dir = target.corpusDirectory
            try? FileManager.default.removeItem(at: dir)
            try FileManager.default.createDirectory(at: dir, withIntermediateDirectories: true)
            for (index, (name, bytes)) in files.enumerated() {
                let file = dir.appendingPathComponent(String(format: "seed-%02d-", index) + name)
                try Data(bytes).write(to: file)
            }
            print("\(target.rawValue): \(files.count) seeds in \(dir.path)")
        }
    }

    // MARK: Ops

    /// The owner's first ops: the itinerary, its name, `member` as an editor.
    static func makeBaseOps() throws -> [[UInt8]] {
        let dir = FuzzWorld.scratchDirectory()
        defer { try? FileManager.default.removeItem(at: dir) }
        let store = try FuzzWorld.makeStore(at: dir.appendingPathComponent("s.sqlite").path, empty: true)
        defer { try? store.close() }
        let doc = FuzzWorld.doc
        let member = FuzzWorld.member.publicKey.hex
        let ops = try store.append(
            [
                Store.Edit(
                    doc: doc,
                    changes: [
                        .create(entity: doc.hex, kind: .itinerary),
                        .set(entity: doc.hex, kind: .itinerary, field: "name", value: .string("Lisbon"), old: nil),
                    ], timeMs: FuzzWorld.nowMs),
                Store.Edit(
                    doc: doc,
                    changes: [
                        .create(entity: member, kind: .member),
                        .set(entity: member, kind: .member, field: "role", value: .string("editor"), old: nil),
                    ], timeMs: FuzzWorld.nowMs + 1),
            ], identity: FuzzWorld.owner, keyring: FuzzWorld.keyring)
        return ops.map(\.encoded)
    }

    /// Bodies of ops an editor might send.
    static let memberEdits: [[Change]] = [
        [
            .create(entity: "5701", kind: .stop),
            .set(entity: "5701", kind: .stop, field: "placeId", value: .string("p1"), old: nil),
            .set(entity: "5701", kind: .stop, field: "position", value: .string("h"), old: nil),
            .set(entity: "5701", kind: .stop, field: "name", value: .string("Belém Tower"), old: nil),
            .set(entity: "5701", kind: .stop, field: "latitude", value: .double(38.6916), old: nil),
            .set(entity: "5701", kind: .stop, field: "longitude", value: .double(-9.216), old: nil),
        ],
        [.set(entity: FuzzWorld.doc.hex, kind: .itinerary, field: "name", value: .string("Porto"), old: nil)],
        [
            .create(entity: "5702", kind: .stop),
            .set(entity: "5702", kind: .stop, field: "position", value: .string("p"), old: nil),
            .set(entity: "5702", kind: .stop, field: "note", value: .string("lunch"), old: nil),
        ],
        [.set(entity: "5701", kind: .stop, field: "position", value: .string("hh"), old: .string("h"))],
        [.set(entity: "5702", kind: .stop, field: "deleted", value: .bool(true), old: nil)],
    ]

    /// `member`'s ops after the base ops, encoded, in order.
    static func memberOps() throws -> [[UInt8]] {
        let dir = FuzzWorld.scratchDirectory()
        defer { try? FileManager.default.removeItem(at: dir) }
        let store = try FuzzWorld.makeStore(at: dir.appendingPathComponent("s.sqlite").path)
        defer { try? store.close() }
        let edits = memberEdits.enumerated().map { index, changes in
            Store.Edit(doc: FuzzWorld.doc, changes: changes, timeMs: FuzzWorld.nowMs + 10 + Int64(index))
        }
        return try store.append(edits, identity: FuzzWorld.member, keyring: FuzzWorld.keyring).map(\.encoded)
    }

    /// An op by `author` with the given header fields and body (deliberately odd ones too).
    static func op(
        _ author: SigningKeyPair, seq: UInt64, deps: [[UInt8]], lamport: UInt64, epoch: UInt32 = 0,
        body: [UInt8]
    ) -> [UInt8] {
        let header = OpHeader(
            doc: FuzzWorld.doc, author: author.publicKey.bytes, seq: seq, deps: deps, lamport: lamport, epoch: epoch)
        return FuzzWorld.resealed(header: header, body: body) ?? []
    }

    static func id(_ encoded: [UInt8]) -> [UInt8] {
        (try? SignedOp(decoding: encoded)).map { Blake2b.hash256($0.signedBytes) } ?? []
    }

    // MARK: Targets

    static func frames() -> [(String, [UInt8])] {
        func frame(_ body: [UInt8]) -> [UInt8] { [UInt8(body.count >> 8), UInt8(body.count & 0xFF)] + body }
        var hello = Places_Sync_V1_SyncMessage()
        hello.hello.protocolVersion = 1
        hello.hello.name = "fuzz"
        hello.hello.listenPort = 7478
        var ping = Places_Sync_V1_SyncMessage()
        ping.ping.nonce = 42
        let helloBytes: [UInt8] = (try? hello.serializedBytes()) ?? []
        let pingBytes: [UInt8] = (try? ping.serializedBytes()) ?? []
        let messages = frame([0] + helloBytes) + frame([0] + pingBytes)
        let split = frame([1] + helloBytes.prefix(3)) + frame([0] + helloBytes.dropFirst(3))
        let big = frame([1] + [UInt8](repeating: 0x0A, count: 1500)) + frame([0] + [UInt8](repeating: 0x0A, count: 700))
        return [
            ("messages", [0, 0] + messages),
            ("messages-bytewise", [0, 1] + messages),
            ("split-message", [0, 3] + split),
            ("over-limit", [0, 0] + big),
            ("zero-length", [0, 0] + [0, 0]),
            ("empty-fragment-then-hello", [0, 0] + frame([]) + frame([0] + helloBytes)),
            ("unknown-flag", [0, 0] + frame([7] + pingBytes)),
            (
                "responder-handshake",
                [2, 0] + frame([UInt8](repeating: 1, count: 32)) + frame([UInt8](repeating: 2, count: 160)) + messages
            ),
            ("responder-bad-length", [2, 5] + frame([UInt8](repeating: 1, count: 33))),
            ("initiator-handshake", [1, 7] + frame([UInt8](repeating: 3, count: 192)) + messages),
            ("partial-at-end", [0, 2] + messages + [0, 50, 1, 2, 3]),
            ("max-length-partial", [0, 0] + [0xFF, 0xFF, 0] + [UInt8](repeating: 0x22, count: 100)),
        ]
    }

    static func message(_ build: (inout Places_Sync_V1_SyncMessage) -> Void) -> [UInt8] {
        var message = Places_Sync_V1_SyncMessage()
        build(&message)
        return [0] + ((try? message.serializedBytes()) ?? [])
    }

    static func session(_ memberOps: [[UInt8]]) throws -> [(String, [UInt8])] {
        let hello = message {
            $0.hello.protocolVersion = 1
            $0.hello.name = "Mallory's laptop"
            $0.hello.listenPort = 7478
        }
        func offer(_ vector: [(SigningKeyPair, UInt64)], reply: Bool = false, doc: DocumentID = FuzzWorld.doc)
            -> [UInt8]
        {
            message {
                $0.offer.doc = Data(doc.bytes)
                $0.offer.owner = Data(FuzzWorld.owner.publicKey.bytes)
                $0.offer.reply = reply
                $0.offer.vector = vector.map { author, seq in
                    var entry = Places_Sync_V1_VersionEntry()
                    entry.author = Data(author.publicKey.bytes)
                    entry.seq = seq
                    return entry
                }
            }
        }
        func ops(_ encoded: [[UInt8]]) -> [UInt8] {
            message {
                $0.ops.doc = Data(FuzzWorld.doc.bytes)
                $0.ops.ops = encoded.map { Data($0) }
            }
        }
        let token = try CapabilityToken.issue(
            doc: FuzzWorld.doc, role: .editor, by: FuzzWorld.owner, notBeforeMs: 0, uses: 1,
            addressHints: ["127.0.0.1:7478"], epoch: 0, documentKey: FuzzWorld.docKey,
            tokenID: [UInt8](repeating: 7, count: 16))
        let forged = try CapabilityToken.issue(
            doc: FuzzWorld.doc, role: .editor, by: FuzzWorld.stranger, notBeforeMs: 0, epoch: 0,
            documentKey: FuzzWorld.docKey, tokenID: [UInt8](repeating: 8, count: 16))
        let join = message { $0.join.token = Data(token.encoded) }
        let forgedJoin = message { $0.join.token = Data(forged.encoded) }
        let refused = message {
            $0.joinRefused.doc = Data(FuzzWorld.doc.bytes)
            $0.joinRefused.tokenID = Data([UInt8](repeating: 7, count: 16))
            $0.joinRefused.code = "expired"
            $0.joinRefused.reason = "the link expired"
        }
        let ping = message { $0.ping.nonce = 1 }
        let bye = message { $0.bye.reason = "done" }
        let stray = message { $0.pong.nonce = 2 }
        let base = FuzzWorld.baseOps
        let owner = FuzzWorld.owner
        let member = FuzzWorld.member
        let badBody = op(
            member, seq: 1, deps: [id(base[1])], lamport: 3, body: Array(#"{"t":1,"c":[{"op":"nope"}]}"#.utf8))
        func fragments(_ message: [UInt8]) -> [[UInt8]] {
            let body = Array(message.dropFirst())
            return [[1] + body.prefix(5), [0] + body.dropFirst(5)]
        }
        let sessions: [(String, UInt8, [[UInt8]])] = [
            ("offer-empty", 0, [hello, offer([])]),
            ("offer-behind", 0, [hello, offer([(owner, 1)])]),
            ("offer-ahead", 0, [hello, offer([(owner, 2), (member, 3)])]),
            ("offer-reply", 0, [hello, offer([(owner, 2)], reply: true), ping, stray]),
            ("offer-unknown-doc", 0, [hello, offer([], doc: DocumentID(bytes: [UInt8](repeating: 9, count: 16))!)]),
            ("ops-member", 0, [hello, offer([(owner, 2), (member, UInt64(memberOps.count))]), ops(memberOps)]),
            ("ops-in-two-batches", 0, [hello, ops(Array(memberOps.prefix(2))), ops(Array(memberOps.dropFirst(2)))]),
            ("ops-replayed", 0, [hello, ops(memberOps), ops(memberOps), offer([(owner, 2)])]),
            ("ops-stranger", 1, [hello, offer([]), ops(memberOps)]),
            ("ops-bad-body", 0, [hello, ops([badBody])]),
            ("ops-fragmented", 0, [hello] + fragments(ops(memberOps))),
            ("join", 1, [hello, join, offer([])]),
            ("join-forged", 1, [hello, forgedJoin]),
            ("join-refused", 0, [hello, refused]),
            ("bye", 0, [hello, ping, bye, offer([])]),
            ("no-hello", 0, [offer([])]),
        ]
        return sessions.map { name, peer, messages in (name, [peer] + FuzzReader.records(messages)) }
    }

    static func ingest(_ memberOps: [[UInt8]]) throws -> [(String, [UInt8])] {
        func records(_ items: [(UInt8, [UInt8])]) -> [UInt8] {
            items.flatMap { tag, bytes in [tag] + FuzzReader.records([bytes]) }
        }
        func reseal(_ encoded: [UInt8], _ body: String) -> (UInt8, [UInt8]) {
            (2, FuzzReader.records([encoded]) + Array(body.utf8))
        }
        let base = FuzzWorld.baseOps
        let owner = FuzzWorld.owner
        let member = FuzzWorld.member
        let stranger = FuzzWorld.stranger
        let stop = OpBody(timeMs: FuzzWorld.nowMs, changes: [.create(entity: "77", kind: .stop)]).jsonBytes()
        let demote = OpBody(
            timeMs: FuzzWorld.nowMs,
            changes: [
                .set(
                    entity: member.publicKey.hex, kind: .member, field: "role", value: .string("viewer"),
                    old: .string("editor"))
            ]
        ).jsonBytes()
        let promoteSelf = OpBody(
            timeMs: FuzzWorld.nowMs,
            changes: [
                .create(entity: stranger.publicKey.hex, kind: .member),
                .set(entity: stranger.publicKey.hex, kind: .member, field: "role", value: .string("editor"), old: nil),
            ]
        ).jsonBytes()
        let ownerNext = op(owner, seq: 3, deps: [id(base[1])], lamport: 3, body: demote)
        let memberAfterDemotion = op(member, seq: 1, deps: [id(ownerNext)], lamport: 4, body: stop)
        let concurrent = op(member, seq: 1, deps: [id(base[1])], lamport: 3, body: stop)
        let strangerOp = op(stranger, seq: 1, deps: [id(base[1])], lamport: 3, body: promoteSelf)
        let equivocating = op(member, seq: 1, deps: [id(base[1])], lamport: 3, body: demote)
        let gap = op(member, seq: 2, deps: [id(base[1])], lamport: 3, body: stop)
        let lamportBack = op(member, seq: 1, deps: [id(base[1])], lamport: 1, body: stop)
        let missingDep = op(member, seq: 1, deps: [[UInt8](repeating: 5, count: 32)], lamport: 9, body: stop)
        let otherEpoch = op(member, seq: 1, deps: [id(base[1])], lamport: 3, epoch: 4, body: stop)
        return [
            ("member-ops", records(memberOps.map { (0, $0) })),
            (
                "member-ops-two-batches",
                records(memberOps.prefix(2).map { (0, $0) } + [(3, [])] + memberOps.dropFirst(2).map { (0, $0) })
            ),
            ("member-ops-resigned", records(memberOps.map { (1, $0) })),
            ("replayed", records(memberOps.map { (0, $0) } + [(3, [])] + memberOps.map { (0, $0) })),
            ("base-ops-again", records(base.map { (0, $0) })),
            ("demotion-then-edit", records([(0, ownerNext), (0, memberAfterDemotion)])),
            ("edit-concurrent-with-demotion", records([(0, concurrent), (3, []), (0, ownerNext)])),
            ("stranger-promotes-itself", records([(0, strangerOp)])),
            ("equivocation", records([(0, concurrent), (3, []), (0, equivocating)])),
            ("sequence-gap", records([(0, gap)])),
            ("lamport-backwards", records([(0, lamportBack)])),
            ("missing-dependency", records([(0, missingDep)])),
            ("unknown-epoch", records([(0, otherEpoch)])),
            ("reseal-stop", records([reseal(concurrent, String(decoding: stop, as: UTF8.self))])),
            (
                "reseal-bad-json",
                records([
                    reseal(concurrent, #"{"t":1,"c":[{"op":"set","entity":"x","kind":"stop","field":"name","value":"#)
                ])
            ),
            (
                "reseal-unknown-kind",
                records([reseal(concurrent, #"{"t":1,"c":[{"op":"create","entity":"x","kind":"dragon"}]}"#)])
            ),
            ("reseal-member-field", records([reseal(strangerOp, String(decoding: promoteSelf, as: UTF8.self))])),
            ("truncated", records([(0, Array(memberOps[0].prefix(40)))])),
        ]
    }

    static func tokens() throws -> [(String, [UInt8])] {
        var out: [(String, [UInt8])] = []
        let url = FuzzWorld.fuzzDirectory.deletingLastPathComponent()
            .appendingPathComponent("Protocol/vectors/capabilities/token-vectors.json")
        let json = try JSONSerialization.jsonObject(with: Data(contentsOf: url)) as? [String: Any] ?? [:]
        for token in json["tokens"] as? [[String: Any]] ?? [] {
            let name = token["name"] as? String ?? "token"
            if let hex = token["encoded"] as? String, let bytes = HexCoding.decode(hex) {
                out.append(("vector-\(name)", bytes))
            }
            if let link = token["link"] as? String { out.append(("vector-\(name)-link", Array(link.utf8))) }
        }
        for invalid in (json["invalidTokens"] as? [[String: Any]] ?? []).prefix(8) {
            if let hex = invalid["encoded"] as? String, let bytes = HexCoding.decode(hex) {
                out.append(("invalid-\(invalid["name"] as? String ?? "token")", bytes))
            }
        }
        for invalid in (json["invalidLinks"] as? [[String: Any]] ?? []).prefix(6) {
            if let text = invalid["text"] as? String {
                out.append(("invalid-link-\(invalid["name"] as? String ?? "link")", Array(text.utf8)))
            }
        }
        let full = try CapabilityToken.issue(
            doc: FuzzWorld.doc, role: .viewer, by: FuzzWorld.owner, audience: FuzzWorld.member.publicKey,
            notBeforeMs: FuzzWorld.nowMs - 1000, expiresMs: FuzzWorld.nowMs + 86_400_000, uses: 3,
            addressHints: ["192.168.1.20:7478", "[fe80::1]:7478", "laptop.local:7478", "10.0.0.2:1"], epoch: 2,
            documentKey: FuzzWorld.docKey, tokenID: [UInt8](repeating: 0xA1, count: 16))
        let minimal = try CapabilityToken.issue(
            doc: FuzzWorld.doc, role: .editor, by: FuzzWorld.owner, notBeforeMs: 0, epoch: 0,
            documentKey: FuzzWorld.docKey, tokenID: [UInt8](repeating: 0xA2, count: 16))
        out.append(("issued-full", full.encoded))
        out.append(("issued-full-link", Array(ShareLink(token: full).text.utf8)))
        out.append(("issued-minimal", minimal.encoded))
        out.append(("issued-minimal-link-padded", Array(("\n  " + ShareLink(token: minimal).text + " \t").utf8)))
        // Device records and pairing codes (`Protocol/vectors/devices/`).
        let devicesURL = FuzzWorld.fuzzDirectory.deletingLastPathComponent()
            .appendingPathComponent("Protocol/vectors/devices/device-vectors.json")
        let devices = try JSONSerialization.jsonObject(with: Data(contentsOf: devicesURL)) as? [String: Any] ?? [:]
        for key in ["certificates", "revocations"] {
            for record in devices[key] as? [[String: Any]] ?? [] {
                if let hex = record["encoded"] as? String, let bytes = HexCoding.decode(hex) {
                    out.append(("device-\(record["name"] as? String ?? key)", bytes))
                }
            }
        }
        for code in devices["pairingCodes"] as? [[String: Any]] ?? [] {
            if let text = code["text"] as? String {
                out.append(("pairing-\(code["name"] as? String ?? "code")", Array(text.utf8)))
            }
        }
        return out
    }

    static func beacons() -> [(String, [UInt8])] {
        func datagram(_ who: SigningKeyPair, name: String, ageMs: Int64 = 0, nonce: UInt64, port: UInt16 = 7478)
            -> [UInt8]
        {
            Beacon(
                key: who.publicKey, tcpPort: port, name: name, timestampMs: UInt64(FuzzWorld.nowMs - ageMs),
                nonce: nonce
            ).encoded(signedBy: who)
        }
        func record(_ flags: UInt8, step: UInt16, _ bytes: [UInt8]) -> [UInt8] {
            [flags, UInt8(step >> 8), UInt8(step & 0xFF), UInt8(min(bytes.count, 255))] + bytes.prefix(255)
        }
        let a = datagram(FuzzWorld.member, name: "Mallory's laptop", nonce: 1)
        let b = datagram(FuzzWorld.stranger, name: "", nonce: 2)
        let own = datagram(FuzzWorld.owner, name: "me", nonce: 3)
        let stale = datagram(FuzzWorld.member, name: "old", ageMs: 400_000, nonce: 4)
        let future = datagram(FuzzWorld.member, name: "new", ageMs: -400_000, nonce: 5)
        let longName = datagram(FuzzWorld.member, name: String(repeating: "é", count: 40), nonce: 6)
        var unsigned = a
        unsigned[40] ^= 0xFF
        return [
            ("one", record(0, step: 0, a)),
            ("two-peers", record(0, step: 0, a) + record(2, step: 10, b)),
            ("duplicate", record(0, step: 0, a) + record(2, step: 5, a)),
            ("own", record(0, step: 0, own)),
            ("stale-and-future", record(0, step: 0, stale) + record(0, step: 0, future)),
            ("long-name", record(0, step: 0, longName)),
            ("tampered", record(0, step: 0, unsigned)),
            ("tampered-resigned", record(1, step: 0, unsigned)),
            (
                "flood-one-source",
                (0..<8).flatMap { record(1, step: 1, datagram(FuzzWorld.member, name: "x", nonce: 100 + UInt64($0))) }
            ),
            (
                "many-sources",
                (0..<12).flatMap {
                    record(
                        UInt8($0 % 4) << 1 | 1, step: 300,
                        datagram(FuzzWorld.stranger, name: "s", nonce: 200 + UInt64($0)))
                }
            ),
            ("not-a-beacon", record(0, step: 0, Array("HELLO".utf8))),
            ("wrong-version", record(0, step: 0, Array("PLBC".utf8) + [2] + a.dropFirst(5))),
        ]
    }

    static func control() -> [(String, [UInt8])] {
        func request(_ method: String, _ uri: String, _ body: String? = nil, headers: [String] = []) -> String {
            var text = "\(method) \(uri) HTTP/1.1\r\nHost: localhost\r\n"
            for header in headers { text += header + "\r\n" }
            if let body { text += "Content-Type: application/json\r\nContent-Length: \(body.utf8.count)\r\n" }
            return text + "\r\n" + (body ?? "")
        }
        let requests: [(String, UInt8, String)] = [
            ("status", 0, request("GET", "/v1/status")),
            ("init", 0, request("POST", "/v1/init", #"{"name":"Ana","username":"ana","noPassphrase":true}"#)),
            ("login", 0, request("POST", "/v1/login", #"{"passphrase":"correct horse"}"#)),
            (
                "create-itinerary", 0,
                request(
                    "POST", "/v1/itineraries",
                    #"{"name":"Lisbon","startDate":"2026-05-01","budget":{"amount":"120.50","currency":"EUR"}}"#)
            ),
            ("add-stop", 0, request("POST", "/v1/itineraries/lisbon/stops", #"{"placeId":"p1","position":2}"#)),
            ("share", 0, request("POST", "/v1/itineraries/lisbon/share", #"{"member":"pl1abc","role":"editor"}"#)),
            ("link", 0, request("POST", "/v1/itineraries/lisbon/links", #"{"role":"viewer","expires":"7d","uses":3}"#)),
            ("join", 0, request("POST", "/v1/join", #"{"link":"places://join/00#AAAA"}"#)),
            ("peers", 0, request("POST", "/v1/peers", #"{"address":"127.0.0.1:7478"}"#)),
            ("query", 0, request("GET", "/v1/places?q=caf%C3%A9+bar&limit=5&x")),
            (
                "pipelined", 3,
                request("GET", "/v1/status")
                    + request("PATCH", "/v1/places/p1", #"{"name":"a\"b\\c\u0001","note":null,"rating":4.5}"#)
            ),
            ("origin", 0, request("GET", "/v1/status", headers: ["Origin: http://evil.example"])),
            (
                "chunked", 1,
                "POST /v1/places HTTP/1.1\r\nTransfer-Encoding: chunked\r\n\r\n5\r\n{\"a\":\r\n3\r\n1}\n\r\n0\r\n\r\n"
            ),
            (
                "flat-object", 0,
                request("PUT", "/v1/profile", #"{"name":"Ana","age":30,"x":-0.5,"ok":true,"none":null}"#)
            ),
            ("garbage", 0, "GET / HTTP/9.9\r\n\0\r\n\r\n"),
        ]
        return requests.map { name, chunk, text in (name, [chunk] + Array(text.utf8)) }
    }
}
