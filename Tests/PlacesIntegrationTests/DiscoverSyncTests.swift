import Foundation
import PlacesAPI
import PlacesTestSupport
import Testing

/// Discover between real daemons (issue 15): popularity counts each person who saved a
/// place once, whether they put it in a shared itinerary or share it as a favorite; contact
/// cards carry a profile and shared favorites to contacts; the sort toggle is kept.
@Suite("Discover and contact cards between real daemons", .serialized)
struct DiscoverSyncTests {
    static func results(_ node: SyncNode, _ query: String) throws -> [DiscoverResult] {
        try node.d.call(DiscoverResults.self, "GET", "/v1/discover?\(query)").results
    }

    /// The first result of a query, required.
    static func first(_ node: SyncNode, _ query: String) throws -> DiscoverResult {
        try #require(try results(node, query).first, "no result for \(query)")
    }

    @Test("two people saving one city count once each; a contact's shared favorites show and count; unsharing stops it")
    func popularityAcrossThreeDaemons() async throws {
        let ana = try SyncNode("Ana"), bruno = try SyncNode("Bruno"), carla = try SyncNode("Carla")
        for (x, y) in [(ana, bruno), (ana, carla), (bruno, ana), (carla, ana)] { try x.addPeer(y) }
        // Bruno is Ana's contact both ways; Carla only shares an itinerary with her.
        try ana.trust(bruno)
        try bruno.trust(ana)
        try carla.trust(ana)
        let lisbon = try Self.first(ana, "q=lisbon&kind=city")
        let porto = try Self.first(ana, "q=porto&kind=city")
        #expect(lisbon.name == "Lisbon" && lisbon.country == "Portugal" && lisbon.popularity == 0)

        // Ana's trip, shared with Bruno and Carla as editors.
        let trip = try ana.d.call(Itinerary.self, "POST", "/v1/itineraries", json: #"{"name":"Portugal"}"#)
        for node in [bruno, carla] {
            let r = try ana.d.send(
                "POST", "/v1/itineraries/\(trip.id)/share", json: #"{"member":"\#(node.id)","role":"editor"}"#)
            #expect(r.status == 200, "\(r.text)")
        }
        try await eventually("Bruno and Carla hold the trip") {
            try bruno.itineraryJSON(trip.id) != nil && carla.itineraryJSON(trip.id) != nil
        }

        // Carla puts Lisbon in the trip from her own place, typed by hand (no gazetteer id):
        // it is the same place by name within 100 m.
        let typed = try carla.d.call(
            Place.self, "POST", "/v1/places",
            json: #"{"name":"lisboa","latitude":\#(lisbon.latitude + 0.0004),"longitude":\#(lisbon.longitude)}"#)
        _ = try carla.d.send("POST", "/v1/itineraries/\(trip.id)/places", json: #"{"placeId":"\#(typed.id)"}"#)
        // Bruno saves Lisbon twice over (a stop and a shared favorite) and Porto as a favorite.
        let brunoLisbon = try bruno.d.call(Place.self, "POST", "/v1/places", json: #"{"gazetteerId":"\#(lisbon.id)"}"#)
        #expect(brunoLisbon.name == "Lisbon" && brunoLisbon.gazetteerId == lisbon.id)
        let brunoPorto = try bruno.d.call(Place.self, "POST", "/v1/places", json: #"{"gazetteerId":"\#(porto.id)"}"#)
        for place in [brunoLisbon, brunoPorto] {
            let r = try bruno.d.send("POST", "/v1/favorites", json: #"{"placeId":"\#(place.id)"}"#)
            #expect(r.status == 201 || r.status == 200, "\(r.text)")
        }
        _ = try bruno.d.send("POST", "/v1/itineraries/\(trip.id)/places", json: #"{"placeId":"\#(brunoLisbon.id)"}"#)
        let sharing = try bruno.d.call(
            FavoriteSharingSetting.self, "PUT", "/v1/favorites/sharing", json: #"{"sharing":"all"}"#)
        #expect(sharing.sharing == "all" && sharing.shared == 2)

        try await eventually("Ana counts Bruno and Carla once each for Lisbon, Bruno for Porto", timeout: .seconds(20))
        {
            try Self.first(ana, "q=lisbon&kind=city").popularity == 2
                && Self.first(ana, "q=porto&kind=city").popularity == 1
        }
        // Ana's own save does not count; her heart shows.
        let mine = try ana.d.call(Place.self, "POST", "/v1/places", json: #"{"gazetteerId":"\#(lisbon.id)"}"#)
        _ = try ana.d.send("POST", "/v1/favorites", json: #"{"placeId":"\#(mine.id)"}"#)
        let after = try Self.first(ana, "q=lisbon&kind=city")
        #expect(after.popularity == 2 && after.favorite)

        // Bruno's card: his profile and shared favorites, at Ana's.
        let profile = try ana.d.call(ContactProfile.self, "GET", "/v1/contacts/\(bruno.id)")
        #expect(profile.username == "bruno" && profile.contact && profile.coMember)
        #expect(profile.favorites.map(\.name) == ["Lisbon", "Porto"])
        let contacts = try ana.d.call(ContactList.self, "GET", "/v1/contacts").contacts
        #expect(contacts.first { $0.id == bruno.id }?.sharedFavorites == 2)
        // A contact's shared favorite is a discover result of kind place.
        let places = try Self.results(ana, "q=porto&kind=place")
        #expect(places.contains { $0.owner == bruno.id && $0.name == "Porto" && $0.country == "Portugal" })

        // Bruno stops sharing: Porto is no longer counted; Lisbon still is (his stop).
        _ = try bruno.d.call(FavoriteSharingSetting.self, "PUT", "/v1/favorites/sharing", json: #"{"sharing":"off"}"#)
        try await eventually("Ana no longer counts Bruno's Porto") {
            try Self.first(ana, "q=porto&kind=city").popularity == 0
                && Self.first(ana, "q=lisbon&kind=city").popularity == 2
                && ana.d.call(ContactProfile.self, "GET", "/v1/contacts/\(bruno.id)").favorites.isEmpty
        }
        // Carla, who is not Ana's contact but a co-member, sees nothing of Ana's (Ana shares no
        // favorites) and Bruno's card never reached her (cards are not relayed).
        let r = try carla.d.send("GET", "/v1/contacts/\(bruno.id)")
        #expect(r.status == 200 || r.status == 404)
        if r.status == 200 {
            #expect(try carla.d.call(ContactProfile.self, "GET", "/v1/contacts/\(bruno.id)").favorites.isEmpty)
        }
    }

    @Test(
        "the sort toggle orders by popularity over all matches, is kept across a restart, and sort= overrides it once")
    func sortToggle() async throws {
        let ana = try SyncNode("Ana"), bruno = try SyncNode("Bruno")
        try ana.addPeer(bruno)
        try bruno.addPeer(ana)
        try ana.trust(bruno)
        try bruno.trust(ana)
        #expect(try ana.d.call(Preferences.self, "GET", "/v1/preferences").discoverSort == "off")
        let springfields = try Self.results(ana, "q=springfield&kind=city&limit=100")
        #expect(springfields.count >= 3)
        // Bruno shares his favorite Springfield: the one last in the default order.
        let last = try #require(springfields.last)
        let place = try bruno.d.call(Place.self, "POST", "/v1/places", json: #"{"gazetteerId":"\#(last.id)"}"#)
        _ = try bruno.d.send("POST", "/v1/favorites", json: #"{"placeId":"\#(place.id)"}"#)
        _ = try bruno.d.call(FavoriteSharingSetting.self, "PUT", "/v1/favorites/sharing", json: #"{"sharing":"all"}"#)
        try await eventually("Ana counts Bruno's Springfield") {
            try Self.results(ana, "q=springfield&kind=city&limit=100").contains {
                $0.id == last.id && $0.popularity == 1
            }
        }
        // Descending: the popular one first, even with a limit of 1 (sorted before the cut).
        _ = try ana.d.call(Preferences.self, "PUT", "/v1/preferences", json: #"{"discoverSort":"descending"}"#)
        #expect(try Self.first(ana, "q=springfield&kind=city&limit=1").id == last.id)
        // Ascending: the popular one last; off: the default order again.
        _ = try ana.d.call(Preferences.self, "PUT", "/v1/preferences", json: #"{"discoverSort":"ascending"}"#)
        #expect(try Self.results(ana, "q=springfield&kind=city&limit=100").last?.id == last.id)
        #expect(try Self.first(ana, "q=springfield&kind=city&limit=1").id != last.id)
        // Kept across a restart; a request's sort= applies to that request only.
        _ = try ana.d.call(Preferences.self, "PUT", "/v1/preferences", json: #"{"discoverSort":"descending"}"#)
        ana.stop()
        try ana.start()
        #expect(try ana.d.call(Preferences.self, "GET", "/v1/preferences").discoverSort == "descending")
        #expect(try Self.first(ana, "q=springfield&kind=city&limit=1&sort=off").id == springfields.first?.id)
        try await eventually("after the restart, Ana still counts Bruno's Springfield first") {
            try Self.first(ana, "q=springfield&kind=city&limit=1").id == last.id
        }
        _ = try ana.d.call(Preferences.self, "PUT", "/v1/preferences", json: #"{"discoverSort":"off"}"#)
        #expect(try Self.first(ana, "q=springfield&kind=city&limit=1").id == springfields.first?.id)
    }
}
