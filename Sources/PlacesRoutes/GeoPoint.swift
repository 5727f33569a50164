import Foundation

/// A position in decimal degrees (WGS 84).
public struct GeoPoint: Sendable, Codable, Hashable {
    /// Latitude in decimal degrees, -90…90.
    public var latitude: Double
    /// Longitude in decimal degrees, -180…180.
    public var longitude: Double

    /// Creates a point; call ``validate()`` (or use an API that does) before trusting it.
    public init(latitude: Double, longitude: Double) {
        self.latitude = latitude
        self.longitude = longitude
    }

    /// Mean Earth radius (IUGG R1) used for great-circle distances, in metres.
    public static let earthRadiusMeters = 6_371_008.8

    /// Throws ``RouteError/Code/invalidCoordinate`` unless both coordinates are finite and in range.
    public func validate(label: String = "point") throws(RouteError) {
        guard latitude.isFinite, longitude.isFinite else {
            throw RouteError(.invalidCoordinate, "\(label) has a non-finite coordinate; send decimal degrees")
        }
        guard (-90.0...90.0).contains(latitude) else {
            throw RouteError(.invalidCoordinate, "\(label) latitude \(latitude) is outside -90…90")
        }
        guard (-180.0...180.0).contains(longitude) else {
            throw RouteError(.invalidCoordinate, "\(label) longitude \(longitude) is outside -180…180")
        }
    }

    /// Great-circle (haversine) distance to `other` in metres on a sphere of ``earthRadiusMeters``.
    public func greatCircleDistanceMeters(to other: GeoPoint) -> Double {
        let radiansPerDegree = Double.pi / 180
        let phi1 = latitude * radiansPerDegree
        let phi2 = other.latitude * radiansPerDegree
        let dPhi = phi2 - phi1
        let dLambda = (other.longitude - longitude) * radiansPerDegree
        let sinPhi = sin(dPhi / 2)
        let sinLambda = sin(dLambda / 2)
        let h = sinPhi * sinPhi + cos(phi1) * cos(phi2) * sinLambda * sinLambda
        // Clamp: rounding can push h a hair above 1 for antipodal points.
        return 2 * GeoPoint.earthRadiusMeters * asin(min(1, h.squareRoot()))
    }
}
