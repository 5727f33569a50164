import Foundation
import NIOCore
import PlacesAPI
import PlacesCrypto
import PlacesModel
import PlacesStore
import PlacesTrips

/// Itinerary routes: `ItineraryService` finds, reads and decides; the engine creates the
/// document and its key, and commits.
extension Engine {
    /// The itineraries of the logged-in identity.
    func itineraryService() throws -> ItineraryService {
        try requireLogin()
        guard let me else { throw ServiceError.loggedOut }
        return ItineraryService(store: store, me: me, lookup: lookup)
    }

    func itineraries(scope: String?) throws -> ItineraryList { try itineraryService().list(scope: scope) }

    /// Resolves an itinerary id or unique prefix to its (live) document.
    func itineraryDoc(_ reference: String) throws -> Store.DocumentRecord {
        try itineraryService().document(reference)
    }

    func itinerary(_ reference: String) throws -> Itinerary { try itineraryService().itinerary(reference) }

    /// The caller's role in an itinerary.
    func role(in doc: Store.DocumentRecord) -> String {
        guard let me else { return "viewer" }
        return ItineraryService(store: store, me: me, lookup: lookup).role(in: doc)
    }

    /// Refuses edits by viewers (and by anyone not a member any more).
    func requireEditor(_ doc: Store.DocumentRecord) throws { try itineraryService().requireEditor(doc) }

    func createItinerary(_ body: [String: JSONValue]) throws -> Itinerary {
        // `{"from": ID, "startDate"}`: a copy of a published trip or an itinerary (`Engine+Templates`).
        if body["from"] != nil { return try createItinerary(fromTemplate: body) }
        let itineraries = try itineraryService()
        let (fields, places) = try itineraries.creation(body, library: try library())
        let id = try newItineraryDocument(owner: itineraries.me)
        try commit(itineraries.created(id, fields: fields, places: places))
        return try itinerary(id.hex)
    }

    /// A new, empty itinerary document of `owner` with a fresh key.
    func newItineraryDocument(owner: PublicKey) throws -> DocumentID {
        guard let id = DocumentID(bytes: SecureRandom.bytes(16)) else {
            throw ServiceError.store("Could not create the itinerary", "no document id")
        }
        guard let identity else { throw ServiceError.loggedOut }
        do {
            let key = try SecretBox.randomKey()
            // Kept sealed to this device's key (the owner's key on its first device).
            try store.createDocument(
                id, kind: .itinerary, owner: owner, sealedKey: try SealedBox.seal(key, to: identity.publicKey),
                timeMs: RFC3339.nowMs())
            account.keyring.insert(key, doc: id, epoch: 0)
        } catch {
            throw ServiceError.store("Could not create the itinerary", "\(error)", cause: error)
        }
        return id
    }

    /// `PATCH /v1/itineraries/{id}`: the answer's body.
    func updateItinerary(_ reference: String, _ body: [String: JSONValue]) throws -> [ByteBuffer] {
        let itineraries = try itineraryService()
        let doc = try itineraries.document(reference)
        if let edit = try itineraries.update(doc, reference: reference, body) { try commit(edit) }
        return try itineraryAnswer(doc)
    }

    /// The answer of the itinerary `doc` (resolved and checked by the caller), its places to
    /// go written from those kept since the last answer when no op since changed them
    /// (`ItineraryPlaces`): the same bytes as `itinerary`'s, in three parts. The kept places
    /// are the middle one, written to the socket as they are: a 100,000-stop trip's are
    /// about 10 MB, which joining into one body copied twice per answer.
    func itineraryAnswer(_ doc: Store.DocumentRecord) throws -> [ByteBuffer] {
        let places = try trips.placesJSON(doc.id, tripContext)
        let (head, tail) = try itineraryService().itinerary(doc, places: false).jsonAroundPlaces()
        return [ByteBuffer(bytes: head), places, ByteBuffer(bytes: tail)]
    }

    /// The owner's delete removes the itinerary for everyone; a member's only leaves it.
    func deleteItinerary(_ reference: String) throws {
        let itineraries = try itineraryService()
        let doc = try itineraries.document(reference)
        guard doc.owner == me?.bytes else { return try leave(doc) }
        try commit(itineraries.delete(doc))
    }

    func addStop(_ reference: String, _ request: AddStopRequest) throws -> Itinerary {
        let itineraries = try itineraryService()
        let doc = try itineraries.document(reference)
        try commit(try itineraries.addStop(doc, request, library: try library()))
        return try itinerary(doc.id.hex)
    }

    func removeStop(_ reference: String, stop: String) throws -> Itinerary {
        let itineraries = try itineraryService()
        let doc = try itineraries.document(reference)
        try commit(try itineraries.removeStop(doc, stop: stop))
        return try itinerary(doc.id.hex)
    }

    /// `POST …/places/{stop}/move`: `position` among the places to go and/or `date`, the
    /// day it is planned for (`null` takes it off its day); at least one of the two.
    func moveStop(_ reference: String, stop: String, _ body: [String: JSONValue]) throws -> Itinerary {
        for key in body.keys where key != "date" && key != "position" {
            throw ServiceError.invalid(key, "unknown field '\(key.prefix(64))'; the fields are: position, date")
        }
        var position: Int?
        if let value = body["position"], !value.isNull {
            // `intValue` is an Int64 (a JSON fraction is not an int at all) and
            // `Int(exactly:)` is the failable conversion: it answers nil, never traps, for a
            // value Int cannot hold. The range (1…count) is checked by `moveStop`'s
            // `EntityLookup.positionKey`, as for every other move.
            guard let number = value.intValue, let int = Int(exactly: number) else {
                throw ServiceError.invalid("position", "'position' must be a whole number from 1")
            }
            position = int
        }
        var date: LocalDate??
        if let value = body["date"] {
            if value.isNull {
                date = .some(nil)
            } else {
                guard let text = value.stringValue, let day = LocalDate(text) else {
                    throw ServiceError.invalid("date", "'date' must be a date written YYYY-MM-DD, or null")
                }
                date = .some(day)
            }
        }
        guard position != nil || date != nil else {
            throw ServiceError.invalid("position", "say where to move it: 'position' and/or 'date'")
        }
        let itineraries = try itineraryService()
        let doc = try itineraries.document(reference)
        if let date, let edit = try itineraries.scheduleStop(doc, stop: stop, date: date) { try commit(edit) }
        if let position { try commit(try itineraries.moveStop(doc, stop: stop, to: position)) }
        return try itinerary(doc.id.hex)
    }

    /// Reorders every place to go at once (used by route --apply).
    func reorderStops(_ doc: DocumentID, order stopIDs: [String]) throws {
        if let edit = try itineraryService().reorder(doc, order: stopIDs) { try commit(edit) }
    }

    /// `GET /v1/itineraries/{id}`: the answer's body, recording a signed view when a member
    /// other than the owner opens it (at most one per `ActivityService.viewCoalescingMs`).
    func viewItinerary(_ reference: String) throws -> [ByteBuffer] {
        let doc = try itineraryDoc(reference)
        if let me, doc.owner != me.bytes, Store.activeRoles.contains(role(in: doc)) {
            let now = RFC3339.nowMs()
            if let view = activityComponent.view(of: doc.id, by: me, nowMs: now) { try commit(view) }
        }
        return try itineraryAnswer(doc)
    }
}
