import Foundation
import PlacesAPI
import PlacesAccess
import PlacesCrypto
import PlacesModel
import PlacesStore
import PlacesSync

// Pins: categories with emoji, places copied from posts and friends, friends' maps.
extension Engine {
    /// The built-in pin categories and their emoji (`GET /v1/categories`); a place may carry
    /// any other category name too.
    static let builtInCategories: [(name: String, emoji: String)] = [
        ("to eat", "🍴"), ("to drink", "🍸"), ("to shop", "🛍️"), ("to see", "👀"), ("to stay", "🛏️"),
    ]

    static let categoriesPreference = "pin.categories"

    /// The pin categories: the built-in ones and this person's own, with their emoji.
    func pinCategories() -> [(name: String, emoji: String)] {
        var out = Self.builtInCategories
        if let text = try? store.preference(Self.categoriesPreference),
            case .object(let own)? = try? JSONDecoder().decode(JSONValue.self, from: Data(text.utf8))
        {
            for (name, emoji) in own.sorted(by: { $0.key < $1.key }) {
                guard let emoji = emoji.stringValue else { continue }
                out.removeAll { $0.name == name }
                out.append((name, emoji))
            }
        }
        return out
    }

    /// `POST /v1/categories` (`{"name", "emoji"}`): a category of this person's own, or a new
    /// emoji for one (built-in ones included).
    func addPinCategory(_ body: [String: JSONValue]) throws -> CategoryList {
        if let unknown = body.keys.sorted().first(where: { $0 != "name" && $0 != "emoji" }) {
            throw ServiceError.invalid(unknown, "unknown field '\(unknown)': the fields are name and emoji")
        }
        let name = (body["name"]?.stringValue ?? "").trimmingCharacters(in: .whitespaces)
        guard !name.isEmpty, name.utf8.count <= 3_200, name.count <= 50 else {
            throw ServiceError.invalid("name", "a category's name is 1–50 characters")
        }
        guard let emoji = body["emoji"]?.stringValue, (1...4).contains(emoji.count), emoji.utf8.count <= 32,
            !emoji.contains(where: { $0.isWhitespace })
        else { throw ServiceError.invalid("emoji", "'emoji' is one emoji (at most 4 characters, no spaces)") }
        var own = [String: JSONValue]()
        if let text = try? store.preference(Self.categoriesPreference),
            case .object(let held)? = try? JSONDecoder().decode(JSONValue.self, from: Data(text.utf8))
        {
            own = held
        }
        guard own.count < 100 || own[name] != nil else {
            throw ServiceError.invalid("name", "you have 100 categories of your own, the most there can be")
        }
        own[name] = .string(emoji)
        try storeCall { () throws(StoreError) in
            try store.setPreference(Self.categoriesPreference, JSONValue.object(own).jsonText)
        }
        return CategoryList(categories: pinCategories().map { PinCategory(name: $0.name, emoji: $0.emoji) })
    }

    /// `POST /v1/places` with `fromPost` (a post id) or `fromFriend` (a public id) and
    /// `placeId` (one of the places they share): the body filled with the copied place, which
    /// remembers where it came from (`origin`).
    func filledFromFriends(_ body: [String: JSONValue]) throws -> [String: JSONValue] {
        var out = body
        if let reference = body["fromPost"], !reference.isNull {
            out["fromPost"] = nil
            guard let id = reference.stringValue else {
                throw ServiceError.invalid("fromPost", "'fromPost' is a post id")
            }
            let post = try self.post(id)
            guard let place = post.place, let latitude = place.latitude, let longitude = place.longitude else {
                throw ServiceError.invalid("fromPost", "post \(id.prefix(12)) names no place")
            }
            out["name"] = out["name"] ?? .string(place.name ?? "Place from \(post.authorName ?? "a friend")'s post")
            out["latitude"] = .double(latitude)
            out["longitude"] = .double(longitude)
            if let address = place.address { out["address"] = out["address"] ?? .string(address) }
            if let gid = place.gazetteerId { out["gazetteerId"] = out["gazetteerId"] ?? .string(gid) }
            out["origin"] = .string("post:\(post.id)")
            return out
        }
        guard let friendRef = body["fromFriend"], !friendRef.isNull else { return body }
        out["fromFriend"] = nil
        guard let text = friendRef.stringValue else {
            throw ServiceError.invalid("fromFriend", "'fromFriend' is a friend's public id")
        }
        guard let wanted = body["placeId"]?.stringValue else {
            throw ServiceError.invalid("placeId", "'placeId' names one of the places the friend shares")
        }
        out["placeId"] = nil
        let profile = try friendProfile(text)
        guard
            let shared = profile.places.first(where: {
                $0.id == wanted || $0.id.hasSuffix(".\(wanted)") || $0.name == wanted
            })
        else { throw ServiceError.notFound("\(profile.friend.name ?? text) shares no place '\(wanted.prefix(80))'") }
        out["name"] = out["name"] ?? .string(shared.name)
        out["latitude"] = .double(shared.latitude)
        out["longitude"] = .double(shared.longitude)
        if let address = shared.address { out["address"] = out["address"] ?? .string(address) }
        if !shared.categories.isEmpty {
            out["categories"] = out["categories"] ?? .array(shared.categories.map(JSONValue.string))
        }
        if let gid = shared.gazetteerId { out["gazetteerId"] = out["gazetteerId"] ?? .string(gid) }
        out["origin"] = .string("friend:\(profile.friend.id)")
        return out
    }

    /// `GET /v1/friends/{id}/map?category=C&format=geojson`: the places a friend shares, as a
    /// list or a GeoJSON FeatureCollection.
    func friendMap(_ reference: String, query: [String: String]) throws -> (places: [SharedFavorite], geoJSON: Bool) {
        let profile = try friendProfile(reference)
        var places = profile.places
        if let category = query["category"] {
            places = places.filter { $0.categories.contains { $0.caseInsensitiveCompare(category) == .orderedSame } }
        }
        switch query["format"] {
        case nil, "json": return (places, false)
        case "geojson": return (places, true)
        case let other?:
            throw ServiceError.invalid("format", "'format' is json or geojson, not '\(other.prefix(40))'")
        }
    }

    static func geoJSON(_ places: [SharedFavorite], categories: [(name: String, emoji: String)]) -> JSONValue {
        .object([
            "type": .string("FeatureCollection"),
            "features": .array(
                places.map { place in
                    var properties: [String: JSONValue] = [
                        "id": .string(place.id), "name": .string(place.name),
                        "categories": .array(place.categories.map(JSONValue.string)),
                    ]
                    if let address = place.address { properties["address"] = .string(address) }
                    if let emoji = place.categories.lazy.compactMap({ name in
                        categories.first { $0.name == name }?.emoji
                    }).first {
                        properties["emoji"] = .string(emoji)
                    }
                    return .object([
                        "type": .string("Feature"),
                        "geometry": .object([
                            "type": .string("Point"),
                            "coordinates": .array([.double(place.longitude), .double(place.latitude)]),
                        ]),
                        "properties": .object(properties),
                    ])
                }),
        ])
    }
}
