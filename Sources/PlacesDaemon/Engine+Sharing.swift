import Foundation
import PlacesControl
import PlacesCrypto
import PlacesModel
import PlacesStore
import PlacesSync

extension Engine {
    /// `POST /v1/itineraries/{id}/share`: the owner adds a member by public id. The role is
    /// an op in the itinerary (it syncs and shows in activity); the document key of every
    /// epoch is sealed to the member in a signed key grant, handed over at the next meeting.
    func share(_ reference: String, _ request: ShareRequest) async throws -> MemberList {
        let doc = try itineraryDoc(reference)
        guard let identity else { throw ServiceError.notOwner("shares it") }
        let (member, edit) = try sharingService().share(doc, request, displayName: { displayName(of: $0) })
        if let edit { try commit(edit) }
        do {
            for (epoch, key) in keyringCopy().all(doc.id) {
                try store.saveGrant(try KeyGrant.issue(key: key, doc: doc.id, epoch: epoch, to: member, by: identity))
            }
        } catch {
            throw ServiceError.crypto("Could not seal the key", "\(error)", cause: error)
        }
        // Offer the itinerary to the new member now if it is connected, and hand the new
        // grant to the other participants so that any of them can pass it on. Through the
        // outbox, after the share op: a participant learns of the member before its grant.
        offerToConnected(doc, newcomers: participants(of: doc).subtracting([identity.publicKey]))
        return try members(doc.id.hex)
    }

    /// `GET /v1/itineraries/{id}/members`.
    func members(_ reference: String) throws -> MemberList {
        let doc = try itineraryDoc(reference)
        return try sharingService().members(doc, displayName: { displayName(of: $0) })
    }
}
