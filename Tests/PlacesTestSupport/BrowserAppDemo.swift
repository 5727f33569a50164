import Foundation

/// Realistic demo data for the browser tests and the screenshots: a long weekend in Lisbon
/// with real places and coordinates, written through a daemon's socket as the CLI would.
public enum LisbonDemo {
    /// A place in Lisbon: name, latitude, longitude.
    public typealias Spot = (name: String, latitude: Double, longitude: Double)

    public static let castle: Spot = ("Castelo de São Jorge", 38.7139, -9.1335)
    public static let belemTower: Spot = ("Torre de Belém", 38.6916, -9.2160)
    public static let jeronimos: Spot = ("Mosteiro dos Jerónimos", 38.6979, -9.2068)
    public static let pasteis: Spot = ("Pastéis de Belém", 38.6975, -9.2032)
    public static let santaLuzia: Spot = ("Miradouro de Santa Luzia", 38.7118, -9.1302)
    public static let lxFactory: Spot = ("LX Factory", 38.7036, -9.1783)
    public static let timeOut: Spot = ("Time Out Market", 38.7069, -9.1458)
    public static let oceanario: Spot = ("Oceanário de Lisboa", 38.7635, -9.0937)
    public static let comercio: Spot = ("Praça do Comércio", 38.7075, -9.1364)
    public static let santaJusta: Spot = ("Elevador de Santa Justa", 38.7121, -9.1394)
    public static let pena: Spot = ("Palácio da Pena", 38.7876, -9.3906)
    public static let hotel: Spot = ("Memmo Alfama", 38.7114, -9.1297)

    /// Adds library places (answers their ids in order).
    @discardableResult
    public static func places(_ node: PeerNode, _ spots: [Spot], favorite: Bool = false) throws -> [String] {
        try spots.map { spot in
            let place = try node.json(
                "POST", "/v1/places",
                jsonText(["name": spot.name, "latitude": spot.latitude, "longitude": spot.longitude]))
            let id = place["id"] as? String ?? ""
            if favorite { try node.json("POST", "/v1/favorites", jsonText(["placeId": id])) }
            return id
        }
    }

    /// Adds an item; `day` is the trip's day number (1 = 2027-04-10).
    @discardableResult
    public static func item(
        _ node: PeerNode, _ itinerary: String, _ type: String, _ title: String, day: Int, at time: String,
        until end: String? = nil, spot: Spot? = nil, extra: [String: Any] = [:]
    ) throws -> String {
        var body: [String: Any] = ["type": type, "title": title, "start": "\(date(day))T\(time)"]
        if let end { body["end"] = end.contains("T") ? end : "\(date(day))T\(end)" }
        if let spot { body["location"] = ["name": spot.name, "latitude": spot.latitude, "longitude": spot.longitude] }
        for (key, value) in extra { body[key] = value }
        let item = try node.json("POST", "/v1/itineraries/\(itinerary)/items", jsonText(body))
        return item["id"] as? String ?? ""
    }

    /// The trip's day `n` as YYYY-MM-DD (day 1 = 2027-04-10).
    public static func date(_ n: Int) -> String { String(format: "2027-04-%02d", 9 + n) }

    /// "Lisbon long weekend", 10–13 April 2027: a stay, a flight, three sights and two meals
    /// on day 2 (a walk through Belém), a day trip to Sintra, places to go. Answers its id.
    public static func trip(_ node: PeerNode, name: String = "Lisbon long weekend") throws -> String {
        let id = try node.createItinerary(
            jsonText([
                "name": name, "startDate": date(1), "endDate": date(4), "timeZone": "Europe/Lisbon",
                "notes": "Pack comfortable shoes: the hills are steep.",
            ]))
        try item(
            node, id, "transport", "TP1351 London → Lisbon", day: 1, at: "08:05", until: "10:45",
            extra: [
                "mode": "flight", "timeZone": "Europe/London", "endTimeZone": "Europe/Lisbon", "carrier": "TAP",
                "number": "TP1351",
                "to": ["name": "Humberto Delgado Airport", "latitude": 38.7742, "longitude": -9.1342],
                "price": ["amountMinor": 18900, "currency": "EUR"],
            ])
        try item(
            node, id, "lodging", hotel.name, day: 1, at: "15:00", until: "\(date(4))T11:00", spot: hotel,
            extra: ["price": ["amountMinor": 54000, "currency": "EUR"]])
        try item(node, id, "activity", "Sunset at Santa Luzia", day: 1, at: "19:30", spot: santaLuzia)
        try item(node, id, "activity", "Mosteiro dos Jerónimos", day: 2, at: "10:00", until: "11:30", spot: jeronimos)
        try item(
            node, id, "food", "Pastéis de Belém", day: 2, at: "11:45", spot: pasteis,
            extra: ["recommendation": "Eat them warm, with cinnamon"])
        try item(node, id, "activity", "Torre de Belém", day: 2, at: "12:30", until: "13:30", spot: belemTower)
        try item(node, id, "activity", "LX Factory", day: 2, at: "15:00", until: "17:00", spot: lxFactory)
        try item(
            node, id, "food", "Dinner at Time Out Market", day: 2, at: "20:00", spot: timeOut,
            extra: ["price": ["amountMinor": 4500, "currency": "EUR"]])
        try item(node, id, "activity", "Palácio da Pena", day: 3, at: "10:00", until: "13:00", spot: pena)
        try item(node, id, "activity", "Castelo de São Jorge", day: 4, at: "09:00", until: "10:30", spot: castle)
        let stops = try places(node, [oceanario, santaJusta])
        for stop in stops { try node.json("POST", "/v1/itineraries/\(id)/places", jsonText(["placeId": stop])) }
        return id
    }

    /// A JPEG "photo" of a Lisbon sunset drawn by the browser's canvas (no file in the
    /// repository, no network), written to `path`.
    public static func photo(_ browser: WebDriver, to path: String) throws {
        let value = try browser.execute(
            """
            const c = document.createElement('canvas'); c.width = 960; c.height = 640;
            const g = c.getContext('2d');
            const sky = g.createLinearGradient(0, 0, 0, 420);
            sky.addColorStop(0, '#2b3a67'); sky.addColorStop(0.55, '#e07a5f'); sky.addColorStop(1, '#f2cc8f');
            g.fillStyle = sky; g.fillRect(0, 0, 960, 420);
            g.fillStyle = '#fbe3a1'; g.beginPath(); g.arc(640, 360, 70, 0, Math.PI * 2); g.fill();
            const sea = g.createLinearGradient(0, 420, 0, 640);
            sea.addColorStop(0, '#3d5a80'); sea.addColorStop(1, '#1d2d44');
            g.fillStyle = sea; g.fillRect(0, 420, 960, 220);
            g.fillStyle = '#1b1b2f';
            for (let i = 0; i < 24; i++) {
              const x = i * 40, h = 60 + ((i * 37) % 90);
              g.fillRect(x, 420 - h, 36, h);
              g.fillRect(x + 8, 420 - h - 14, 20, 14);
            }
            g.fillStyle = '#e9c46a'; g.font = 'bold 54px sans-serif'; g.fillText('Lisboa', 40, 600);
            return c.toDataURL('image/jpeg', 0.85).split(',')[1];
            """)
        guard let base64 = value as? String, let data = Data(base64Encoded: base64) else {
            throw HarnessError("the canvas drew no photo")
        }
        try data.write(to: URL(fileURLWithPath: path))
    }
}
