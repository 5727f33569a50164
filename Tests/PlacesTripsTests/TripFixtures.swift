import PlacesModel
import PlacesTrips

/// Short ways to write the trips the tests read.
enum Fixture {
    static func date(_ text: String) -> LocalDate {
        guard let date = LocalDate(text) else { fatalError("bad test date \(text)") }
        return date
    }

    static func time(_ text: String?) -> LocalDateTime? {
        guard let text else { return nil }
        guard let time = LocalDateTime(text) else { fatalError("bad test time \(text)") }
        return time
    }

    /// An item; `at` and `to` are (latitude, longitude).
    static func item(
        _ id: String, _ type: TripItemType, _ title: String, _ start: String? = nil, _ end: String? = nil,
        zone: String? = nil, endZone: String? = nil, at: (Double, Double)? = nil, to: (Double, Double)? = nil,
        position: String? = nil, price: Money? = nil, link: String? = nil
    ) -> TripItem {
        TripItem(
            id: id, type: type, title: title, start: time(start), end: time(end), timeZone: zone, endTimeZone: endZone,
            location: at.map { TripLocation(latitude: $0.0, longitude: $0.1) },
            to: to.map { TripLocation(latitude: $0.0, longitude: $0.1) }, price: price, position: position,
            linkedItem: link)
    }

    /// A trip in Lisbon's zone.
    static func trip(_ start: String? = nil, _ end: String? = nil, _ items: [TripItem]) -> Trip {
        Trip(
            startDate: start.map(date), endDate: end.map(date), timeZone: "Europe/Lisbon", travelMode: .walking,
            items: items)
    }

    static let belem = (38.6979, -9.2063)
    static let baixa = (38.7107, -9.1366)
    static let chiado = (38.7105, -9.1420)
    static let saoBento = (41.1456, -8.6108)
    static let ribeira = (41.1406, -8.6132)
}
