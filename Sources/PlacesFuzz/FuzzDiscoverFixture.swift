import PlacesGazetteer

/// The small gazetteer the `discover` fuzz target searches (the committed one is loaded by
/// the daemon and measured by the bench; a fixture keeps each input fast and the target
/// independent of the resource): names that make ranking and folding interesting, shared
/// names, alternates in other scripts, punctuation, and a name of 200 characters.
enum FuzzDiscoverFixture {
    static let standard = ListedGazetteer([
        .init(
            kind: .continent, id: "continent:EU", name: "Europe", latitude: 48.7, longitude: 9.1,
            population: 741_000_000),
        .init(
            kind: .continent, id: "continent:SA", name: "South America", latitude: -14, longitude: -57,
            population: 430_000_000),
        .init(kind: .country, id: "country:FR", name: "France", latitude: 46, longitude: 2, population: 67_000_000),
        .init(kind: .country, id: "country:PY", name: "Paraguay", latitude: -23, longitude: -58, population: 6_900_000),
        .init(
            kind: .country, id: "country:CI", name: "Côte d'Ivoire", alternates: ["Ivory Coast"], latitude: 7.5,
            longitude: -5.5, population: 26_000_000),
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
            kind: .region, id: "region:US.IL", name: "Illinois", latitude: 40, longitude: -89, population: 12_600_000),
        .init(
            kind: .region, id: "region:DE.02", name: "Bavaria", alternates: ["Bayern", "Freistaat Bayern"],
            latitude: 48.9, longitude: 11.4, population: 13_000_000),
        .init(
            kind: .city, id: "city:2988507", name: "Paris", latitude: 48.85, longitude: 2.35, population: 2_138_551,
            region: "region:FR.11"),
        .init(
            kind: .city, id: "city:3448439", name: "São Paulo", latitude: -23.55, longitude: -46.63,
            population: 12_400_000, region: "region:BR.27"),
        .init(
            kind: .city, id: "city:4250542", name: "Springfield", latitude: 39.80, longitude: -89.64,
            population: 116_250, region: "region:US.IL"),
        .init(
            kind: .city, id: "city:4409896", name: "Springfield", latitude: 37.22, longitude: -93.30,
            population: 169_176),
        .init(
            kind: .city, id: "city:2267057", name: "Lisbon", alternates: ["Lisboa", "Lissabon", "Лиссабон", "里斯本"],
            latitude: 38.71667, longitude: -9.13333, population: 517_802),
        .init(
            kind: .city, id: "city:2867714", name: "Munich", alternates: ["München", "Muenchen", "Monaco di Baviera"],
            latitude: 48.137, longitude: 11.575, population: 1_260_391, region: "region:DE.02"),
        .init(
            kind: .city, id: "city:2759794", name: "Amsterdam", latitude: 52.374, longitude: 4.89, population: 741_636),
        .init(
            kind: .city, id: "city:2427123", name: "N'Djamena", alternates: ["Ndjamena", "N’Djaména"], latitude: 12.1,
            longitude: 15.04, population: 721_081),
        .init(
            kind: .city, id: "city:2980291", name: "Saint-Étienne", latitude: 45.43, longitude: 4.39,
            population: 176_280),
        .init(
            kind: .city, id: "city:3117735", name: "Madrid", alternates: ["Madrid"], latitude: 40.4165,
            longitude: -3.70256, population: 3_255_944),
        .init(
            kind: .city, id: "city:1", name: String(repeating: "Llanfair ", count: 22) + "ll", latitude: 53.2,
            longitude: -4.2, population: 3_000),
        .init(
            kind: .city, id: "city:2", name: "ǅemal Ǉubljana ßtraße Œuvre Þorp Łódź", latitude: 89.99,
            longitude: 179.99, population: 0),
        .init(
            kind: .city, id: "city:3", name: "東京", alternates: ["Tokyo", "Tōkyō"], latitude: 35.68, longitude: 139.69,
            population: 8_336_599),
    ])
}
