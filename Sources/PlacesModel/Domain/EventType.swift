/// The type of an event on the control API's event stream (`Event.type`).
public enum EventType: String, Sendable, Hashable, Codable, CaseIterable {
    /// The first event of a subscription.
    case hello
    /// A document changed (a local write or ops from a peer).
    case changed
    case login, logout
    /// A peer connected.
    case peer
    /// An itinerary was shared with this account.
    case shared
    /// A member viewed a shared itinerary.
    case viewed
    /// An invitation arrived and waits for consent.
    case invited
}
