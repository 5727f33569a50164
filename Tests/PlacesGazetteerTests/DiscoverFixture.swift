import PlacesGazetteer

/// A small hand-made gazetteer for the search's own tests (the real one is tested in
/// DiscoverTableTests): a few of each kind, with the names that make ranking interesting.
typealias DiscoverFixture = ListedGazetteer

extension ListedGazetteer {
    /// The fixture's entries (see above).
    init() { self.init(Self.standard) }

    static let standard: [Entry] = [
        // Bigger than any real region, so that only the containment rule puts the city first.
        .init(
            kind: .region, id: "region:AR.05", name: "Córdoba", latitude: -31.4, longitude: -64.2,
            population: 900_000_000),
        .init(
            kind: .city, id: "city:3860259", name: "Córdoba", latitude: -31.41, longitude: -64.18,
            population: 1_428_214, region: "region:AR.05"),
        .init(
            kind: .continent, id: "continent:EU", name: "Europe", latitude: 48.7, longitude: 9.1,
            population: 741_000_000),
        .init(
            kind: .continent, id: "continent:AF", name: "Africa", latitude: 7.2, longitude: 21.1,
            population: 1_300_000_000),
        .init(kind: .country, id: "country:FR", name: "France", latitude: 46, longitude: 2, population: 67_000_000),
        .init(kind: .country, id: "country:PY", name: "Paraguay", latitude: -23, longitude: -58, population: 6_900_000),
        .init(
            kind: .country, id: "country:PT", name: "Portugal", latitude: 39.5, longitude: -8, population: 10_300_000),
        .init(
            kind: .region, id: "region:FR.11", name: "Île-de-France", latitude: 48.8, longitude: 2.5,
            population: 12_000_000),
        .init(
            kind: .region, id: "region:BR.18", name: "Paraná", latitude: -24.5, longitude: -51.5, population: 11_000_000
        ),
        .init(
            kind: .region, id: "region:BR.27", name: "São Paulo", latitude: -22.5, longitude: -48.5,
            population: 46_000_000),
        .init(
            kind: .region, id: "region:US.NY", name: "New York", latitude: 42.9, longitude: -75.5,
            population: 19_500_000),
        .init(
            kind: .region, id: "region:US.IL", name: "Illinois", latitude: 40, longitude: -89, population: 12_600_000),
        .init(
            kind: .region, id: "region:US.MO", name: "Missouri", latitude: 38.4, longitude: -92.4, population: 6_100_000
        ),
        .init(
            kind: .region, id: "region:US.MA", name: "Massachusetts", latitude: 42.3, longitude: -71.8,
            population: 6_900_000),
        .init(
            kind: .city, id: "city:2988507", name: "Paris", latitude: 48.85, longitude: 2.35, population: 2_138_551,
            region: "region:FR.11"),
        .init(
            kind: .city, id: "city:3448439", name: "São Paulo", latitude: -23.55, longitude: -46.63,
            population: 12_400_000, region: "region:BR.27"),
        .init(
            kind: .city, id: "city:5128581", name: "New York City", alternates: ["New York", "NYC"], latitude: 40.71,
            longitude: -74.0, population: 8_175_133, region: "region:US.NY"),
        .init(kind: .city, id: "city:2633352", name: "York", latitude: 53.96, longitude: -1.08, population: 153_717),
        .init(
            kind: .city, id: "city:4250542", name: "Springfield", latitude: 39.80, longitude: -89.64,
            population: 116_250, region: "region:US.IL"),
        .init(
            kind: .city, id: "city:4409896", name: "Springfield", latitude: 37.22, longitude: -93.30,
            population: 169_176, region: "region:US.MO"),
        .init(
            kind: .city, id: "city:4951788", name: "Springfield", latitude: 42.10, longitude: -72.59,
            population: 153_606, region: "region:US.MA"),
        .init(
            kind: .city, id: "city:2267057", name: "Lisbon", alternates: ["Lisboa", "Lissabon", "Lisbonne"],
            latitude: 38.72, longitude: -9.13, population: 517_802),
        .init(
            kind: .city, id: "city:2759794", name: "Amsterdam", latitude: 52.37, longitude: 4.89, population: 741_636),
        .init(
            kind: .city, id: "city:3383330", name: "Paramaribo", latitude: 5.87, longitude: -55.17, population: 223_757),
        .init(
            kind: .city, id: "city:2867714", name: "Munich", alternates: ["München", "Muenchen"], latitude: 48.14,
            longitude: 11.58, population: 1_260_391),
    ]
}
