import Foundation
import PlacesAPI
import PlacesTestSupport
import Testing

/// Published trips between real daemons (issue 17): Ana publishes; Bruno is her friend; Dana
/// is a stranger on the same network (a static peer, nobody knows her).
@Suite("Publishing and exploring trips between real daemons", .serialized)
struct ExploreSyncTests {
    static func object(_ node: SyncNode, _ method: String, _ path: String, json: String? = nil) throws -> [String: Any]
    {
        let r = try node.d.send(method, path, json: json)
        guard (200..<300).contains(r.status),
            let object = try JSONSerialization.jsonObject(with: Data(r.body)) as? [String: Any]
        else { throw HarnessError("\(method) \(path): \(r.status) \(r.text)") }
        return object
    }

    static func trips(_ node: SyncNode, _ query: String = "") throws -> [[String: Any]] {
        (try object(node, "GET", "/v1/explore\(query)")["trips"] as? [[String: Any]]) ?? []
    }

    static func trip(_ node: SyncNode, _ id: String) -> [String: Any]? {
        try? trips(node).first { $0["id"] as? String == id }
    }

    /// Ana and Bruno friends, Dana a stranger connected to Ana.
    static func people() async throws -> (SyncNode, SyncNode, SyncNode) {
        let ana = try SyncNode("Ana"), bruno = try SyncNode("Bruno"), dana = try SyncNode("Dana")
        try ana.addPeer(bruno)
        try dana.addPeer(ana)
        _ = try object(ana, "POST", "/v1/friends", json: #"{"id":"\#(bruno.id)"}"#)
        try await eventually("Bruno has Ana's request") {
            try bruno.d.call(InvitationList.self, "GET", "/v1/invitations").invitations.contains { $0.kind == "friend" }
        }
        let invitation = try #require(
            try bruno.d.call(InvitationList.self, "GET", "/v1/invitations").invitations.first { $0.kind == "friend" })
        _ = try bruno.d.call(Invitation.self, "POST", "/v1/invitations/\(invitation.id)/accept")
        try await eventually("Ana and Bruno are friends") {
            try ana.d.call(FriendList.self, "GET", "/v1/friends").friends.first?.state == "friend"
        }
        return (ana, bruno, dana)
    }

