/// Google Maps directions links for a route.
public struct GoogleMapsDirections: Sendable, Codable, Equatable {
    /// Waypoints Google Maps accepts per link besides origin and destination.
    public static let maximumWaypoints = 9

    /// Links to open in order; each link's origin is the previous link's destination.
    public var urls: [String]
    /// `true` when the route needed more than one link.
    public var isSplit: Bool
    /// A sentence for the user when the route was split, else `nil`.
    public var note: String?

    /// Creates the value (normally done by ``RoutePlan/googleMapsDirections()``).
    public init(urls: [String], isSplit: Bool, note: String?) {
        self.urls = urls
        self.isSplit = isSplit
        self.note = note
    }
}

extension RoutePlan {
    /// Google Maps directions URLs (`https://www.google.com/maps/dir/?api=1&…`) that
    /// follow the stops in order, with `travelmode` from the plan's mode. Coordinates
    /// rather than names are sent so the link opens exactly these places. Routes with
    /// more than 9 intermediate stops are split into consecutive links.
    public func googleMapsDirections() -> GoogleMapsDirections {
        let path = pathPlaces
        let travelMode = "&travelmode=\(mode.googleMapsTravelMode)"
        let base = "https://www.google.com/maps/dir/?api=1"
        if path.isEmpty { return GoogleMapsDirections(urls: [], isSplit: false, note: nil) }
        if path.count == 1 {
            return GoogleMapsDirections(
                urls: [base + "&destination=" + Self.encodedPosition(path[0]) + travelMode], isSplit: false, note: nil)
        }
        let pointsPerLink = GoogleMapsDirections.maximumWaypoints + 2
        var urls: [String] = []
        var first = 0
        while first < path.count - 1 {
            let last = min(first + pointsPerLink - 1, path.count - 1)
            var url = base + "&origin=" + Self.encodedPosition(path[first])
            url += "&destination=" + Self.encodedPosition(path[last])
            if last - first > 1 {
                url += "&waypoints=" + path[(first + 1)..<last].map(Self.encodedPosition).joined(separator: "%7C")
            }
            urls.append(url + travelMode)
            first = last
        }
        let isSplit = urls.count > 1
        let note =
            isSplit
            ? "Google Maps allows \(GoogleMapsDirections.maximumWaypoints) stops between origin and destination, "
                + "so this route is split into \(urls.count) links; open them in order." : nil
        return GoogleMapsDirections(urls: urls, isSplit: isSplit, note: note)
    }

    /// "LAT,LON" percent-encoded for a query value (the comma is encoded as %2C).
    private static func encodedPosition(_ place: RoutePlace) -> String {
        Formatting.coordinate(place.latitude) + "%2C" + Formatting.coordinate(place.longitude)
    }
}
