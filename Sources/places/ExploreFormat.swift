import Foundation
import PlacesAPI
import PlacesModel

/// A published trip as the explore routes summarise it (`GET /v1/explore`, `/v1/saved`, the
/// like and save answers, a friend's `trips`): who wrote it, where it goes, its likes.
///
/// Read loosely, like ``ItineraryTripFields``: a field an older daemon leaves out reads as
/// empty, so the table still prints.
struct ExploreSummary: Decodable, Sendable {
    var id: String
    var name: String
    /// The author's human-readable public id.
    var author: String
    var authorName: String?
    /// How many days the trip has (the detail's `days` is the days themselves: then their count).
    var dayCount: Int
    /// ISO 3166 country codes.
    var countries: [String]
    var cities: [String]
    /// Every distinct liker, and those of them this person knows.
    var likes: Int
    var likesKnown: Int
    var liked: Bool
    var saved: Bool
    var publishedAt: String?
    var updatedAt: String?
    var mine: Bool
    /// `friends`, `group` or `network`.
    var audience: String?
    var startDate: String?
    var endDate: String?
    /// Unpublished by its author since it was saved.
    var withdrawn: Bool

    private enum CodingKeys: String, CodingKey {
        case id, name, author, authorName, days, countries, cities, likes, likesKnown, liked, saved, publishedAt
        case updatedAt, mine, audience, startDate, endDate, withdrawn
    }

    init(from decoder: any Decoder) throws {
        let c = try decoder.container(keyedBy: CodingKeys.self)
        id = try c.decode(String.self, forKey: .id)
        name = try c.decodeIfPresent(String.self, forKey: .name) ?? ""
        author = try c.decodeIfPresent(String.self, forKey: .author) ?? ""
        authorName = try c.decodeIfPresent(String.self, forKey: .authorName)
        if let count = try? c.decodeIfPresent(Int.self, forKey: .days) {
            dayCount = count
        } else {
            dayCount = (try? c.decodeIfPresent([JSONValue].self, forKey: .days))?.count ?? 0
        }
        countries = try c.decodeIfPresent([String].self, forKey: .countries) ?? []
        cities = try c.decodeIfPresent([String].self, forKey: .cities) ?? []
        likes = try c.decodeIfPresent(Int.self, forKey: .likes) ?? 0
        likesKnown = try c.decodeIfPresent(Int.self, forKey: .likesKnown) ?? 0
        liked = try c.decodeIfPresent(Bool.self, forKey: .liked) ?? false
        saved = try c.decodeIfPresent(Bool.self, forKey: .saved) ?? false
        publishedAt = try c.decodeIfPresent(String.self, forKey: .publishedAt)
        updatedAt = try c.decodeIfPresent(String.self, forKey: .updatedAt)
        mine = try c.decodeIfPresent(Bool.self, forKey: .mine) ?? false
        audience = try c.decodeIfPresent(String.self, forKey: .audience)
        startDate = try c.decodeIfPresent(String.self, forKey: .startDate)
        endDate = try c.decodeIfPresent(String.self, forKey: .endDate)
        withdrawn = try c.decodeIfPresent(Bool.self, forKey: .withdrawn) ?? false
    }
}

/// `{"trips": [...]}`: `GET /v1/explore`, `GET /v1/saved`, and a friend's published trips.
struct ExploreList: Decodable, Sendable {
    var trips: [ExploreSummary]

    private enum CodingKeys: String, CodingKey { case trips }

    init(from decoder: any Decoder) throws {
        let c = try decoder.container(keyedBy: CodingKeys.self)
        trips = try c.decodeIfPresent([ExploreSummary].self, forKey: .trips) ?? []
    }
}

/// One published trip in full (`GET /v1/explore/{id}`, the publish answer's `trip`): the
/// summary, its days with their items, its places to go and its costs per section.
struct ExploreDetail: Decodable, Sendable {
    /// A place to go: as the itinerary's `places` shows it (`name`, `latitude`…), or as a
    /// day view's item of type `place` (`title`, `location`); either is read.
    struct PlaceToGo: Decodable, Sendable {
        var name: String
        var latitude: Double?
        var longitude: Double?
        var address: String?
        var position: Int?
        var day: String?

        private enum CodingKeys: String, CodingKey {
            case name, title, latitude, longitude, address, position, day, location, start
        }

