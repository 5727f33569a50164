import PlacesModel
import PlacesStore

/// A trip's conversation (`docs/messages.md`, "A trip's conversation"): the `message`
/// entities of an itinerary document, written by its members (viewers too) and read by
/// them. Its id is `trip:` and the itinerary's id. The members already know each other, and
/// a member removed from the trip reads nothing written after: the removal starts a new
/// epoch of the document's key that they never get (`Protocol/sync.md` §8.4).
struct TripConversation: Sendable {
    /// The itinerary document.
    var doc: Store.DocumentRecord

    /// The id the control API shows and takes.
    var id: String { Conversation.tripPrefix + doc.id.hex }

    /// The setting that holds this person's read position in the conversation: the time (ms)
    /// of the newest message they have seen. A setting, so it follows them to their devices.
    var readKey: String { "message.read.\(doc.id.hex)" }

    /// The settings that hide a message here (deleted for me, dropped by a bound).
    var hiddenPrefixes: [String] { ["message.hidden.\(doc.id.hex).", "local.message.dropped.\(doc.id.hex)."] }
}
