import Foundation
import PlacesAPI

/// Issue 29's figures (`docs/benchmarks.md`, "Devices"): the per-op cost of device
/// certificates beside the same run's rates for a person's own key, a new device fully in
/// sync after pairing with 1,000 places and 50 itineraries of 100 places to go, and a
/// revocation reaching and taking effect at 5 daemons in a line.
enum DeviceBench {
    static func run() throws {
        print("devices:")
        let rootAppend = try PlacesBench.measureAppendRate()
        let deviceAppend = try PlacesBench.measureAppendRate(device: true)
        print(
            String(
                format:
                    "  op append+materialize: person's key %.0f ops/s, a device's %.0f ops/s (%.1f%%; target >= 95%%)",
                rootAppend, deviceAppend, 100 * deviceAppend / rootAppend))
        let rootIngest = try SyncBench.measureIngestRate()
        let deviceIngest = try SyncBench.measureIngestRate(device: true)
        print(
            String(
                format: "  bulk ingest: a person's ops %.0f ops/s, a device's %.0f ops/s (%.1f%%; target >= 95%%)",
                rootIngest, deviceIngest, 100 * deviceIngest / rootIngest))
        try measurePairing()
        try measureRevocationLine()
    }

    /// Pairs `blank` to `admin`'s person through the control API; returns when confirmed.
    static func pair(_ blank: BenchDaemon, to admin: BenchDaemon, name: String) throws -> ContinuousClock.Instant {
        let made = try admin.json("POST", "/v1/devices/pairings", nil)
        guard let code = made["code"] as? String, let id = made["id"] as? String else {
            throw CocoaError(.fileReadCorruptFile)
        }
        let joined = try blank.json(
            "POST", "/v1/devices/join", #"{"code":"\#(code)","name":"\#(name)","noPassphrase":true}"#)
        guard let check = joined["checkCode"] as? String else { throw CocoaError(.fileReadCorruptFile) }
        _ = try admin.json("POST", "/v1/devices/pairings/\(id)/confirm", #"{"checkCode":"\#(check)"}"#)
        return ContinuousClock.now
    }

    /// A laptop with 1,000 places and 50 itineraries of 100 places to go pairs a fresh daemon:
    /// from the confirmation until the new device shows all of it.
    static func measurePairing() throws {
        let laptop = try BenchDaemon(name: "Ana")
        let phone = try BenchDaemon(name: "phone", initialize: false)
        defer {
            laptop.stop()
            phone.stop()
        }
        var places = [String]()
        for i in 0..<1_000 {
            let place = try laptop.json(
                "POST", "/v1/places",
                #"{"name":"Place \#(i)","latitude":\#(38.7 + Double(i) / 10_000),"longitude":-9.14}"#)
            places.append(place["id"] as? String ?? "")
        }
        for t in 0..<50 {
            let ids = (0..<100).map { "\"\(places[(t * 20 + $0) % places.count])\"" }.joined(separator: ",")
            _ = try laptop.json("POST", "/v1/itineraries", #"{"name":"Trip \#(t)","places":[\#(ids)]}"#)
        }
        let confirmed = try pair(phone, to: laptop, name: "phone")
        let clock = ContinuousClock()
        while true {
            if let list = try? phone.client.send("GET", "/v1/itineraries"), list.status == 200,
                let object = try? JSONSerialization.jsonObject(with: Data(list.body)) as? [String: Any],
                let trips = object["itineraries"] as? [[String: Any]], trips.count == 50,
                trips.allSatisfy({ ($0["placeCount"] as? Int) == 100 }),
                let placeList = try? phone.json("GET", "/v1/places", nil), (placeList["count"] as? Int) == 1_000
            {
                break
            }
            guard clock.now - confirmed < .seconds(120) else { throw CocoaError(.fileReadUnknown) }
            usleep(20_000)
        }
        print(
            String(
                format:
                    "  pairing: a new device holds 1,000 places and 50 trips of 100 places %.2f s after confirmation (target <= 3 s)",
                PlacesBench.seconds(clock.now - confirmed)))
    }

    /// Ana's laptop U0 and four friends U1…U4 in a line, each connected to its neighbours,
    /// share a trip; Ana's phone (paired to U0) has edited it. The laptop revokes the phone:
    /// the time until each daemon has learned the revocation (kept it, closed the phone's
    /// sessions, written it into its documents).
    static func measureRevocationLine() throws {
        let line = try (0..<5).map { try BenchDaemon(name: "U\($0)", logged: true) }
        let phone = try BenchDaemon(name: "phone", initialize: false)
        defer {
            for node in line { node.stop() }
            phone.stop()
        }
        for (x, y) in zip(line, line.dropFirst()) {
            _ = try x.json("POST", "/v1/peers", #"{"address":"\#(y.listen)"}"#)
            _ = try y.json("POST", "/v1/peers", #"{"address":"\#(x.listen)"}"#)
        }
        // Shares from Ana arrive without an invitation (she is everyone's contact).
        for node in line.dropFirst() { _ = try node.json("POST", "/v1/contacts", #"{"id":"\#(line[0].id)"}"#) }
        let trip = try line[0].json("POST", "/v1/itineraries", #"{"name":"Line trip"}"#)["id"] as? String ?? ""
        for node in line.dropFirst() {
            _ = try line[0].json(
                "POST", "/v1/itineraries/\(trip)/share", #"{"member":"\#(node.id)","role":"editor"}"#)
        }
        _ = try pair(phone, to: line[0], name: "phone")
        let clock = ContinuousClock()
        let start = clock.now
        // The phone edits the trip, and the edit reaches the far end.
        while (try? phone.client.send("PATCH", "/v1/itineraries/\(trip)", body: Array(#"{"notes":"phone"}"#.utf8)))?
            .status != 200
        {
            guard clock.now - start < .seconds(60) else { throw CocoaError(.fileReadUnknown) }
            usleep(50_000)
        }
        while (try? line[4].json("GET", "/v1/itineraries/\(trip)", nil))?["notes"] as? String != "phone" {
            guard clock.now - start < .seconds(60) else { throw CocoaError(.fileReadUnknown) }
            usleep(20_000)
        }
        let devices = try line[0].json("GET", "/v1/devices", nil)["devices"] as? [[String: Any]] ?? []
        guard let phoneID = devices.first(where: { ($0["current"] as? Bool) == false })?["id"] as? String else {
            throw CocoaError(.fileReadCorruptFile)
        }
        let revokedAt = clock.now
        _ = try line[0].json("DELETE", "/v1/devices/\(phoneID)", nil)
        var reached = [Double?](repeating: nil, count: line.count)
        while reached.contains(where: { $0 == nil }) {
            for (i, node) in line.enumerated()
            where reached[i] == nil && node.log.contains("learned a device revocation") {
                reached[i] = PlacesBench.seconds(clock.now - revokedAt)
            }
            guard clock.now - revokedAt < .seconds(30) else { break }
            usleep(5_000)
        }
        let figures = reached.map { $0.map { String(format: "%.3f", $0) } ?? "never" }.joined(separator: " / ")
        print("  revocation learned at U0…U4 (a line, seconds after it was made): \(figures) (target <= 2 s)")
    }
}