        init(from decoder: any Decoder) throws {
            let c = try decoder.container(keyedBy: CodingKeys.self)
            let location = try c.decodeIfPresent(ItemLocation.self, forKey: .location)
            name =
                try c.decodeIfPresent(String.self, forKey: .name) ?? c.decodeIfPresent(String.self, forKey: .title)
                ?? location?.name ?? ""
            latitude = try c.decodeIfPresent(Double.self, forKey: .latitude) ?? location?.latitude
            longitude = try c.decodeIfPresent(Double.self, forKey: .longitude) ?? location?.longitude
            address = try c.decodeIfPresent(String.self, forKey: .address) ?? location?.address
            position = try c.decodeIfPresent(Int.self, forKey: .position)
            // A place item's `start` is the day planned for it.
            day =
                try c.decodeIfPresent(String.self, forKey: .day)
                ?? TripFormat.datePart(c.decodeIfPresent(String.self, forKey: .start))
        }
    }

    /// What one section (lodging, transport, food, activity, travel) costs, per currency.
    struct Cost: Decodable, Sendable {
        var section: String
        var total: Money
    }

    var summary: ExploreSummary
    var timeZone: String?
    var items: [TripItem]
    var places: [PlaceToGo]
    var days: [TripDay]
    var unscheduled: [TripItem]
    var costs: [Cost]
    /// Everything's price summed per currency.
    var totalCost: [Money]

    /// The order sections print in; others after them, by name.
    static let sectionOrder = ["lodging", "transport", "travel", "food", "activity"]

    private enum CodingKeys: String, CodingKey {
        case timeZone, items, places, days, unscheduled, costs, totalCost
    }

    init(from decoder: any Decoder) throws {
        summary = try ExploreSummary(from: decoder)
        let c = try decoder.container(keyedBy: CodingKeys.self)
        timeZone = try c.decodeIfPresent(String.self, forKey: .timeZone)
        items = try c.decodeIfPresent([TripItem].self, forKey: .items) ?? []
        places = try c.decodeIfPresent([PlaceToGo].self, forKey: .places) ?? []
        // The summary's `days` is a count; here it is the days themselves.
        days = (try? c.decodeIfPresent([TripDay].self, forKey: .days)) ?? []
        unscheduled = try c.decodeIfPresent([TripItem].self, forKey: .unscheduled) ?? []
        // Costs come as `[{"section", "total"}]` or, as an itinerary's, `{"lodging": [Money]}`.
        if let list = try? c.decodeIfPresent([Cost].self, forKey: .costs) {
            costs = list
        } else if let sections = try c.decodeIfPresent([String: [Money]].self, forKey: .costs) {
            let names = sections.keys.sorted {
                let (a, b) = (Self.sectionOrder.firstIndex(of: $0), Self.sectionOrder.firstIndex(of: $1))
                return (a ?? Int.max, $0) < (b ?? Int.max, $1)
            }
            costs = names.flatMap { name in (sections[name] ?? []).map { Cost(section: name, total: $0) } }
        } else {
            costs = []
        }
        totalCost = try c.decodeIfPresent([Money].self, forKey: .totalCost) ?? []
    }
}

/// `POST /v1/itineraries/{id}/publish`: what was (or, dry run, would be) published, to whom.
struct PublishAnswer: Decodable, Sendable {
    /// The published trip's id (its explore id).
    var id: String?
    var itinerary: String?
    var audience: String
    var group: String?
    var groupName: String?
    var dryRun: Bool
    var publishedAt: String?
    var trip: ExploreDetail
}

/// Human renderings of published trips (issue 17).
enum ExploreFormat {
    /// "you", the author's profile name, or the start of their public id.
    static func author(_ trip: ExploreSummary) -> String {
        if trip.mine { return "you" }
        if let name = trip.authorName, !name.isEmpty { return name }
        return String(trip.author.prefix(7))
    }

    /// "KNOWN/ALL": likes by people this person knows, of every like.
    static func likes(_ trip: ExploreSummary) -> String { "\(trip.likesKnown)/\(trip.likes)" }

    /// "♥ 3 (1 from people you know), you too" for sentences.
    static func likeSentence(_ trip: ExploreSummary) -> String {
        var text = "♥ \(trip.likes) (\(trip.likesKnown) from people you know)"
        if trip.liked { text += trip.likes == 1 ? ", yours" : ", you too" }
        return text
    }

    /// The first three cities, and how many more.
    static func cities(_ cities: [String]) -> String {
        guard cities.count > 3 else { return cities.joined(separator: ", ") }
        return cities.prefix(3).joined(separator: ", ") + " +\(cities.count - 3)"
    }

