import Foundation
import PlacesAPI
import PlacesTestSupport
import Testing

/// A fresh daemon with no identity: a phone or a van box before `places device join`.
final class BlankNode {
    let dir = TempDir()
    let d: DaemonProcess

    init() throws {
        d = DaemonProcess(dataDir: dir.path)
        try d.start(extraArguments: ["--listen", "127.0.0.1:0", "--no-discovery"])
    }

    var status: Status { get throws { try d.call(Status.self, "GET", "/v1/status") } }
}

/// Issue 29 with real daemons over loopback: Ana's laptop (her first device), Ana's phone (a
/// fresh daemon paired to her), and Bruno, with a trip Ana shares with him.
@Suite("Devices: one person, several devices (Protocol/devices.md)", .serialized)
struct DeviceTests {
    /// Pairs `blank` to `node`'s person; returns the phone's check code.
    static func pair(_ blank: BlankNode, to node: SyncNode, name: String, admin: Bool = false) async throws {
        let made = try node.d.call(
            PairingCreated.self, "POST", "/v1/devices/pairings", json: #"{"admin":\#(admin)}"#)
        let joined = try blank.d.send(
            "POST", "/v1/devices/join", json: #"{"code":"\#(made.code)","name":"\#(name)","noPassphrase":true}"#)
        #expect(joined.status == 202, "\(joined.text)")
        let check = try JSONDecoder().decode(DeviceJoinAccepted.self, from: Data(joined.body)).checkCode
        #expect(check.count == 6)
        // Both sides show the same check code before anything is certified.
        let shown = try node.d.call(PairingList.self, "GET", "/v1/devices/pairings").pairings.first { $0.id == made.id }
        #expect(shown?.state == "confirm" && shown?.checkCode == check && shown?.deviceName == name)
        #expect(try blank.status.loggedIn == false)
        let confirmed = try node.d.send(
            "POST", "/v1/devices/pairings/\(made.id)/confirm", json: #"{"checkCode":"\#(check)"}"#)
        #expect(confirmed.status == 200, "\(confirmed.text)")
        try await eventually("the new device is paired", timeout: .seconds(10)) {
            let status = try blank.status
            return status.loggedIn && status.device?.state == "paired"
        }
    }

    @Test(
        "a paired phone is Ana: her library and trips follow, edits travel both ways as hers, revocation shuts it out")
    func pairFollowAndRevoke() async throws {
        let laptop = try SyncNode("Ana")
        let bruno = try SyncNode("Bruno")
        try laptop.addPeer(bruno)
        try bruno.addPeer(laptop)
        try laptop.trust(bruno)
        try bruno.trust(laptop)
        for name in ["Time Out Market", "Belém Tower", "LX Factory"] {
            _ = try laptop.d.call(
                Place.self, "POST", "/v1/places", json: #"{"name":"\#(name)","latitude":38.7,"longitude":-9.1}"#)
        }
        let trip = try laptop.d.call(Itinerary.self, "POST", "/v1/itineraries", json: #"{"name":"Lisbon"}"#)
        let shared = try laptop.d.send(
            "POST", "/v1/itineraries/\(trip.id)/share", json: #"{"member":"\#(bruno.id)","role":"editor"}"#)
        #expect(shared.status == 200, "\(shared.text)")
        try await eventually("Bruno holds the trip") { try bruno.itineraryJSON(trip.id) != nil }

        let phone = try BlankNode()
        let started = ContinuousClock.now
        try await Self.pair(phone, to: laptop, name: "Ana's phone")
        // Everything follows: the same person, her places and her trip with her role.
        try await eventually("the phone holds Ana's library and trip", timeout: .seconds(10)) {
            let places = try phone.d.send("GET", "/v1/places")
            guard places.status == 200,
                try JSONDecoder().decode(PlaceList.self, from: Data(places.body)).places.count == 3
            else { return false }
            return try phone.d.send("GET", "/v1/itineraries/\(trip.id)").status == 200
        }
        print("devices: the phone held the library and the trip \(ContinuousClock.now - started) after pairing began")
        let profile = try phone.d.call(Profile.self, "GET", "/v1/profile")
        #expect(profile.id == laptop.id && profile.name == "Ana")
        #expect(try phone.d.call(Itinerary.self, "GET", "/v1/itineraries/\(trip.id)").role == "owner")

        // The phone's edit reaches Bruno as Ana's; Bruno's reaches the phone.
        _ = try phone.d.call(
            Itinerary.self, "PATCH", "/v1/itineraries/\(trip.id)", json: #"{"notes":"from the phone"}"#)
        try await eventually("the phone's edit reaches Bruno") {
            try bruno.d.call(Itinerary.self, "GET", "/v1/itineraries/\(trip.id)").notes == "from the phone"
        }
        let lines = try bruno.d.call(ActivityList.self, "GET", "/v1/itineraries/\(trip.id)/activity").activity
        // The phone's line names the same person, the same way, as the laptop's own lines.
        let created = lines.first { $0.action == "created" }
        #expect(
            lines.contains {
                $0.field == "notes" && $0.author == laptop.id && $0.authorName == created?.authorName
            },
            "\(lines.map { "\($0.author.prefix(7)) \($0.authorName ?? "-") \($0.summary)" })")
        _ = try bruno.d.call(Itinerary.self, "PATCH", "/v1/itineraries/\(trip.id)", json: #"{"name":"Lisbon, May"}"#)
        try await eventually("Bruno's edit reaches the phone") {
            try phone.d.call(Itinerary.self, "GET", "/v1/itineraries/\(trip.id)").name == "Lisbon, May"
        }
        // Concurrent edits from both of Ana's devices merge, and nobody reports an equivocation.
        _ = try phone.d.send("POST", "/v1/places", json: #"{"name":"Phone's café","latitude":38.71,"longitude":-9.14}"#)
        _ = try laptop.d.send(
            "POST", "/v1/places", json: #"{"name":"Laptop's bar","latitude":38.72,"longitude":-9.15}"#)
        try await eventually("both places are on both devices") {
            try [phone.d, laptop.d].allSatisfy { d in
                try d.call(PlaceList.self, "GET", "/v1/places").places.count == 5
            }
        }
        let equivocations = try bruno.d.call(ActivityList.self, "GET", "/v1/itineraries/\(trip.id)/activity")
            .activity.filter { $0.action == "equivocated" }
        #expect(equivocations.isEmpty)

        // The device list, on either device.
        let list = try laptop.d.call(DeviceList.self, "GET", "/v1/devices")
        #expect(list.devices.count == 2)
        let phoneEntry = try #require(list.devices.first { $0.name == "Ana's phone" })
        #expect(!phoneEntry.admin && !phoneEntry.current && phoneEntry.revokedAt == nil)
        #expect(list.devices.first { $0.current }?.admin == true)
        #expect(list.warning != nil)
        try await eventually("the phone lists both devices") {
            try phone.d.call(DeviceList.self, "GET", "/v1/devices").devices.count == 2
        }
        // The phone may not manage devices.
        let refused = try phone.d.send("DELETE", "/v1/devices/\(laptop.id)")
        #expect(refused.status == 403 && refused.text.contains("not-admin"), "\(refused.text)")

        // Revoke the phone from the laptop: it is shut out everywhere.
        let revokedAt = ContinuousClock.now
        let revoked = try laptop.d.call(DeviceList.self, "DELETE", "/v1/devices/\(phoneEntry.id)")
        #expect(revoked.devices.first { $0.id == phoneEntry.id }?.revokedAt != nil)
        try await eventually("Bruno holds the revocation", timeout: .seconds(5)) {
            bruno.d.log.contains("learned a device revocation")
        }
        print("devices: revocation reached Bruno \(ContinuousClock.now - revokedAt) after it was made")
        // The phone connects to Bruno directly and writes: nothing of it is taken.
        let phoneAddress = try phone.status.listen ?? ""
        _ = try bruno.d.send("POST", "/v1/peers", json: #"{"address":"\#(phoneAddress)"}"#)
        _ = try phone.d.send("PATCH", "/v1/itineraries/\(trip.id)", json: #"{"notes":"after revocation"}"#)
        try await Task.sleep(for: .seconds(3))
        #expect(try bruno.d.call(Itinerary.self, "GET", "/v1/itineraries/\(trip.id)").notes == "from the phone")
        #expect(try laptop.d.call(Itinerary.self, "GET", "/v1/itineraries/\(trip.id)").notes == "from the phone")
        // Later edits move to a new key: the phone never learns them.
        _ = try laptop.d.call(
            Itinerary.self, "PATCH", "/v1/itineraries/\(trip.id)", json: #"{"notes":"after the phone was lost"}"#)
        try await eventually("Bruno has the laptop's later edit") {
            try bruno.d.call(Itinerary.self, "GET", "/v1/itineraries/\(trip.id)").notes == "after the phone was lost"
        }
        try await Task.sleep(for: .seconds(2))
        #expect(
            try phone.d.call(Itinerary.self, "GET", "/v1/itineraries/\(trip.id)").notes != "after the phone was lost")
    }

    @Test("pairing refuses a malformed, reused or unconfirmed code, a wrong check code and a device that may not pair")
    func refusedPairings() async throws {
        let laptop = try SyncNode("Ana")
        // A malformed code: a precise error, nothing made.
        let blank = try BlankNode()
        let malformed = try blank.d.send(
            "POST", "/v1/devices/join", json: #"{"code":"PLD1AAAA","name":"x","noPassphrase":true}"#)
        #expect(malformed.status == 400 && malformed.text.contains("code"), "\(malformed.text)")
        #expect(try blank.status.initialized == false)
        // A daemon that has an identity cannot join.
        let made = try laptop.d.call(PairingCreated.self, "POST", "/v1/devices/pairings")
        let initialized = try laptop.d.send(
            "POST", "/v1/devices/join", json: #"{"code":"\#(made.code)","name":"x","noPassphrase":true}"#)
        #expect(initialized.status == 409, "\(initialized.text)")
        // A wrong check code cancels the pairing; the joiner is told.
        let joined = try blank.d.send(
            "POST", "/v1/devices/join", json: #"{"code":"\#(made.code)","name":"Tablet","noPassphrase":true}"#)
        #expect(joined.status == 202, "\(joined.text)")
        let check = try JSONDecoder().decode(DeviceJoinAccepted.self, from: Data(joined.body)).checkCode
        let wrong = String(check.map { $0 == "9" ? "0" : Character(String(($0.wholeNumberValue ?? 0) + 1)) })
        let confirm = try laptop.d.send(
            "POST", "/v1/devices/pairings/\(made.id)/confirm", json: #"{"checkCode":"\#(wrong)"}"#)
        #expect(confirm.status == 400 && confirm.text.contains("checkCode"), "\(confirm.text)")
        try await eventually("the joiner learns it was refused") { try blank.status.device?.state == "refused" }
        #expect(try blank.status.loggedIn == false)
        #expect(try laptop.d.call(DeviceList.self, "GET", "/v1/devices").devices.count == 1)
        // The same code again (single use): refused.
        let again = try BlankNode()
        let reused = try again.d.send(
            "POST", "/v1/devices/join",
            json: #"{"code":"\#(made.code)","name":"Thief","noPassphrase":true,"waitSeconds":5}"#)
        #expect(reused.status != 202, "\(reused.text)")
        #expect(try again.status.loggedIn == false)
        // A non-admin device may not make pairing codes.
        let phone = try BlankNode()
        try await Self.pair(phone, to: laptop, name: "Phone")
        let notAdmin = try phone.d.send("POST", "/v1/devices/pairings")
        #expect(notAdmin.status == 403 && notAdmin.text.contains("not-admin"), "\(notAdmin.text)")
    }

    @Test("an existing single-device data dir is its person's first device, and pairs a new one without any step")
    func existingDataDirPairs() async throws {
        let dir = TempDir()
        defer { dir.remove() }
        try FixtureDataDir.copy(from: FixtureDataDir.data, to: dir.path)
        let old = DaemonProcess(dataDir: dir.path)
        try old.start(extraArguments: ["--listen", "127.0.0.1:0", "--no-discovery"])
        defer { old.stop() }
        let status = try old.call(Status.self, "GET", "/v1/status")
        #expect(status.loggedIn && status.device == nil)
        let list = try old.call(DeviceList.self, "GET", "/v1/devices")
        #expect(list.devices.count == 1 && list.devices[0].current && list.devices[0].admin)
        #expect(list.devices[0].id == status.id)
        let places = try old.call(PlaceList.self, "GET", "/v1/places").places.count
        #expect(places > 0)
        // Its places follow a device paired to it.
        let made = try old.call(PairingCreated.self, "POST", "/v1/devices/pairings")
        let phone = try BlankNode()
        let joined = try phone.d.send(
            "POST", "/v1/devices/join", json: #"{"code":"\#(made.code)","name":"Phone","noPassphrase":true}"#)
        #expect(joined.status == 202, "\(joined.text)")
        let check = try JSONDecoder().decode(DeviceJoinAccepted.self, from: Data(joined.body)).checkCode
        let confirmed = try old.send(
            "POST", "/v1/devices/pairings/\(made.id)/confirm", json: #"{"checkCode":"\#(check)"}"#)
        #expect(confirmed.status == 200, "\(confirmed.text)")
        try await eventually("the old data dir's places reach the phone", timeout: .seconds(10)) {
            let r = try phone.d.send("GET", "/v1/places")
            guard r.status == 200 else { return false }
            return try JSONDecoder().decode(PlaceList.self, from: Data(r.body)).places.count == places
        }
        #expect(try phone.d.call(Profile.self, "GET", "/v1/profile").id == status.id)
    }

    @Test("a revocation made while a trip's owner is offline moves the trip's key when the owner comes back")
    func rotationOwedByAnOfflineOwner() async throws {
        let bruno = try SyncNode("Bruno")
        let laptop = try SyncNode("Ana")
        try laptop.addPeer(bruno)
        try bruno.addPeer(laptop)
        try laptop.trust(bruno)
        try bruno.trust(laptop)
        let trip = try bruno.d.call(Itinerary.self, "POST", "/v1/itineraries", json: #"{"name":"Bruno's trip"}"#)
        _ = try bruno.d.send(
            "POST", "/v1/itineraries/\(trip.id)/share", json: #"{"member":"\#(laptop.id)","role":"editor"}"#)
        try await eventually("Ana holds Bruno's trip") { try laptop.itineraryJSON(trip.id) != nil }
        let phone = try BlankNode()
        try await Self.pair(phone, to: laptop, name: "Phone")
        // The phone edits Bruno's trip, so its certificate is in the trip.
        try await eventually("the phone holds Bruno's trip") {
            try phone.d.send("GET", "/v1/itineraries/\(trip.id)").status == 200
        }
        _ = try phone.d.call(Itinerary.self, "PATCH", "/v1/itineraries/\(trip.id)", json: #"{"notes":"phone"}"#)
        try await eventually("Bruno has the phone's edit") {
            try bruno.d.call(Itinerary.self, "GET", "/v1/itineraries/\(trip.id)").notes == "phone"
        }
        // Bruno's daemon is off when Ana revokes the phone.
        bruno.stop()
        let phoneID = try #require(
            try laptop.d.call(DeviceList.self, "GET", "/v1/devices").devices.first { !$0.current }?.id)
        _ = try laptop.d.call(DeviceList.self, "DELETE", "/v1/devices/\(phoneID)")
        #expect(!bruno.d.log.contains("document key rotated"))
        try bruno.start()
        try await eventually("Bruno's daemon learns the revocation and moves the trip's key", timeout: .seconds(10)) {
            bruno.d.log.contains("learned a device revocation") && bruno.d.log.contains("document key rotated")
        }
        // The new key reaches Ana's laptop: Bruno's later edit shows there, never on the phone.
        _ = try bruno.d.call(Itinerary.self, "PATCH", "/v1/itineraries/\(trip.id)", json: #"{"notes":"new key"}"#)
        try await eventually("Ana's laptop reads the trip under its new key") {
            try laptop.d.call(Itinerary.self, "GET", "/v1/itineraries/\(trip.id)").notes == "new key"
        }
        #expect(try phone.d.call(Itinerary.self, "GET", "/v1/itineraries/\(trip.id)").notes == "phone")
    }
}