    /// Ana's Lisbon trip: a stay with a confirmation code, a flight with a booking reference, a
    /// dinner, a tour with private notes, a place to go, and a checklist line.
    static func lisbon(_ ana: SyncNode, name: String = "Lisbon long weekend") throws -> String {
        let it = try object(
            ana, "POST", "/v1/itineraries",
            json: #"{"name":"\#(name)","startDate":"2027-03-26","endDate":"2027-03-29","timeZone":"Europe/Lisbon"}"#)
        let id = try #require(it["id"] as? String)
        let items = [
            #"{"type":"lodging","title":"Casa do Largo","start":"2027-03-26T15:00","end":"2027-03-29T11:00","confirmationCode":"SECRET-CONF-42","location":{"name":"Casa do Largo","latitude":38.7110,"longitude":-9.1300},"price":{"amountMinor":30000,"currency":"EUR"}}"#,
            #"{"type":"transport","mode":"flight","title":"Home to Lisbon","start":"2027-03-26T08:00","timeZone":"Europe/London","end":"2027-03-26T10:40","endTimeZone":"Europe/Lisbon","bookingReference":"PNR-XYZ-99","to":{"name":"Lisbon airport","latitude":38.7742,"longitude":-9.1342}}"#,
            #"{"type":"food","title":"Time Out Market","start":"2027-03-27T13:00","recommendation":"The croquetes","location":{"latitude":38.7069,"longitude":-9.1458}}"#,
            #"{"type":"activity","title":"Tram 28","start":"2027-03-28T10:00","notes":"door code 1234","description":"Ride it end to end"}"#,
        ]
        for item in items { _ = try object(ana, "POST", "/v1/itineraries/\(id)/items", json: item) }
        _ = try object(ana, "POST", "/v1/itineraries/\(id)/checklist", json: #"{"text":"pack the passport"}"#)
        return id
    }

    @Test("a friends trip reaches Bruno only, a network trip reaches Dana too; the copy omits what is private")
    func audienceAndCopy() async throws {
        let (ana, bruno, dana) = try await Self.people()
        let itinerary = try Self.lisbon(ana)

        // The dry run shows exactly what would be published, and nothing private.
        let dry = try Self.object(
            ana, "POST", "/v1/itineraries/\(itinerary)/publish", json: #"{"audience":"friends","dryRun":true}"#)
        let dryText = String(decoding: try JSONSerialization.data(withJSONObject: dry), as: UTF8.self)
        #expect(dry["dryRun"] as? Bool == true && dryText.contains("Tram 28") && dryText.contains("The croquetes"))
        for secret in ["SECRET-CONF-42", "PNR-XYZ-99", "door code", "passport"] {
            #expect(!dryText.contains(secret), "the dry run shows \(secret)")
        }
        #expect(try Self.trips(ana).isEmpty, "a dry run publishes nothing")

        // Bad input: an unknown audience, a stranger's itinerary.
        let unknown = try ana.d.send("POST", "/v1/itineraries/\(itinerary)/publish", json: #"{"audience":"enemies"}"#)
        #expect(unknown.status == 400 && unknown.text.contains("unknown audience"), "\(unknown.text)")
        let notHers = try bruno.d.send("POST", "/v1/itineraries/\(itinerary)/publish", json: #"{"audience":"friends"}"#)
        #expect(notHers.status == 404, "\(notHers.text)")

        let published = try Self.object(
            ana, "POST", "/v1/itineraries/\(itinerary)/publish", json: #"{"audience":"friends"}"#)
        let friendsTrip = try #require(published["id"] as? String)
        try await eventually("Bruno explores Ana's friends trip") { Self.trip(bruno, friendsTrip) != nil }
        let atBruno = try #require(Self.trip(bruno, friendsTrip))
        #expect(atBruno["authorName"] as? String == "Ana" && atBruno["mine"] as? Bool == false)
        #expect(atBruno["days"] as? Int == 4 && (atBruno["countries"] as? [String])?.contains("PT") == true)
        #expect((atBruno["cities"] as? [String])?.contains("Lisbon") == true, "\(atBruno)")
        let shown = try Self.object(bruno, "GET", "/v1/explore/\(friendsTrip)")
        let shownText = String(decoding: try JSONSerialization.data(withJSONObject: shown), as: UTF8.self)
        #expect((shown["items"] as? [Any])?.count == 4 && shownText.contains("Tram 28"))
        for secret in ["SECRET-CONF-42", "PNR-XYZ-99", "door code", "passport"] {
            #expect(!shownText.contains(secret), "Bruno's copy holds \(secret)")
        }
        // Day views work on the copy.
        let days = try Self.object(bruno, "GET", "/v1/explore/\(friendsTrip)/days")
        #expect((days["days"] as? [Any])?.count == 4)
        let dayRoute = try bruno.d.send("GET", "/v1/explore/\(friendsTrip)/route?day=2")
        #expect(dayRoute.status == 200 && dayRoute.text.contains("Time Out Market"), "\(dayRoute.text)")
        // The copy is read-only, even through the itinerary routes.
        let edit = try bruno.d.send(
            "POST", "/v1/itineraries/\(friendsTrip)/items", json: #"{"type":"food","title":"x"}"#)
        #expect(edit.status == 404, "\(edit.text)")
        #expect(try Self.trip(ana, friendsTrip)?["mine"] as? Bool == true)

        let network = try Self.lisbon(ana, name: "Porto for everyone")
        let networkTrip = try #require(
            try Self.object(ana, "POST", "/v1/itineraries/\(network)/publish", json: #"{"audience":"network"}"#)["id"]
                as? String)
        try await eventually("Dana, a stranger, explores the network trip", timeout: .seconds(90)) {
            Self.trip(dana, networkTrip) != nil
        }
        #expect(Self.trip(dana, friendsTrip) == nil, "a friends trip reached a stranger")
        #expect(try dana.d.send("GET", "/v1/explore/\(friendsTrip)").status == 404)

        // Only the owner publishes: an editor of the itinerary is refused.
        _ = try Self.object(
            ana, "POST", "/v1/itineraries/\(itinerary)/share", json: #"{"member":"\#(bruno.id)","role":"editor"}"#)
        try await eventually("Bruno holds the itinerary as an editor") {
            try bruno.d.send("GET", "/v1/itineraries/\(itinerary)").status == 200
        }
        let editor = try bruno.d.send(
            "POST", "/v1/itineraries/\(itinerary)/publish", json: #"{"audience":"friends"}"#)
        #expect(editor.status == 403 && editor.text.contains("owner"), "\(editor.text)")
    }

    @Test(
        "likes count once per person, split into known and all; saves follow updates; templates shift days; unpublish withdraws"
    )
    func likesSavesTemplatesAndWithdrawal() async throws {
        let (ana, bruno, dana) = try await Self.people()
        let itinerary = try Self.lisbon(ana)
        let trip = try #require(
            try Self.object(ana, "POST", "/v1/itineraries/\(itinerary)/publish", json: #"{"audience":"network"}"#)["id"]
                as? String)
        try await eventually("Bruno and Dana explore it", timeout: .seconds(90)) {
            Self.trip(bruno, trip) != nil && Self.trip(dana, trip) != nil
        }
        _ = try Self.object(bruno, "PUT", "/v1/explore/\(trip)/like")
        _ = try Self.object(bruno, "PUT", "/v1/explore/\(trip)/like")
        _ = try Self.object(dana, "PUT", "/v1/explore/\(trip)/like")
        try await eventually("Ana counts two likers, one she knows", timeout: .seconds(90)) {
            let t = Self.trip(ana, trip)
            return t?["likes"] as? Int == 2 && t?["likesKnown"] as? Int == 1
        }
        try await eventually("the likes travel with the trip to Bruno", timeout: .seconds(90)) {
            let t = Self.trip(bruno, trip)
            return t?["likes"] as? Int == 2 && t?["likesKnown"] as? Int == 1 && t?["liked"] as? Bool == true
        }
        let notifications = try Self.object(ana, "GET", "/v1/notifications")
        let types = ((notifications["notifications"] as? [[String: Any]]) ?? []).compactMap { $0["type"] as? String }
        #expect(types.contains("trip-liked"), "\(types)")
        // Sorting by likes puts it first among trips Bruno sees.
        #expect(try Self.trips(bruno, "?sort=likes").first?["id"] as? String == trip)
        #expect(try Self.trips(bruno, "?country=PT").count == 1 && Self.trips(bruno, "?country=JP").isEmpty)
        #expect(try Self.trips(bruno, "?q=lisbon").count == 1 && Self.trips(bruno, "?q=tokyo").isEmpty)

        // Save, and follow the author's update.
        _ = try Self.object(bruno, "PUT", "/v1/explore/\(trip)/save")
        _ = try Self.object(ana, "PATCH", "/v1/itineraries/\(itinerary)", json: #"{"name":"Lisbon, four days"}"#)
        _ = try Self.object(ana, "POST", "/v1/itineraries/\(itinerary)/publish", json: #"{"audience":"network"}"#)
        try await eventually("Bruno's saved trip shows the new name") {
            let saved = (try Self.object(bruno, "GET", "/v1/saved")["trips"] as? [[String: Any]]) ?? []
            return saved.first?["name"] as? String == "Lisbon, four days" && saved.first?["saved"] as? Bool == true
        }

        // A template: days move to the new start; times stay local, in their own zones.
        let copy = try Self.object(
            bruno, "POST", "/v1/itineraries", json: #"{"from":"\#(trip)","startDate":"2027-07-01"}"#)
        let copyID = try #require(copy["id"] as? String)
        #expect(copy["startDate"] as? String == "2027-07-01" && copy["endDate"] as? String == "2027-07-04")
        #expect((copy["origin"] as? String)?.contains(trip) == true)
        let items =
            (try Self.object(bruno, "GET", "/v1/itineraries/\(copyID)/items")["items"] as? [[String: Any]]) ?? []
        let flight = try #require(items.first { $0["title"] as? String == "Home to Lisbon" })
        #expect(flight["start"] as? String == "2027-07-01T08:00" && flight["timeZone"] as? String == "Europe/London")
        #expect(flight["end"] as? String == "2027-07-01T10:40" && flight["endTimeZone"] as? String == "Europe/Lisbon")
        let tram = try #require(items.first { $0["title"] as? String == "Tram 28" })
        #expect(tram["start"] as? String == "2027-07-03T10:00")
        let members = try bruno.d.send("GET", "/v1/itineraries/\(copyID)/members")
        #expect(!members.text.contains(ana.id), "the template carries Ana as a member")
        let missing = try bruno.d.send(
            "POST", "/v1/itineraries", json: #"{"from":"abcdef0123","startDate":"2027-07-01"}"#)
        #expect(missing.status == 404, "\(missing.text)")

        // Unpublish: gone from explore everywhere; the saved copy shows it withdrawn.
        let gone = try ana.d.send("DELETE", "/v1/itineraries/\(itinerary)/publish")
        #expect(gone.status == 204, "\(gone.text)")
        try await eventually("the trip is withdrawn at Bruno", timeout: .seconds(30)) {
            Self.trip(bruno, trip) == nil
        }
        let saved = (try Self.object(bruno, "GET", "/v1/saved")["trips"] as? [[String: Any]]) ?? []
        #expect(saved.first?["withdrawn"] as? Bool == true)
        #expect(try bruno.d.send("GET", "/v1/explore/\(trip)").status == 404)
        #expect(try ana.d.send("DELETE", "/v1/itineraries/\(itinerary)/publish").status == 404)
    }
}
