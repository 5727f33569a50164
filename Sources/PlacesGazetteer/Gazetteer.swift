import PlacesModel

/// Placeholder: the data helper replaces this file (see /work/design-15.md §1).
public enum GazetteerKind: String, Sendable, CaseIterable { case city, region, country, continent }
