import Foundation

extension RoutePlan {
    /// A picture of the route as a standalone SVG document.
    ///
    /// Places are projected with a local equirectangular projection (longitudes scaled by
    /// the cosine of the mean latitude) and fitted into the canvas. The route is drawn leg
    /// by leg with direction arrows (the closing leg of a round trip dashed); stops are
    /// numbered circles in visiting order, the start green and the end red; names carry a
    /// white halo so they stay readable over lines. A title gives mode and totals, a scale
    /// bar a round distance. Stops at the same spot are fanned out around it.
    ///
    /// - Parameters:
    ///   - width: canvas width in pixels (at least 320).
    ///   - height: canvas height in pixels (at least 240).
    ///   - title: first line of the header; defaults to "Route".
    public func svg(width: Int = 800, height: Int = 600, title: String = "Route") -> String {
        SVGRenderer(plan: self, width: max(320, width), height: max(240, height), title: title).render()
    }
}

/// Lays out and writes the SVG picture; see ``RoutePlan/svg(width:height:title:)``.
private struct SVGRenderer {
    let plan: RoutePlan
    let width: Double
    let height: Double
    let title: String

    init(plan: RoutePlan, width: Int, height: Int, title: String) {
        self.plan = plan
        self.width = Double(width)
        self.height = Double(height)
        self.title = title
    }

    private struct Point {
        var x: Double
        var y: Double
        func distance(to other: Point) -> Double {
            ((x - other.x) * (x - other.x) + (y - other.y) * (y - other.y)).squareRoot()
        }
    }

    private struct Box {
        var minX, minY, maxX, maxY: Double
        func intersects(_ other: Box) -> Bool {
            minX < other.maxX && other.minX < maxX && minY < other.maxY && other.minY < maxY
        }
    }

    // Palette and sizes.
    private let headerHeight = 64.0
    private let margin = 48.0
    private let markerRadius = 11.0
    private let routeColor = "#2563eb"
    private let startColor = "#16a34a"
    private let endColor = "#dc2626"
    private let textColor = "#1f2937"

    func render() -> String {
        let places = plan.stops.map(\.place)
        let meanLatitude = places.isEmpty ? 0 : places.map(\.latitude).reduce(0, +) / Double(places.count)
        let metersPerDegree = GeoPoint.earthRadiusMeters * Double.pi / 180
        let cosine = max(0.01, cos(meanLatitude * .pi / 180))
        // Local plane in metres (x east, y north).
        let planar = places.map { place in
            Point(x: place.longitude * cosine * metersPerDegree, y: place.latitude * metersPerDegree)
        }
        let minX = planar.map(\.x).min() ?? 0
        let maxX = planar.map(\.x).max() ?? 0
        let minY = planar.map(\.y).min() ?? 0
        let maxY = planar.map(\.y).max() ?? 0
        // A single place or identical places get a 1 km window so nothing divides by zero.
        let spanX = max(maxX - minX, 1)
        let spanY = max(maxY - minY, 1)
        let usableWidth = width - 2 * margin
        let usableHeight = height - headerHeight - 2 * margin - 24
        var pixelsPerMeter = min(usableWidth / spanX, usableHeight / spanY)
        if maxX - minX < 1 && maxY - minY < 1 { pixelsPerMeter = min(usableWidth, usableHeight) / 1000 }
        let centerX = (minX + maxX) / 2
        let centerY = (minY + maxY) / 2
        let mapCenter = Point(x: width / 2, y: headerHeight + margin + usableHeight / 2)
        let positions = planar.map { point in
            Point(
                x: mapCenter.x + (point.x - centerX) * pixelsPerMeter,
                y: mapCenter.y - (point.y - centerY) * pixelsPerMeter)
        }
        let markers = fanOut(positions)

        var svg: [String] = []
        svg.append("<?xml version=\"1.0\" encoding=\"UTF-8\"?>")
        svg.append(
            "<svg xmlns=\"http://www.w3.org/2000/svg\" width=\"\(Int(width))\" height=\"\(Int(height))\""
                + " viewBox=\"0 0 \(Int(width)) \(Int(height))\" font-family=\"Helvetica, Arial, sans-serif\">")
        svg.append("<title>\(Formatting.xmlEscaped(title + " — " + plan.summaryLine))</title>")
        svg.append("<rect width=\"100%\" height=\"100%\" fill=\"#f8fafc\"/>")
        svg.append(grid(mapCenter: mapCenter))
        svg.append(header(stopCount: places.count))
        svg.append(contentsOf: routeLines(positions))
        svg.append(contentsOf: leaderLines(from: positions, to: markers))
        svg.append(contentsOf: markerElements(markers))
        svg.append(contentsOf: labels(markers, avoiding: routeSegments(positions)))
        svg.append(scaleBar(pixelsPerMeter: pixelsPerMeter))
        svg.append(legend())
        svg.append("</svg>")
        return svg.joined(separator: "\n") + "\n"
    }

