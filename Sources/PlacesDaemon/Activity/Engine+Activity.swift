import PlacesAPI

/// The engine's side of activity (`ActivityComponent`): the component's context and its route.
extension Engine {
    /// What the activity text reads of the rest of the daemon.
    var activityContext: ActivityComponent.Context {
        ActivityComponent.Context(
            store: store, me: me, myName: { (try? self.profile())?.name }, displayName: { self.displayName(of: $0) })
    }

    /// `GET /v1/itineraries/{id}/activity`.
    func activity(_ reference: String) throws -> ActivityList {
        let doc = try itineraryDoc(reference)
        return try activityComponent.activity(of: doc.id, activityContext)
    }
}
