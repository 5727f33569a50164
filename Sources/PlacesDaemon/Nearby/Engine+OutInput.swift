import Foundation
import PlacesAPI
import PlacesCrypto
import PlacesModel
import PlacesPlanner
import PlacesRoutes
import PlacesStore

/// What a `PUT /v1/out` body says: where (a place, or coordinates rounded unless `exact`) and
/// to whom (`friends`, a group, or named friends).
extension Engine {
    struct OutPosition {
        var latitude: Double
        var longitude: Double
        var place: String?
    }

    func outPosition(_ body: [String: JSONValue], exact: Bool) throws -> OutPosition {
        let latitude = body["latitude"].flatMap { $0.isNull ? nil : $0 }
        let longitude = body["longitude"].flatMap { $0.isNull ? nil : $0 }
        if let value = body["place"], !value.isNull {
            guard let text = value.stringValue, !text.isEmpty, text.count <= 200 else {
                throw ServiceError.invalid("place", "'place' must be a place's id or name")
            }
            guard latitude == nil, longitude == nil else {
                throw ServiceError.invalid("latitude", "give a place or coordinates, not both")
            }
            return try outPlace(text)
        }
        guard let lat = latitude?.doubleValue, let lon = longitude?.doubleValue, lat.isFinite, lon.isFinite,
            abs(lat) <= 90, abs(lon) <= 180
        else {
            throw ServiceError.invalid(
                latitude == nil ? "place" : "latitude",
                "say where: a place, or latitude (−90…90) and longitude (−180…180), both numbers")
        }
        if exact { return OutPosition(latitude: lat, longitude: lon) }
        let rounded = Self.roundedForOut(latitude: lat, longitude: lon)
        return OutPosition(latitude: rounded.latitude, longitude: rounded.longitude)
    }

    /// A position on the grid of about 200 m a note is rounded to (`Protocol/sync.md` §7.3):
    /// 0.002° of latitude, and 0.002°/cos(latitude) of longitude, each to its nearest line.
    static func roundedForOut(latitude: Double, longitude: Double) -> GeoPoint {
        let step = outGridDegrees
        let lat = min(90, max(-90, (latitude / step).rounded() * step))
        // Near the poles a degree of longitude is almost nothing: the step stops at 360°/grid.
        let lonStep = min(step / max(cos(lat * .pi / 180), 1e-6), 360)
        var lon = (longitude / lonStep).rounded() * lonStep
        if lon > 180 { lon -= 360 }
        if lon < -180 { lon += 360 }
        func tidy(_ d: Double) -> Double { (d * 1e6).rounded() / 1e6 }
        return GeoPoint(latitude: tidy(lat), longitude: tidy(min(180, max(-180, lon))))
    }

    /// `place`: a place of the user's or shared by someone they know (id, id prefix or
    /// name), or a discover result id. A place is shown as itself: its name and position.
    func outPlace(_ text: String) throws -> OutPosition {
        if FieldRule.isGazetteerID(text) || text.hasPrefix("place:") {
            let result = try discoverResult(text)
            return OutPosition(latitude: result.latitude, longitude: result.longitude, place: result.name)
        }
        let match = Self.savedPlace(text, in: try nearbyIndex())
        guard let match else {
            throw ServiceError.invalid(
                "place", "no place '\(text.prefix(80))' among yours and your friends': give its id or exact name")
        }
        return OutPosition(latitude: match.point.latitude, longitude: match.point.longitude, place: match.name)
    }

    /// The audience a request names and the friends it holds now: `friends`, a group (id or
    /// name; every member a friend), or a list of friends (public ids or names).
    func outAudience(_ value: JSONValue) throws -> (String, Set<PublicKey>) {
        if case .array(let items) = value {
            guard !items.isEmpty, items.count <= Self.maxFriends else {
                throw ServiceError.invalid("audience", "'audience' lists 1 to \(Self.maxFriends) friends")
            }
            let friends = currentFriends()
            var readers = Set<PublicKey>()
            for item in items {
                guard let text = item.stringValue else {
                    throw ServiceError.invalid("audience", "'audience' lists friends' public ids")
                }
                readers.insert(try outFriend(text, friends: friends))
            }
            return ("people", readers)
        }
        guard let text = value.stringValue, text != "only-me" else {
            throw ServiceError.invalid(
                "audience", "'audience' is \"friends\", a group's id or name, or a list of friends' ids")
        }
        if text == "friends" || (try? groupRecord(text)) != nil { return try postAudience(.string(text)) }
        // One friend, by id or name.
        do {
            return ("people", [try outFriend(text, friends: currentFriends())])
        } catch {
            throw ServiceError.invalid(
                "audience", "no group or friend '\(text.prefix(60))': the audience is friends, a group or friends")
        }
    }

    /// A friend named by public id or by the name this daemon knows them by.
    func outFriend(_ text: String, friends: Set<PublicKey>) throws -> PublicKey {
        if let key = try? HumanID.decode(text) {
            guard friends.contains(key) else {
                throw ServiceError.invalid("audience", "\(text.prefix(60)) is not your friend")
            }
            return key
        }
        let folded = PlanScoring.fold(text)
        let named = friends.filter { PlanScoring.fold(displayName(of: $0)) == folded }
        guard named.count == 1, let key = named.first else {
            throw ServiceError.invalid(
                "audience",
                named.isEmpty
                    ? "no friend '\(text.prefix(60))': name friends by their public id"
                    : "\(named.count) friends are called '\(text.prefix(60))': name them by their public id")
        }
        return key
    }
}