    private func header(stopCount: Int) -> String {
        let shape = plan.roundTrip ? "round trip" : "one way"
        let subtitle =
            "\(stopCount) stop\(stopCount == 1 ? "" : "s") · \(shape) · shortest by \(plan.criterion.rawValue)"
        let badge = plan.optimal ? "optimal" : "best found"
        let badgeColor = plan.optimal ? startColor : "#b45309"
        let badgeWidth = Double(badge.count) * 7.5 + 20
        return [
            "<rect width=\"100%\" height=\"\(Int(headerHeight))\" fill=\"#ffffff\"/>",
            "<line x1=\"0\" y1=\"\(Int(headerHeight))\" x2=\"\(Int(width))\" y2=\"\(Int(headerHeight))\""
                + " stroke=\"#e2e8f0\"/>",
            "<text x=\"20\" y=\"28\" font-size=\"19\" font-weight=\"bold\" fill=\"\(textColor)\">"
                + Formatting.xmlEscaped(truncated(title, 40)) + "</text>",
            "<text x=\"20\" y=\"50\" font-size=\"13\" fill=\"#475569\">"
                + Formatting.xmlEscaped(
                    modeName + " · " + Formatting.distance(plan.totals.distanceMeters) + " · "
                        + Formatting.duration(plan.totals.durationSeconds) + " · " + subtitle) + "</text>",
            "<rect x=\"\(f(width - 20 - badgeWidth))\" y=\"20\" width=\"\(f(badgeWidth))\" height=\"24\" rx=\"12\""
                + " fill=\"\(badgeColor)\"/>",
            "<text x=\"\(f(width - 20 - badgeWidth / 2))\" y=\"36.5\" font-size=\"13\" font-weight=\"bold\""
                + " fill=\"#ffffff\" text-anchor=\"middle\">\(badge)</text>",
        ].joined(separator: "\n")
    }

    private var modeName: String {
        switch plan.mode {
        case .walking: "Walking"
        case .cycling: "Cycling"
        case .driving: "Driving"
        }
    }

    /// Faint dots every 40 px: a sense of a map without pretending to be one.
    private func grid(mapCenter: Point) -> String {
        "<defs><pattern id=\"dots\" width=\"40\" height=\"40\" patternUnits=\"userSpaceOnUse\">"
            + "<circle cx=\"20\" cy=\"20\" r=\"1\" fill=\"#cbd5e1\"/></pattern></defs>\n"
            + "<rect y=\"\(Int(headerHeight))\" width=\"100%\" height=\"\(f(height - headerHeight))\" fill=\"url(#dots)\"/>"
    }

    private func routeLines(_ positions: [Point]) -> [String] {
        guard positions.count > 1 else { return [] }
        var pairs = zip(positions, positions.dropFirst()).map { ($0, $1, false) }
        if plan.roundTrip, let first = positions.first, let last = positions.last { pairs.append((last, first, true)) }
        var lines: [String] = ["<g fill=\"none\" stroke-linecap=\"round\" stroke-linejoin=\"round\">"]
        // A white casing under the coloured line keeps crossings legible.
        for (a, b, _) in pairs {
            lines.append(
                "<line x1=\"\(f(a.x))\" y1=\"\(f(a.y))\" x2=\"\(f(b.x))\" y2=\"\(f(b.y))\" stroke=\"#ffffff\""
                    + " stroke-width=\"7\"/>")
        }
        for (a, b, closing) in pairs {
            let dash = closing ? " stroke-dasharray=\"8 6\" stroke-opacity=\"0.7\"" : ""
            lines.append(
                "<line x1=\"\(f(a.x))\" y1=\"\(f(a.y))\" x2=\"\(f(b.x))\" y2=\"\(f(b.y))\" stroke=\"\(routeColor)\""
                    + " stroke-width=\"3.5\"\(dash)/>")
        }
        lines.append("</g>")
        // Direction arrows at leg midpoints, only where the leg is long enough to show one.
        lines.append("<g fill=\"\(routeColor)\" stroke=\"#ffffff\" stroke-width=\"1\">")
        for (a, b, _) in pairs {
            let length = a.distance(to: b)
            guard length > 3.2 * markerRadius + 16 else { continue }
            let ux = (b.x - a.x) / length
            let uy = (b.y - a.y) / length
            let mid = Point(x: (a.x + b.x) / 2, y: (a.y + b.y) / 2)
            let tip = Point(x: mid.x + ux * 7, y: mid.y + uy * 7)
            let left = Point(x: mid.x - ux * 6 - uy * 6, y: mid.y - uy * 6 + ux * 6)
            let right = Point(x: mid.x - ux * 6 + uy * 6, y: mid.y - uy * 6 - ux * 6)
            lines.append(
                "<polygon points=\"\(f(tip.x)),\(f(tip.y)) \(f(left.x)),\(f(left.y)) \(f(right.x)),\(f(right.y))\"/>")
        }
        lines.append("</g>")
        return lines
    }