    /// "to your friends", "to “close friends”", "to a group", "to everyone on the network".
    static func audience(_ audience: String?, groupName: String? = nil) -> String {
        switch audience {
        case "friends": "to your friends"
        case "network": "to everyone on the network"
        case "group": groupName.map { "to “\($0)”" } ?? "to a group"
        case let other?: "to \(other)"
        case nil: "to an unknown audience"
        }
    }

    /// The explore table: name, author, days, countries, cities, likes, flags, id.
    static func table(_ trips: [ExploreSummary]) -> String {
        var table = Table(
            "NAME", "AUTHOR", "DAYS", "COUNTRIES", "CITIES", "LIKES", "FLAGS", "ID",
            alignments: [.left, .left, .right, .left, .left, .right])
        for trip in trips {
            let flags = [trip.liked ? "liked" : nil, trip.saved ? "saved" : nil].compactMap { $0 }
            table.append(
                trip.name + (trip.withdrawn ? " (withdrawn by its author)" : ""), author(trip), String(trip.dayCount),
                trip.countries.joined(separator: ","), cities(trip.cities), likes(trip), flags.joined(separator: ","),
                Format.shortID(trip.id))
        }
        return table.render()
    }

    /// Everything a published trip shows, the way `explore show` prints it. `preview` (a
    /// publish's dry run) leaves out what only exists once published: likes, dates of
    /// publication, the author.
    static func detail(_ trip: ExploreDetail, preview: Bool = false, plain: Bool) -> String {
        let summary = trip.summary
        var fields = Fields()
        if !preview { fields["id"] = summary.id }
        fields["name"] = summary.name
        if !preview {
            fields["author"] =
                summary.mine
                ? "you" : [summary.authorName, "(\(summary.author))"].compactMap { $0 }.joined(separator: " ")
        }
        fields["dates"] = Format.dateRange(summary.startDate, summary.endDate)
        fields["days"] = String(summary.dayCount)
        fields["countries"] = summary.countries.isEmpty ? nil : summary.countries.joined(separator: ", ")
        fields["cities"] = summary.cities.isEmpty ? nil : summary.cities.joined(separator: ", ")
        fields["time zone"] = trip.timeZone
        if !preview {
            fields["audience"] = summary.audience.map { audience($0).replacingOccurrences(of: "to ", with: "") }
            fields["likes"] =
                "\(summary.likes) (\(summary.likesKnown) from people you know)" + (summary.liked ? ", yours too" : "")
            fields["saved"] = summary.saved ? "yes" : nil
            fields["published"] = summary.publishedAt.map(Format.time)
            fields["updated"] = summary.updatedAt.map(Format.time)
            fields["withdrawn"] = summary.withdrawn ? "yes, by its author" : nil
        }
        var blocks = [fields.render()]
        blocks.append(costs(trip.costs, total: trip.totalCost))
        // An item over several days (a stay) says its details on the first.
        var described = Set<String>()
        blocks += trip.days.map { day($0, plain: plain, described: &described) }
        if !trip.unscheduled.isEmpty {
            let lines = trip.unscheduled.flatMap { item in
                ["  \(TripFormat.symbol(item, plain: plain)) \(TripFormat.label(item, on: nil, plain: plain))"]
                    + details(item).map { "    " + $0 }
            }
            blocks.append((["Not on a day:"] + lines).joined(separator: "\n"))
        }
        if trip.days.isEmpty && trip.unscheduled.isEmpty && !trip.items.isEmpty {
            // A daemon that sends the items without days: list them as items.
            blocks.append("Items:\n" + TripFormat.itemTable(trip.items))
        }
        blocks.append(places(trip.places))
        return blocks.joined(separator: "\n\n")
    }

    /// "Costs:" and one line per section (several currencies joined with +) and the total, or
    /// a line saying nothing is priced.
    static func costs(_ costs: [ExploreDetail.Cost], total: [Money] = []) -> String {
        guard !costs.isEmpty else { return "Costs: nothing priced" }
        var order: [String] = []
        var totals: [String: [Money]] = [:]
        for cost in costs {
            if totals[cost.section] == nil { order.append(cost.section) }
            totals[cost.section, default: []].append(cost.total)
        }
        var table = Table("SECTION", "TOTAL", alignments: [.left, .right])
        for section in order { table.append(section, Format.money(totals[section] ?? [])) }
        if !total.isEmpty { table.append("total", Format.money(total)) }
        return "Costs:\n" + table.render().split(separator: "\n").dropFirst().map { "  " + $0 }.joined(separator: "\n")
    }

