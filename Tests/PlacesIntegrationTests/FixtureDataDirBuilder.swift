import Foundation
import PlacesTestSupport
import Testing

/// Makes Tests/Fixtures/datadir-v1 with real daemons: Ana's data dir with everything a user
/// accumulates, shaped by three other identities (Bruno edits and shares, Chloé joins with a
/// link, Dmitri's share waits as an invitation), then what every read route answered.
///
/// Runs only with `PLACES_MAKE_FIXTURE=1` (scripts/make-fixture-datadir.sh). The fixture
/// proves that data dirs made by *older* daemons still open: regenerate it only with the
/// binaries of the commit whose format it should pin (`PLACES_BIN_DIR`), never to make a
/// failing comparison pass.
@Suite("Fixture data dir builder", .serialized)
struct FixtureDataDirBuilder {
    @Test(
        "make the fixture data dir and capture every read route",
        .enabled(if: ProcessInfo.processInfo.environment["PLACES_MAKE_FIXTURE"] == "1"))
    func build() throws {
        let ana = try PeerNode("Ana Lúcia", username: "ana")
        let bruno = try PeerNode("Bruno Świątek", username: "bruno")
        let chloe = try PeerNode("Chloé", username: "chloe")
        let dmitri = try PeerNode("Дмитрий", username: "dmitri")
        for other in [bruno, chloe, dmitri] {
            try ana.addPeer(other)
            try other.addPeer(ana)
        }
        try waitUntil("Ana is connected to the three others") {
            let peers = try ana.json("GET", "/v1/peers")["peers"] as? [[String: Any]] ?? []
            return peers.filter { $0["connected"] as? Bool == true }.count == 3
        }
        try ana.trust(bruno, name: "Bruno (work)")
        try bruno.trust(ana)

        // The library: every field, non-ASCII names, an edit and a deletion.
        let placeBodies = [
            #"{"name":"Torre de Belém","latitude":38.6916,"longitude":-9.2160,"address":"Av. Brasília, 1400-038 Lisboa","categories":["monument","view"],"priceLevel":2,"rating":4.6,"notes":"Go early — queues after 10:00.","url":"https://www.torrebelem.gov.pt/"}"#,
            #"{"name":"Pastéis de Belém","latitude":38.6975,"longitude":-9.2032,"categories":["café","pastry"],"priceLevel":1,"rating":4.8,"notes":"Canela & açúcar 🍮"}"#,
            #"{"name":"Livraria Lello","latitude":41.1469,"longitude":-8.6148,"address":"R. das Carmelitas 144, Porto","categories":["bookshop"],"priceLevel":2,"rating":4.3,"url":"https://www.livrarialello.pt/"}"#,
            #"{"name":"伏見稲荷大社","latitude":34.9671,"longitude":135.7727,"address":"京都市伏見区深草藪之内町68","categories":["shrine","hike"],"rating":4.9,"notes":"千本鳥居"}"#,
            #"{"name":"Nishiki Market","latitude":35.0050,"longitude":135.7649,"categories":["market","food"],"priceLevel":3}"#,
            #"{"name":"Sagrada Família","latitude":41.4036,"longitude":2.1744,"categories":["church"],"priceLevel":4,"rating":4.7,"url":"https://sagradafamilia.org/"}"#,
            #"{"name":"To delete","latitude":0,"longitude":0}"#,
        ]
        var places: [String] = []
        for body in placeBodies { places.append(try ana.json("POST", "/v1/places", body)["id"] as? String ?? "") }
        try ana.json("PATCH", "/v1/places/\(places[2])", #"{"notes":"Arrive 9:00; tickets online.","rating":4.4}"#)
        try ana.json(
            "PATCH", "/v1/places/\(places[4])", #"{"url":"https://www.kyoto-nishiki.or.jp/","priceLevel":null}"#)
        _ = try ana.send("DELETE", "/v1/places/\(places[6])")

        // Favorites in a custom order, one removed.
        var favorites: [String] = []
        for i in [0, 1, 3, 5, 2] {
            favorites.append(
                try ana.json("POST", "/v1/favorites", #"{"placeId":"\#(places[i])"}"#)["id"] as? String ?? "")
        }
        try ana.json("POST", "/v1/favorites/\(favorites[3])/move", #"{"position":1}"#)
        try ana.json("POST", "/v1/favorites/\(favorites[1])/move", #"{"position":4}"#)
        _ = try ana.send("DELETE", "/v1/favorites/\(favorites[4])")

        // Itinerary 1: lodging, transport text, prices in two currencies, stops moved, one deleted.
        let lisbon = try ana.json(
            "POST", "/v1/itineraries",
            #"{"name":"Lisboa → Porto","startDate":"2027-05-01","endDate":"2027-05-08","transportation":"Comboio Alfa Pendular, 2.ª classe","lodging":{"name":"Casa do Fado","address":"Rua da Mouraria 12","checkIn":"2027-05-01","checkOut":"2027-05-04"},"travelPrice":{"amountMinor":4590,"currency":"EUR"},"lodgingPrice":{"amountMinor":38000,"currency":"USD"},"notes":"Bring a raincoat.","places":["\#(places[0])","\#(places[1])","\#(places[2])"]}"#
        )
        let lisbonID = lisbon["id"] as? String ?? ""
        try ana.json("POST", "/v1/itineraries/\(lisbonID)/places", #"{"placeId":"\#(places[5])","position":2}"#)
        let stops = try stopIDs(ana, lisbonID)
        try ana.json("POST", "/v1/itineraries/\(lisbonID)/places/\(stops[3])/move", #"{"position":1}"#)
        try ana.json("POST", "/v1/itineraries/\(lisbonID)/places/\(stops[0])/move", #"{"position":3}"#)
        try ana.json("DELETE", "/v1/itineraries/\(lisbonID)/places/\(stops[1])")
        try ana.json(
            "PATCH", "/v1/itineraries/\(lisbonID)",
            #"{"lodging":{"checkOut":"2027-05-05"},"notes":"Bring a raincoat ☔"}"#)

        // Itinerary 2: no lodging, one price.
        let kyoto = try ana.json(
            "POST", "/v1/itineraries",
            #"{"name":"京都 (Kyoto)","startDate":"2027-10-10","travelPrice":{"amountMinor":120000,"currency":"JPY"},"places":["\#(places[3])","\#(places[4])"]}"#
        )
        let kyotoID = kyoto["id"] as? String ?? ""
        try ana.json("PATCH", "/v1/itineraries/\(kyotoID)", #"{"transportation":"JR Pass 🚄","notes":null}"#)

        // Sharing: Bruno as an editor by id, his edits; a viewer link Chloé joins with; an editor link revoked.
        try ana.json("POST", "/v1/itineraries/\(lisbonID)/share", #"{"member":"\#(bruno.id)","role":"editor"}"#)
        try waitUntil("Bruno holds Lisboa") { try bruno.send("GET", "/v1/itineraries/\(lisbonID)").ok }
        let bPlace = try bruno.json(
            "POST", "/v1/places", #"{"name":"Miradouro da Graça","latitude":38.7163,"longitude":-9.1310}"#)
        try bruno.json(
            "POST", "/v1/itineraries/\(lisbonID)/places", #"{"placeId":"\#(bPlace["id"] as? String ?? "")"}"#)
        try bruno.json(
            "PATCH", "/v1/itineraries/\(lisbonID)",
            #"{"transportation":"Comboio + metro","lodgingPrice":{"amountMinor":36500,"currency":"USD"}}"#)
        try waitUntil("Bruno's edits reach Ana") {
            let transport = try ana.json("GET", "/v1/itineraries/\(lisbonID)")["transportation"] as? String
            return try transport == "Comboio + metro" && stopIDs(ana, lisbonID).count == 4
        }
        let viewerLink = try ana.json("POST", "/v1/itineraries/\(lisbonID)/links", #"{"role":"viewer"}"#)
        let editorLink = try ana.json(
            "POST", "/v1/itineraries/\(lisbonID)/links", #"{"role":"editor","uses":3,"expires":"2099-12-31"}"#)
        let joined = try chloe.send(
            "POST", "/v1/join", #"{"link":"\#(viewerLink["url"] as? String ?? "")","waitSeconds":30}"#)
        #expect(joined.ok, "\(joined.text)")
        try waitUntil("Chloé's join reaches Ana") {
            (try ana.json("GET", "/v1/itineraries/\(lisbonID)/members")["count"] as? Int) == 3
        }
        try ana.json("DELETE", "/v1/itineraries/\(lisbonID)/links/\(editorLink["id"] as? String ?? "")")

        // A share received from a contact (Ana edits it too), and one from a stranger, waiting.
        let barcelona = try bruno.json(
            "POST", "/v1/itineraries",
            #"{"name":"Barcelona amb l'Ana","startDate":"2027-07-14","endDate":"2027-07-16","places":["\#(bPlace["id"] as? String ?? "")"]}"#
        )
        let barcelonaID = barcelona["id"] as? String ?? ""
        try bruno.json("POST", "/v1/itineraries/\(barcelonaID)/share", #"{"member":"\#(ana.id)","role":"editor"}"#)
        try waitUntil("Barcelona reaches Ana") { try ana.send("GET", "/v1/itineraries/\(barcelonaID)").ok }
        try ana.json("POST", "/v1/itineraries/\(barcelonaID)/places", #"{"placeId":"\#(places[5])"}"#)
        try ana.json(
            "PATCH", "/v1/itineraries/\(barcelonaID)", #"{"notes":"Tapas at 21:00","lodging":{"name":"Hostal Ñ"}}"#)
        try waitUntil("Ana's edits reach Bruno") {
            (try bruno.json("GET", "/v1/itineraries/\(barcelonaID)")["notes"] as? String) == "Tapas at 21:00"
        }
        let dmitriTrip = try dmitri.json("POST", "/v1/itineraries", #"{"name":"Байкал"}"#)
        try dmitri.json(
            "POST", "/v1/itineraries/\(dmitriTrip["id"] as? String ?? "")/share",
            #"{"member":"\#(ana.id)","role":"viewer"}"#)
        try waitUntil("Dmitri's share waits at Ana as an invitation") {
            (try ana.json("GET", "/v1/invitations")["count"] as? Int) == 1
        }
        try ana.trust(chloe)
        Thread.sleep(forTimeInterval: 1)

        // A clean shutdown leaves the ops in the WAL (placesd does not checkpoint at exit): the
        // fixture is the database with its WAL checkpointed by SQLite, one file, same content.
        ana.stop()
        // The others stop too: names shown come from what Ana stored, not from live connections.
        for other in [bruno, chloe, dmitri] { other.stop() }
        let out = FixtureDataDir.data
        try? FileManager.default.removeItem(at: FixtureDataDir.root)
        try FileManager.default.createDirectory(at: out, withIntermediateDirectories: true)
        try FixtureDataDir.copy(from: URL(fileURLWithPath: ana.dir.path), to: out.path)
        let wal = ana.dir.path + "/places.sqlite-wal"
        if FileManager.default.fileExists(atPath: wal) {
            try FileManager.default.copyItem(atPath: wal, toPath: out.path + "/places.sqlite-wal")
        }
        try DatabaseProbe.checkpoint(path: out.path + "/places.sqlite")
        #expect(try DatabaseProbe(path: out.path + "/places.sqlite").integrityCheck() == ["ok"])
        for suffix in ["-wal", "-shm"] {
            try? FileManager.default.removeItem(atPath: out.path + "/places.sqlite" + suffix)
        }

        // What the routes answer, read from a copy (opening a shared itinerary records a view).
        let copy = TempDir()
        defer { copy.remove() }
        try FixtureDataDir.copy(from: out, to: copy.path)
        let daemon = DaemonProcess(dataDir: copy.path)
        try daemon.start()
        let captures = try FixtureDataDir.routes(of: daemon).map { try FixtureDataDir.capture(daemon, $0) }
        daemon.stop()
        let expected: [String: Any] = [
            "madeBy": "placesd at commit \(ProcessInfo.processInfo.environment["PLACES_FIXTURE_COMMIT"] ?? "?")",
            "identity": ana.id,
            "routes": captures.map(\.json),
        ]
        try (JSONCanon.pretty(expected) + "\n").write(to: FixtureDataDir.expected, atomically: true, encoding: .utf8)
    }

    private func stopIDs(_ node: PeerNode, _ itinerary: String) throws -> [String] {
        let places = try node.json("GET", "/v1/itineraries/\(itinerary)")["places"] as? [[String: Any]] ?? []
        return places.compactMap { $0["id"] as? String }
    }
}