    /// Markers for places at (nearly) the same spot are moved onto a small circle around it.
    private func fanOut(_ positions: [Point]) -> [Point] {
        var placed: [Point] = []
        let minimum = 2 * markerRadius + 2
        for position in positions {
            var candidate = position
            var attempt = 0
            while placed.contains(where: { $0.distance(to: candidate) < minimum }) && attempt < 48 {
                attempt += 1
                let ring = Double(1 + (attempt - 1) / 8)
                let angle = Double((attempt - 1) % 8) * .pi / 4 - .pi / 2 + ring * 0.39
                candidate = Point(
                    x: position.x + cos(angle) * minimum * ring, y: position.y + sin(angle) * minimum * ring)
            }
            placed.append(candidate)
        }
        return placed
    }

    private func leaderLines(from positions: [Point], to markers: [Point]) -> [String] {
        zip(positions, markers).compactMap { original, marker in
            guard original.distance(to: marker) > 0.5 else { return nil }
            return "<line x1=\"\(f(original.x))\" y1=\"\(f(original.y))\" x2=\"\(f(marker.x))\" y2=\"\(f(marker.y))\""
                + " stroke=\"#64748b\" stroke-width=\"1\"/>"
        }
    }

    private func markerElements(_ markers: [Point]) -> [String] {
        var elements: [String] = []
        let lastIndex = markers.count - 1
        // Draw in reverse so stop 1 ends up on top where markers touch.
        for (index, point) in markers.enumerated().reversed() {
            let order = index + 1
            let color: String
            if index == 0 {
                color = startColor
            } else if index == lastIndex && !plan.roundTrip {
                color = endColor
            } else {
                color = routeColor
            }
            let fontSize = order >= 100 ? 9 : (order >= 10 ? 10.5 : 12)
            elements.append(
                "<g class=\"stop\" data-order=\"\(order)\">"
                    + "<circle cx=\"\(f(point.x))\" cy=\"\(f(point.y))\" r=\"\(f(markerRadius))\" fill=\"\(color)\""
                    + " stroke=\"#ffffff\" stroke-width=\"2.5\"/>"
                    + "<text x=\"\(f(point.x))\" y=\"\(f(point.y + fontSize * 0.36))\" font-size=\"\(f(fontSize))\""
                    + " font-weight=\"bold\" fill=\"#ffffff\" text-anchor=\"middle\">\(order)</text></g>")
        }
        return elements
    }

    private func routeSegments(_ positions: [Point]) -> [(Point, Point)] {
        var segments = zip(positions, positions.dropFirst()).map { ($0, $1) }
        if plan.roundTrip, positions.count > 1, let first = positions.first, let last = positions.last {
            segments.append((last, first))
        }
        return segments
    }

    /// How many sample points of the route fall inside `box`, a cheap measure of how much
    /// a label would sit on the line.
    private func lineCoverage(_ box: Box, _ segments: [(Point, Point)]) -> Int {
        var hits = 0
        for (a, b) in segments {
            let steps = max(2, Int(a.distance(to: b) / 4))
            for step in 0...steps {
                let t = Double(step) / Double(steps)
                let x = a.x + (b.x - a.x) * t
                let y = a.y + (b.y - a.y) * t
                if x > box.minX && x < box.maxX && y > box.minY && y < box.maxY { hits += 1 }
            }
        }
        return hits
    }

