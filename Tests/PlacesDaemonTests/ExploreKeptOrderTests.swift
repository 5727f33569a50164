import Foundation
import PlacesAPI
import PlacesControl
import PlacesCrypto
import PlacesModel
import PlacesStore
import PlacesSync
import PlacesTestSupport
import Testing

@testable import PlacesDaemon

/// Explore keeps each sort's order and moves only the trips that changed
/// (`ExploreComponent.ranked`): after every step of a random sequence of changes (likes and
/// unlikes, this identity's and peers'; saves; trips published, changed and unpublished, here
/// and by a peer whose ops are ingested), every listing equals a freshly built index's.
@Suite("Explore kept order")
struct ExploreKeptOrderTests {
    static let cities = [
        ("Lisbon", 38.7167, -9.1333), ("Porto", 41.1496, -8.6110), ("Madrid", 40.4168, -3.7038),
        ("Paris", 48.8566, 2.3522),
    ]
    static let queries: [[String: String]] = [
        [:], ["sort": "likes"], ["q": "lisbon"], ["sort": "likes", "q": "porto"], ["limit": "500"],
        ["sort": "likes", "limit": "500"], ["country": "PT", "sort": "likes"], ["q": "trip", "limit": "3"],
    ]

    @Test("the kept order answers as a fresh index after random changes", arguments: [34, 35] as [UInt64])
    func keptEqualsFresh(seed: UInt64) async throws {
        let ana = try await Side.start("Ana"), bruno = try await Side.start("Bruno")
        defer {
            ana.close()
            bruno.close()
        }
        var random = SeededRandom(seed: seed)
        let likers = try (0..<5).map { _ in try SigningKeyPair() }
        var mine = [Trip](), theirs = [Trip]()
        var sent = Set<[UInt8]>()
        var clock = RFC3339.nowMs() - 3_600_000
        func tick() -> String {
            clock += 1_000
            return RFC3339.string(ms: clock)
        }
        for step in 0..<120 {
            let live = mine.filter(\.live), all = mine + theirs
            switch random.next() % 9 {
            case 0, 1:
                mine.append(try await ana.publish(Self.cities[Int(random.next() % 4)], number: step))
            case 2 where !live.isEmpty:
                let trip = live[Int(random.next() % UInt64(live.count))]
                #expect(await ana.send("DELETE", "/v1/itineraries/\(trip.itinerary)/publish") == 204)
                mine = mine.map { $0.published == trip.published ? $0.withdrawn() : $0 }
            case 3 where !all.isEmpty:
                // This identity's like, given or taken back (own trips: an op; others': a record).
                let trip = all[Int(random.next() % UInt64(all.count))]
                _ = await ana.send(random.next() % 2 == 0 ? "PUT" : "DELETE", "/v1/explore/\(trip.published)/like")
            case 4 where !live.isEmpty:
                // A peer's like of one of this identity's trips.
                let trip = live[Int(random.next() % UInt64(live.count))]
                let liker = likers[Int(random.next() % UInt64(likers.count))]
                let liked = random.next() % 3 != 0, at = tick()
                guard let doc = DocumentID(hex: trip.published) else { continue }
                let signature = liker.sign(
                    PublishedLike.message(doc: doc, liker: liker.publicKey.bytes, liked: liked, at: at))
                await ana.engine.receiveLike(
                    PublishedLike(doc: doc, liked: liked, at: at, signature: signature.bytes), from: liker.publicKey)
            case 5 where !all.isEmpty:
                let trip = all[Int(random.next() % UInt64(all.count))]
                _ = await ana.send(random.next() % 2 == 0 ? "PUT" : "DELETE", "/v1/explore/\(trip.published)/save")
            case 6:
                // The peer publishes a trip: offered, then its ops ingested.
                let trip = try await bruno.publish(Self.cities[Int(random.next() % 4)], number: step)
                theirs.append(trip)
                try await bruno.hand(trip, to: ana, sent: &sent, offer: true)
            case 7 where !theirs.isEmpty:
                // The peer renames and publishes again, or unpublishes: its new ops ingested.
                let trip = theirs[Int(random.next() % UInt64(theirs.count))]
                if random.next() % 3 == 0 {
                    _ = await bruno.send("DELETE", "/v1/itineraries/\(trip.itinerary)/publish")
                } else {
                    _ = await bruno.send(
                        "PATCH", "/v1/itineraries/\(trip.itinerary)", #"{"name":"Renamed trip \#(step)"}"#)
                    _ = await bruno.send(
                        "POST", "/v1/itineraries/\(trip.itinerary)/publish", #"{"audience":"network"}"#)
                }
                try await bruno.hand(trip, to: ana, sent: &sent, offer: false)
            default:
                continue
            }
            let fresh = try await Self.freshLists(ana.engine, Self.queries)
            for (query, fresh) in zip(Self.queries, fresh) {
                let kept = try await ana.engine.exploreList(query: query)
                #expect(kept == fresh, "step \(step), query \(query)")
            }
        }
        let listed = try await ana.engine.exploreList(query: ["limit": "500"])
        #expect(listed.objectValue?["trips"]?.arrayValue?.isEmpty == false)
    }

    /// What a new index (every trip read again, sorted whole) answers to each query.
    static func freshLists(_ engine: isolated Engine, _ queries: [[String: String]]) throws -> [JSONValue] {
        var fresh = ExploreComponent()
        return try queries.map { try fresh.list(query: $0, engine.exploreContext) }
    }

    struct Trip {
        var itinerary: String
        var published: String
        var live = true

        func withdrawn() -> Trip { Trip(itinerary: itinerary, published: published, live: false) }
    }

    /// One in-process daemon, logged in.
    struct Side {
        let dir: TempDir
        let daemon: InProcessDaemon
        var engine: Engine { daemon.engine }

        static func start(_ name: String) async throws -> Side {
            let dir = TempDir()
            let side = Side(dir: dir, daemon: try await InProcessDaemon.start(dataDir: dir.path))
            let status = await side.send(
                "POST", "/v1/init", #"{"name":"\#(name)","username":"\#(name.lowercased())","noPassphrase":true}"#)
            guard status == 201 else { throw HarnessError("init answered \(status)") }
            return side
        }

        func close() {
            daemon.shutdown()
            dir.remove()
        }

        @discardableResult
        func send(_ method: String, _ path: String, _ body: String? = nil) async -> Int {
            await status(daemon.handle(request(method, path, body)))
        }

        func object(_ method: String, _ path: String, _ body: String) async throws -> [String: JSONValue] {
            guard case .json(let status, let bytes) = await daemon.handle(request(method, path, body)),
                (200..<300).contains(status),
                let object = try JSONDecoder().decode(JSONValue.self, from: Data(bytes)).objectValue
            else { throw HarnessError("\(method) \(path) failed") }
            return object
        }

        func request(_ method: String, _ path: String, _ body: String?) -> ControlRequest {
            ControlRequest(method: method, path: path, body: body.map { Array($0.utf8) } ?? [])
        }

        func status(_ response: PlacesControl.ControlResponse) -> Int {
            switch response {
            case .json(let status, _), .jsonParts(let status, _), .raw(let status, _, _): status
            case .problem(let problem): problem.status
            case .stream: 200
            }
        }

        /// A new trip of one item in `city`, published to the network.
        func publish(_ city: (String, Double, Double), number: Int) async throws -> Trip {
            let itinerary = try await object(
                "POST", "/v1/itineraries",
                #"{"name":"\#(city.0) trip \#(number)","startDate":"2027-05-01","endDate":"2027-05-02"}"#)
            guard let id = itinerary["id"]?.stringValue else { throw HarnessError("no itinerary id") }
            _ = try await object(
                "POST", "/v1/itineraries/\(id)/items",
                #"{"type":"activity","title":"Walk \#(number)","start":"2027-05-01T10:00","location":{"latitude":\#(city.1),"longitude":\#(city.2)}}"#
            )
            let published = try await object("POST", "/v1/itineraries/\(id)/publish", #"{"audience":"network"}"#)
            guard let trip = published["id"]?.stringValue else { throw HarnessError("not published") }
            return Trip(itinerary: id, published: trip)
        }

        /// Hands the trip's ops not sent yet to `other`, as sync would: offered first when new.
        func hand(_ trip: Trip, to other: Side, sent: inout Set<[UInt8]>, offer: Bool) async throws {
            guard let doc = DocumentID(hex: trip.published), let me = await engine.me else {
                throw HarnessError("no trip")
            }
            if offer {
                guard let itinerary = DocumentID(hex: trip.itinerary),
                    let publication = try daemon.store.publication(itinerary: itinerary)
                else { throw HarnessError("no publication") }
                var received = ReceivedOffer(doc: doc, owner: me.bytes, grants: [], role: "network", kind: .published)
                received.salt = publication.salt
                guard await other.engine.receivePublished(received, from: me) != nil else {
                    throw HarnessError("the offer was refused")
                }
            }
            let ops = try daemon.store.ops(of: doc).map(\.encoded).filter { !sent.contains($0) }
            guard !ops.isEmpty else { return }
            sent.formUnion(ops)
            _ = await other.engine.ingest(ops, into: doc, from: me)
        }
    }
}
