extension RoutePlan {
    /// The route as a GPX 1.1 document (namespace `http://www.topografix.com/GPX/1/1`):
    /// a `wpt` per place, then one `rte` whose `rtept`s follow the visiting order (back to
    /// the first stop on a round trip). Names are XML-escaped.
    ///
    /// - Parameter name: the route name written to `metadata` and `rte`.
    public func gpx(name: String = "Places route") -> String {
        let title = Formatting.xmlEscaped(name)
        let summary = Formatting.xmlEscaped(summaryLine)
        var lines = [
            "<?xml version=\"1.0\" encoding=\"UTF-8\"?>",
            "<gpx version=\"1.1\" creator=\"Places\" xmlns=\"http://www.topografix.com/GPX/1/1\""
                + " xmlns:xsi=\"http://www.w3.org/2001/XMLSchema-instance\""
                + " xsi:schemaLocation=\"http://www.topografix.com/GPX/1/1 http://www.topografix.com/GPX/1/1/gpx.xsd\">",
            "  <metadata>",
            "    <name>\(title)</name>",
            "    <desc>\(summary)</desc>",
            "  </metadata>",
        ]
        for stop in stops {
            lines.append("  <wpt \(attributes(stop.place))>")
            lines.append("    <name>\(Formatting.xmlEscaped(stop.place.name))</name>")
            lines.append("    <desc>Stop \(stop.order)</desc>")
            lines.append("  </wpt>")
        }
        lines.append("  <rte>")
        lines.append("    <name>\(title)</name>")
        lines.append("    <desc>\(summary)</desc>")
        for place in pathPlaces {
            lines.append("    <rtept \(attributes(place))><name>\(Formatting.xmlEscaped(place.name))</name></rtept>")
        }
        lines.append("  </rte>")
        lines.append("</gpx>")
        return lines.joined(separator: "\n") + "\n"
    }

    /// "Walking · 12.3 km · 2 h 30 min · optimal" — shared by exports.
    var summaryLine: String {
        let modeName =
            switch mode {
            case .walking: "Walking"
            case .cycling: "Cycling"
            case .driving: "Driving"
            }
        return [
            modeName, Formatting.distance(totals.distanceMeters), Formatting.duration(totals.durationSeconds),
            optimal ? "optimal" : "best found",
        ].joined(separator: " · ")
    }

    private func attributes(_ place: RoutePlace) -> String {
        "lat=\"\(Formatting.coordinate(place.latitude))\" lon=\"\(Formatting.coordinate(place.longitude))\""
    }
}