    /// Names beside their markers: of right, left, below and above, the position inside
    /// the map that overlaps no other label or marker and covers the least route line.
    private func labels(_ markers: [Point], avoiding segments: [(Point, Point)]) -> [String] {
        var occupied = markers.map {
            Box(
                minX: $0.x - markerRadius, minY: $0.y - markerRadius, maxX: $0.x + markerRadius,
                maxY: $0.y + markerRadius)
        }
        let mapBox = Box(minX: 4, minY: headerHeight + 4, maxX: width - 4, maxY: height - 40)
        var elements: [String] = [
            "<g font-size=\"13\" fill=\"\(textColor)\" stroke=\"#ffffff\" stroke-width=\"4\""
                + " stroke-linejoin=\"round\" paint-order=\"stroke\">"
        ]
        for (index, point) in markers.enumerated() {
            let name = truncated(plan.stops[index].place.name, 28)
            if name.isEmpty { continue }
            let textWidth = Double(name.count) * 7.0
            let gap = markerRadius + 5
            let candidates: [(x: Double, y: Double, anchor: String)] = [
                (point.x + gap, point.y + 4.5, "start"),
                (point.x - gap, point.y + 4.5, "end"),
                (point.x, point.y + gap + 12, "middle"),
                (point.x, point.y - gap - 3, "middle"),
            ]
            func box(_ c: (x: Double, y: Double, anchor: String)) -> Box {
                let left =
                    switch c.anchor {
                    case "start": c.x
                    case "end": c.x - textWidth
                    default: c.x - textWidth / 2
                    }
                return Box(minX: left, minY: c.y - 12, maxX: left + textWidth, maxY: c.y + 3)
            }
            func fits(_ b: Box) -> Bool {
                b.minX >= mapBox.minX && b.maxX <= mapBox.maxX && b.minY >= mapBox.minY && b.maxY <= mapBox.maxY
            }
            var choice = candidates[0]
            var bestScore = Int.max
            for (rank, candidate) in candidates.enumerated() {
                let candidateBox = box(candidate)
                var score = rank
                if !fits(candidateBox) { score += 100_000 }
                score += occupied.filter(candidateBox.intersects).count * 1_000
                score += lineCoverage(candidateBox, segments) * 10
                if score < bestScore {
                    bestScore = score
                    choice = candidate
                }
            }
            occupied.append(box(choice))
            elements.append(
                "<text x=\"\(f(choice.x))\" y=\"\(f(choice.y))\" text-anchor=\"\(choice.anchor)\">"
                    + Formatting.xmlEscaped(name) + "</text>")
        }
        elements.append("</g>")
        return elements
    }

    /// A bar of a round length (1, 2 or 5 × 10ⁿ metres) no longer than 140 px.
    private func scaleBar(pixelsPerMeter: Double) -> String {
        let target = 140 / pixelsPerMeter
        var meters = 1.0
        for exponent in 0...7 {
            for step in [1.0, 2.0, 5.0] {
                let candidate = step * pow(10, Double(exponent))
                if candidate <= target { meters = candidate }
            }
        }
        let length = meters * pixelsPerMeter
        let x = 20.0
        let y = height - 22
        let label = meters >= 1000 ? "\(Formatting.decimal(meters / 1000)) km" : "\(Int(meters)) m"
        return [
            "<g>",
            "<rect x=\"\(f(x - 6))\" y=\"\(f(y - 20))\" width=\"\(f(length + 12))\" height=\"30\" rx=\"4\""
                + " fill=\"#ffffff\" fill-opacity=\"0.85\"/>",
            "<path d=\"M\(f(x)),\(f(y - 5)) V\(f(y)) H\(f(x + length)) V\(f(y - 5))\" fill=\"none\""
                + " stroke=\"\(textColor)\" stroke-width=\"2\"/>",
            "<text x=\"\(f(x + length / 2))\" y=\"\(f(y - 8))\" font-size=\"12\" fill=\"\(textColor)\""
                + " text-anchor=\"middle\">\(label)</text>",
            "</g>",
        ].joined(separator: "\n")
    }

    private func legend() -> String {
        let y = height - 24
        var items: [(String, String)] = [(startColor, "start"), (routeColor, "stop")]
        if !plan.roundTrip { items.append((endColor, "end")) }
        var x = width - 20
        var parts: [String] = []
        for (color, label) in items.reversed() {
            let textWidth = Double(label.count) * 7
            x -= textWidth
            parts.append("<text x=\"\(f(x))\" y=\"\(f(y + 4))\" font-size=\"12\" fill=\"#475569\">\(label)</text>")
            x -= 12
            parts.append("<circle cx=\"\(f(x))\" cy=\"\(f(y))\" r=\"6\" fill=\"\(color)\"/>")
            x -= 18
        }
        return "<g>" + parts.joined() + "</g>"
    }

    private func truncated(_ text: String, _ limit: Int) -> String {
        text.count <= limit ? text : String(text.prefix(limit - 1)) + "…"
    }

    private func f(_ value: Double) -> String { Formatting.decimal(value) }
}
