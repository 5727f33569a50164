import NIOCore
import PlacesAPI
import PlacesModel
import PlacesStore

/// The `places` array of the itineraries answered last (`GET`/`PATCH /v1/itineraries/{id}`),
/// encoded, kept while the ops stored since change no place to go: an edit of a trip's
/// name or notes, a view, an item or an expense then answers with the places written
/// before instead of reading and writing every stop again (a 100,000-stop trip: about
/// 200 ms of CPU per answer, which a friend's daemon on the same machine waited behind).
///
/// Kept current the way `TripSnapshots` is: the ops stored for a kept itinerary wait in its
/// entry (`OpsSinceRead`), and the next answer opens them. The places are written anew when that is not
/// known to be enough: an op that writes a `stop` (or a member, link or device, which can
/// exclude ops already materialized), one that does not extend its author's chain by one,
/// an itinerary where someone equivocated (the store re-materializes it), an op this
/// identity cannot open, documents changed outside ops, or too many ops waiting.
struct ItineraryPlaces {
    /// How many itineraries' places are kept (a 100,000-stop trip's are about 12 MB).
    static let capacity = 2

    private struct Entry {
        var doc: DocumentID
        /// In a buffer the control server writes as it is (`ControlResponse.jsonParts`).
        var json: ByteBuffer
        /// The ops stored since the places were read.
        var since: OpsSinceRead
    }

    private var entries: [Entry] = []
    /// How many answers reused their places, and how many wrote them anew (tests show both).
    private(set) var reused = 0
    private(set) var readAnew = 0

    /// The `places` array of `doc`'s answer.
    mutating func json(of doc: DocumentID, store: Store, keyring: Keyring) throws(ServiceError) -> ByteBuffer {
        if let index = entries.firstIndex(where: { $0.doc == doc }) {
            var entry = entries.remove(at: index)
            if let bodies = entry.since.take(keyring: keyring),
                !bodies.contains(where: { $0.changes.contains { $0.kind == .stop } })
            {
                reused += 1
                entries.append(entry)
                return entry.json
            }
        }
        // Read before the stops: an op stored in between would be looked at again, harmlessly.
        let (heads, equivocated) = try ServiceError.storing { () throws(StoreError) in try store.chainHeads(of: doc) }
        let stops = try ServiceError.storing { () throws(StoreError) in try store.entities(in: doc, kind: .stop) }
        let json = ByteBuffer(bytes: Itinerary.placesJSON(stops.enumerated().map { Views.stop($1, position: $0 + 1) }))
        readAnew += 1
        entries.removeAll { $0.doc == doc }
        entries.append(Entry(doc: doc, json: json, since: OpsSinceRead(heads: heads, equivocated: equivocated)))
        if entries.count > Self.capacity { entries.removeFirst() }
        return json
    }

    /// Ops were stored: those of kept itineraries wait for the next answer.
    mutating func didStore(_ change: StoreChange) {
        for i in entries.indices { entries[i].since.didStore(change, doc: entries[i].doc) }
    }

    mutating func forget() { entries = [] }
}
