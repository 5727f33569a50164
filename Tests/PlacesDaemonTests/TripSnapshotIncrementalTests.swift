import Foundation
import PlacesAPI
import PlacesControl
import PlacesModel
import PlacesStore
import PlacesTestSupport
import Testing

@testable import PlacesDaemon

/// The trip folder kept op by op (`TripSnapshots`) answers as one read afresh: after each
/// step of a seeded sequence of local writes (adds, edits, deletes, moves, places to go,
/// the itinerary's notes and dates) and of ops from a peer (the same person's other copy of
/// the data: edits, undeletes, reorders, root changes, and at the end an equivocation), the
/// `/days`, `/warnings` and `/items` answers and every list of the kept snapshot equal those
/// of a snapshot read from the store, and the itinerary's answer (its places to go kept by
/// `ItineraryPlaces`) equals one read whole.
@Suite("Trip snapshot kept op by op", .serialized)
struct TripSnapshotIncrementalTests {
    /// Two daemons over copies of one data dir: `a` is read, `b` is the peer.
    struct Pair {
        let dirA = TempDir(), dirB = TempDir()
        let a: InProcessDaemon
        let b: InProcessDaemon
        let doc: DocumentID
        let places: [String]

        init() async throws {
            var first = try await InProcessDaemon.start(dataDir: dirA.path)
            _ = await Self.send(first, "POST", "/v1/init", #"{"name":"Ana","username":"ana","noPassphrase":true}"#)
            var places = [String]()
            for i in 0..<6 {
                let place = try Self.object(
                    await Self.send(
                        first, "POST", "/v1/places",
                        #"{"name":"Spot \#(i)","latitude":\#(38.7 + Double(i) * 0.01),"longitude":-9.1}"#))
                places.append(place["id"]?.stringValue ?? "")
            }
            let trip = try Self.object(
                await Self.send(
                    first, "POST", "/v1/itineraries",
                    #"{"name":"Lisbon","startDate":"2027-05-01","endDate":"2027-05-06","timeZone":"Europe/Lisbon"}"#))
            guard let hex = trip["id"]?.stringValue, let doc = DocumentID(hex: hex) else {
                throw HarnessError("no itinerary")
            }
            first.shutdown()
            try FileManager.default.removeItem(atPath: dirB.path)
            try FileManager.default.copyItem(atPath: dirA.path, toPath: dirB.path)
            first = try await InProcessDaemon.start(dataDir: dirA.path)
            a = first
            b = try await InProcessDaemon.start(dataDir: dirB.path)
            self.doc = doc
            self.places = places
        }

        func close() {
            a.shutdown()
            b.shutdown()
            dirA.remove()
            dirB.remove()
        }

        static func send(_ d: InProcessDaemon, _ method: String, _ path: String, _ body: String = "") async
            -> PlacesControl.ControlResponse
        {
            await d.handle(ControlRequest(method: method, path: path, query: [:], body: Array(body.utf8)))
        }

        static func bytes(_ r: PlacesControl.ControlResponse) throws -> [UInt8] {
            // The itinerary's answer comes in parts (its places kept, `ItineraryPlaces`).
            guard case (let status, let body)? = r.jsonBody, status < 300 else { throw HarnessError("refused: \(r)") }
            return body
        }

        static func object(_ r: PlacesControl.ControlResponse) throws -> [String: JSONValue] {
            let value = try JSONDecoder().decode(JSONValue.self, from: Data(try bytes(r)))
            guard let o = value.objectValue else { throw HarnessError("not an object") }
            return o
        }

        /// Hands every op of the itinerary `from` holds to `to`, as a peer's batch.
        func sync(from: InProcessDaemon, to: InProcessDaemon) async throws {
            let ops = try from.store.ops(of: doc).map(\.encoded)
            guard let peer = await from.engine.me else { throw HarnessError("logged out") }
            _ = await to.engine.ingest(ops, into: doc, from: peer)
        }

        /// The answers of `a` (through its kept snapshot) against a snapshot read afresh.
        func check(_ step: String) async throws {
            let base = "/v1/itineraries/\(doc.hex)"
            let days = try Self.bytes(await Self.send(a, "GET", "\(base)/days"))
            let warnings = try Self.bytes(await Self.send(a, "GET", "\(base)/warnings"))
            let items = try Self.bytes(await Self.send(a, "GET", "\(base)/items"))
            // The itinerary's answer (its places kept, `ItineraryPlaces`) against a full read.
            let itinerary = try Self.bytes(await Self.send(a, "GET", base))
            let full = try await a.engine.itinerary(doc.hex).jsonBytes()
            #expect(
                String(decoding: itinerary, as: UTF8.self) == String(decoding: full, as: UTF8.self),
                "itinerary after \(step)")
            guard let record = try a.store.document(doc) else { throw HarnessError("no document") }
            let kept = try await a.engine.tripSnapshot(record)
            let fresh = try TripSnapshot(doc: doc, store: a.store)
            let weather = await a.engine.tripDayWeather(fresh)
            #expect(
                String(decoding: days, as: UTF8.self)
                    == String(decoding: fresh.daysBody(weather: weather), as: UTF8.self), "days after \(step)")
            var expected = [UInt8]()
            Engine.warningsJSON(fresh).write(to: &expected)
            #expect(warnings == expected, "warnings after \(step)")
            var list = [UInt8]()
            Engine.itemsJSON(fresh, type: nil).write(to: &list)
            #expect(
                try JSONDecoder().decode(JSONValue.self, from: Data(items))
                    == JSONDecoder().decode(JSONValue.self, from: Data(list)), "items after \(step)")
            #expect(kept.root == fresh.root, "root after \(step)")
            #expect(kept.itemRecords == fresh.itemRecords, "item records after \(step)")
            #expect(kept.stops == fresh.stops, "places to go after \(step)")
            #expect(kept.itemList == fresh.itemList, "item list after \(step)")
            #expect(kept.json == fresh.json, "objects after \(step)")
            #expect(kept.trip == fresh.trip, "trip after \(step)")
            #expect(kept.lastItemPosition == fresh.itemRecords.compactMap(\.position).max(), "last after \(step)")
        }
    }

    static let types = ["lodging", "transport", "food", "activity"]

    /// A random item body: a type, a title, maybe a day and a time (some outside the trip).
    static func itemBody(_ rng: inout SeededRandom, _ n: Int) -> String {
        let type = types[Int(rng.next() % 4)]
        var body = #""type":"\#(type)","title":"Item \#(n)""#
        switch rng.next() % 4 {
        case 0: break
        case 1: body += #","start":"2027-05-0\#(1 + rng.next() % 7)""#
        default:
            let day = 1 + rng.next() % 6, hour = 10 + rng.next() % 10
            body += #","start":"2027-05-0\#(day)T\#(hour):00","end":"2027-05-0\#(day)T\#(hour + 1):30""#
        }
        if rng.next() % 2 == 0 { body += #","location":{"latitude":38.7\#(rng.next() % 9),"longitude":-9.1}"# }
        return "{\(body)}"
    }

    @Test("local writes and a peer's ops, in a seeded order: answers equal a fresh read")
    func randomized() async throws {
        let pair = try await Pair()
        defer { pair.close() }
        let a = pair.a, b = pair.b, base = "/v1/itineraries/\(pair.doc.hex)"
        var rng = SeededRandom(seed: 34)
        try await pair.check("start")
        var seen = Set<String>()
        for step in 0..<160 {
            let fresh = try TripSnapshot(doc: pair.doc, store: a.store)
            let items = fresh.itemRecords, stops = fresh.stops
            seen.formUnion(items.map(\.id))
            let pick = rng.next() % 14
            let label: String
            switch pick {
            case 0, 1, 2:
                label = "add"
                _ = try Pair.bytes(await Pair.send(a, "POST", "\(base)/items", Self.itemBody(&rng, step)))
            case 3 where !items.isEmpty:
                label = "edit"
                let item = items[Int(rng.next() % UInt64(items.count))]
                let body =
                    rng.next() % 2 == 0
                    ? #"{"title":"Edited \#(step)"}"# : #"{"start":"2027-05-0\#(1 + rng.next() % 6)T09:00","end":null}"#
                _ = await Pair.send(a, "PATCH", "\(base)/items/\(item.id)", body)
            case 4 where !items.isEmpty:
                label = "delete"
                let item = items[Int(rng.next() % UInt64(items.count))]
                _ = try Pair.bytes(await Pair.send(a, "DELETE", "\(base)/items/\(item.id)"))
            case 5 where !items.isEmpty:
                label = "move"
                let item = items[Int(rng.next() % UInt64(items.count))]
                _ = await Pair.send(
                    a, "POST", "\(base)/items/\(item.id)/move",
                    #"{"date":"2027-05-0\#(1 + rng.next() % 6)","position":\#(1 + rng.next() % 3)}"#)
            case 6:
                label = "place to go"
                let place = pair.places[Int(rng.next() % UInt64(pair.places.count))]
                _ = await Pair.send(a, "POST", "\(base)/places", #"{"placeId":"\#(place)"}"#)
            case 7 where !stops.isEmpty:
                label = "place to go moved or removed"
                let stop = stops[Int(rng.next() % UInt64(stops.count))]
                if rng.next() % 2 == 0 {
                    _ = await Pair.send(a, "POST", "\(base)/places/\(stop.id)/move", #"{"position":1}"#)
                } else {
                    _ = await Pair.send(a, "DELETE", "\(base)/places/\(stop.id)")
                }
            case 8:
                label = "notes"
                _ = try Pair.bytes(await Pair.send(a, "PATCH", base, #"{"notes":"n\#(step)"}"#))
            case 9:
                label = "dates and lodging"
                let end = 4 + rng.next() % 5
                _ = try Pair.bytes(
                    await Pair.send(
                        a, "PATCH", base,
                        #"{"endDate":"2027-05-0\#(end)","lodging":{"name":"Casa \#(step)","checkIn":"2027-05-01"}}"#))
            default:
                label = "peer op"
                try await peerWrite(pair, &rng, step: step, seen: seen)
            }
            try await pair.check("step \(step) (\(label))")
        }
        let reads = await a.engine.tripReads
        #expect(reads.appliedInPlace > 100, "writes were applied one by one: \(reads)")
        let places = await a.engine.placesReads
        #expect(
            places.reused > 60 && places.readAnew > 10, "places kept, and written anew after theirs changed: \(places)")
        // The same person's two copies write at one seq: the store re-materializes the whole
        // document, and the kept snapshot is read anew.
        _ = try Pair.bytes(await Pair.send(a, "POST", "\(base)/items", Self.itemBody(&rng, 1_000)))
        _ = try Pair.bytes(await Pair.send(b, "POST", "\(base)/items", Self.itemBody(&rng, 1_001)))
        try await pair.check("a's write before the fork")
        try await pair.sync(from: b, to: a)
        try await pair.check("an equivocation")
        #expect(await a.engine.tripReads.readAnew > reads.readAnew, "the equivocation made a read anew")
        try await pair.sync(from: a, to: b)
        try await peerWrite(pair, &rng, step: 1_002, seen: seen)
        try await pair.check("a peer's op after the equivocation")
    }

    /// The peer catches up, writes one op of raw changes (what another app version, an undo
    /// or a reorder sends), and `a` takes it.
    func peerWrite(_ pair: Pair, _ rng: inout SeededRandom, step: Int, seen: Set<String>) async throws {
        try await pair.sync(from: pair.a, to: pair.b)
        let doc = pair.doc
        let all = try pair.b.store.entities(in: doc, kind: .activity) + pair.b.store.entities(in: doc, kind: .food)
        let deleted = try pair.b.store.entities(in: doc, ids: seen.sorted()).filter(\.deleted)
        var changes = [Change]()
        switch rng.next() % 6 {
        case 0 where !all.isEmpty:
            let e = all[Int(rng.next() % UInt64(all.count))]
            changes = [.set(entity: e.id, kind: e.kind, field: "title", value: .string("Peer \(step)"), old: nil)]
        case 1 where !all.isEmpty:
            // A reorder: a key before every other.
            let e = all[Int(rng.next() % UInt64(all.count))]
            changes = [.set(entity: e.id, kind: e.kind, field: "position", value: .string("0\(step)1"), old: nil)]
        case 2 where !all.isEmpty:
            let e = all[Int(rng.next() % UInt64(all.count))]
            changes = [.tombstone(entity: e.id, kind: e.kind)]
        case 3:
            changes = [
                .set(entity: doc.hex, kind: .itinerary, field: "notes", value: .string("peer \(step)"), old: nil),
                .set(
                    entity: doc.hex, kind: .itinerary, field: "startDate",
                    value: .string("2027-05-0\(1 + rng.next() % 2)"), old: nil),
            ]
        case 4:
            // A place to go renamed by the peer (when the trip has one).
            if let stop = try pair.b.store.entities(in: doc, kind: .stop).first {
                changes = [.set(entity: stop.id, kind: .stop, field: "name", value: .string("Peer \(step)"), old: nil)]
            }
        default:
            let id = EntityLookup.newID()
            changes = [
                .create(entity: id, kind: .food),
                .set(entity: id, kind: .food, field: "title", value: .string("Peer meal \(step)"), old: nil),
                .set(entity: id, kind: .food, field: "start", value: .string("2027-05-02T13:00"), old: nil),
                .set(entity: id, kind: .food, field: "position", value: .string("m\(step)5"), old: nil),
            ]
        }
        // An undo of a delete, when there is one to undo.
        if let gone = deleted.first, rng.next() % 2 == 0 {
            changes.append(
                .set(entity: gone.id, kind: gone.kind, field: "deleted", value: .bool(false), old: .bool(true)))
        }
        if !changes.isEmpty { try await pair.b.engine.commit(doc, changes) }
        try await pair.sync(from: pair.b, to: pair.a)
    }
}