    /// The places to go: position, name, day, location, address.
    static func places(_ places: [ExploreDetail.PlaceToGo]) -> String {
        guard !places.isEmpty else { return "Places to go: none" }
        var table = Table("#", "NAME", "DAY", "LOCATION", "ADDRESS", alignments: [.right])
        let ordered = places.enumerated().sorted {
            ($0.element.position ?? $0.offset) < ($1.element.position ?? $1.offset)
        }
        for (offset, place) in ordered {
            let location = place.latitude.flatMap { lat in place.longitude.map { Format.coordinates(lat, $0) } } ?? ""
            table.append(
                "\((place.position ?? offset + 1)).", place.name, place.day ?? "", location, place.address ?? "")
        }
        return "Places to go:\n" + table.render()
    }

    /// A day as `itinerary show --day` prints it, each item followed by what else is
    /// published about it: its time zone, where, its price and notes.
    static func day(_ day: TripDay, plain: Bool) -> String {
        var described = Set<String>()
        return self.day(day, plain: plain, described: &described)
    }

    /// A day whose items' details are printed unless their id is in `described` (which
    /// gains them).
    static func day(_ day: TripDay, plain: Bool, described: inout Set<String>) -> String {
        var header = (day.number.map { "Day \($0) · " } ?? "") + TripFormat.longDate(day.date)
        if let lodging = day.lodging { header += " · sleeping at \(lodging.title)" }
        guard !day.items.isEmpty else { return header + "\n  nothing planned" }
        let times = day.items.map { TripFormat.timeLabel($0, on: day.date) }
        let width = max(11, times.map(\.count).max() ?? 0)
        let indent = String(repeating: " ", count: 2 + width + 2 + 2)
        var lines = [header]
        for (item, time) in zip(day.items, times) {
            let pad = String(repeating: " ", count: width - time.count)
            let label = TripFormat.label(item, on: day.date, plain: plain)
            lines.append("  \(time)\(pad)  \(TripFormat.symbol(item, plain: plain)) \(label)")
            if described.insert(item.id).inserted { lines += details(item).map { indent + $0 } }
        }
        return lines.joined(separator: "\n")
    }

    /// What an item's line does not say: its time zone(s), where it is, and any other
    /// field the trip carries (price, booking, notes…), one line of `·`-joined parts and
    /// one line per longer text. Nothing is left out: a dry run shows all that goes.
    static func details(_ item: TripItem) -> [String] {
        var parts: [String] = []
        switch (item.timeZone, item.endTimeZone) {
        case (let zone?, let end?) where end != zone: parts.append("\(zone) → \(end)")
        case (let zone?, _): parts.append(zone)
        case (nil, let end?): parts.append("arrives in \(end)")
        case (nil, nil): break
        }
        if item.type == "transport" {
            let from = place(item.location), to = place(item.to)
            // The item's line already names both ends; say them again only with more to say.
            let named =
                from != nil && from == item.location?.name && to != nil && to == item.to?.name
                && !item.title.contains(to ?? "")
            switch named ? (nil, nil) : (from, to) {
            case (let from?, let to?): parts.append("from \(from) to \(to)")
            case (let from?, nil): parts.append("from \(from)")
            case (nil, let to?): parts.append("to \(to)")
            case (nil, nil): break
            }
        } else if var location = item.location {
            // A place to go's location is named as the item is: say where it is only.
            if location.name == item.title { location.name = nil }
            if let at = place(location) { parts.append(item.type == "place" ? at : "at \(at)") }
        }
        if let price = item.price { parts.append(price.description) }
        if let booked = item.booked, booked { parts.append("booked") }
        var lines = parts.isEmpty ? [] : [parts.joined(separator: " · ")]
        let texts: [(String, String?)] = [
            ("booking", item.bookingReference), ("confirmation", item.confirmationCode), ("contact", item.contact),
            ("recommendation", item.recommendation), ("description", item.description), ("url", item.url),
            ("notes", item.notes),
        ]
        for (key, value) in texts { if let value, !value.isEmpty { lines.append("\(key): \(value)") } }
        return lines
    }

    /// "Casa Porto, Rua das Flores 1 (41.14690, -8.61480)", the parts that are there.
    static func place(_ location: ItemLocation?) -> String? {
        guard let location else { return nil }
        let text = [location.name, location.address].compactMap { $0 }.filter { !$0.isEmpty }
            .joined(separator: ", ")
        guard let lat = location.latitude, let lon = location.longitude else { return text.isEmpty ? nil : text }
        let coordinates = Format.coordinates(lat, lon)
        return text.isEmpty ? coordinates : "\(text) (\(coordinates))"
    }
}
