/// The gazetteer is what discover searches.
extension Gazetteer: DiscoverSource {}
