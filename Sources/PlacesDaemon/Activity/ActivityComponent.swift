import PlacesAPI
import PlacesCrypto
import PlacesModel
import PlacesStore

/// Activity's state: the views of itineraries this daemon recorded.
///
/// A component of the engine (docs/devices-design.md §1): it owns the last view recorded of
/// each itinerary (`ActivityService`, which also words the activity); the activity text is
/// computed from the store, with the names its `Context` gives.
struct ActivityComponent: EngineComponent {
    /// What the activity text reads of the rest of the daemon.
    struct Context {
        let store: Store
        /// The logged-in identity; nil while logged out.
        let me: PublicKey?
        /// This identity's profile name (the account's query).
        let myName: () -> String?
        /// Anyone else's name (the people features' query).
        let displayName: (PublicKey) -> String
    }

    /// When this daemon last recorded a view of each itinerary.
    private var views = ActivityService()

    /// `GET /v1/itineraries/{id}/activity`: each activity row of `doc` in words.
    func activity(of doc: DocumentID, _ context: Context) throws -> ActivityList {
        try ActivityService.activity(
            of: doc, store: context.store, myHex: context.me?.hex, myName: context.myName(),
            displayName: context.displayName)
    }

    /// The signed view of `doc` by `me` at `nowMs` when one is to be recorded (at most one per
    /// `ActivityService.viewCoalescingMs`), counted as recorded; nil otherwise.
    mutating func view(of doc: DocumentID, by me: PublicKey, nowMs: Int64) -> Edit? {
        guard views.noteView(of: doc, nowMs: nowMs) else { return nil }
        return ActivityService.view(of: doc, by: me, nowMs: nowMs)
    }
}
