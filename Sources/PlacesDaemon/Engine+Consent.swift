import Foundation
import PlacesControl
import PlacesCrypto
import PlacesModel
import PlacesStore

/// Consent (`Protocol/sync.md` §7.1): invitations from people who are not contacts yet,
/// and the contacts whose shares arrive directly.
extension Engine {
    /// `GET /v1/invitations`.
    func invitations() throws(Problem) -> InvitationList {
        let records = try storeCall { () throws(StoreError) in try store.invitations() }
        return InvitationList(invitations: records.map { invitationView($0, status: "pending") })
    }

    /// `POST /v1/invitations/{id}/accept`: adds the itinerary, makes its owner a contact, and
    /// offers it to the connected participants so that its ops arrive.
    func acceptInvitation(_ reference: String) throws(Problem) -> Invitation {
        guard let identity else { throw Problem.loggedOut }
        let invitation = try findInvitation(reference)
        guard let owner = try? PublicKey(bytes: invitation.owner) else {
            throw Problem(status: 500, code: "internal", title: "Invitation unreadable", detail: "bad owner key")
        }
        var grant = invitation.grant
        grant.member = identity.publicKey.bytes
        guard grant.isValid, let key = try? SealedBox.open(grant.sealedKey, with: identity) else {
            try? store.deleteInvitation(invitation.doc)
            throw Problem(
                status: 410, code: "invitation-invalid", title: "Invitation no longer valid",
                detail: "the invitation's key does not open with this identity; ask the owner to share again")
        }
        try storeCall { () throws(StoreError) in
            try store.addContact(invitation.owner, name: invitation.ownerName ?? "", timeMs: RFC3339.nowMs())
        }
        let via = try? PublicKey(bytes: invitation.via)
        guard let record = addSharedDocument(grant, key: key, owner: owner, from: via) else {
            throw Problem(status: 500, code: "internal", title: "Could not add the itinerary", detail: "see the log")
        }
        try? store.deleteInvitation(invitation.doc)
        responseCache.removeAll()
        var people = participants(of: record)
        if let via { people.insert(via) }
        offerToConnected(record, newcomers: people)
        return invitationView(invitation, status: "accepted")
    }

    /// `POST /v1/invitations/{id}/decline`: the share is not added and not asked again.
    func declineInvitation(_ reference: String) throws(Problem) -> Invitation {
        let invitation = try findInvitation(reference)
        try storeCall { () throws(StoreError) in try store.declineInvitation(invitation.doc) }
        return invitationView(invitation, status: "declined")
    }

    /// `GET /v1/contacts`.
    func contactList() throws(Problem) -> ContactList {
        let records = try storeCall { () throws(StoreError) in try store.contacts() }
        return ContactList(
            contacts: records.compactMap { record in
                guard let key = try? PublicKey(bytes: record.key) else { return nil }
                let shown = record.name.isEmpty ? displayName(of: key) : record.name
                return Contact(
                    id: key.humanID, name: shown == String(key.humanID.prefix(7)) ? nil : shown,
                    addedAt: RFC3339.string(ms: record.addedMs))
            })
    }

    /// `POST /v1/contacts`: shares from this person arrive directly from now on; a pending
    /// invitation of theirs is accepted.
    func addContact(_ request: AddContactRequest) throws(Problem) -> ContactList {
        let key: PublicKey
        do { key = try HumanID.decode(request.id) } catch {
            throw Problem.invalid("id", "'\(request.id)' is not a valid id: \(error.message)")
        }
        guard key != me else { throw Problem.invalid("id", "that is your own id") }
        let name = request.name?.trimmingCharacters(in: .whitespacesAndNewlines) ?? ""
        guard name.count <= 100 else { throw Problem.invalid("name", "name must be at most 100 characters") }
        try storeCall { () throws(StoreError) in try store.addContact(key.bytes, name: name, timeMs: RFC3339.nowMs()) }
        let pending = (try? store.invitations())?.filter { $0.owner == key.bytes } ?? []
        for invitation in pending { _ = try? acceptInvitation(invitation.doc.hex) }
        return try contactList()
    }

    /// `DELETE /v1/contacts/{id}`: later shares from them arrive as invitations again.
    func removeContact(_ reference: String) throws(Problem) -> ContactList {
        let key: PublicKey
        do { key = try HumanID.decode(reference) } catch {
            throw Problem.invalid("id", "'\(reference)' is not a valid id: \(error.message)")
        }
        let removed = try storeCall { () throws(StoreError) in try store.removeContact(key.bytes) }
        guard removed else { throw Problem.notFound("\(key.humanID.prefix(7)) is not a contact") }
        return try contactList()
    }

    /// The invitation named by a document id or a unique prefix of it (at least 4 characters).
    private func findInvitation(_ reference: String) throws(Problem) -> Store.InvitationRecord {
        let all = try storeCall { () throws(StoreError) in try store.invitations() }
        let wanted = reference.lowercased()
        let matches = all.filter { $0.doc.hex.hasPrefix(wanted) }
        guard wanted.count >= 4, let first = matches.first else {
            throw Problem.notFound("no invitation '\(reference)': `places invitations` lists them")
        }
        guard matches.count == 1 else {
            throw Problem.invalid("id", "'\(reference)' names \(matches.count) invitations: give more characters")
        }
        return first
    }

    private func invitationView(_ record: Store.InvitationRecord, status: String) -> Invitation {
        let owner = try? PublicKey(bytes: record.owner)
        let via = try? PublicKey(bytes: record.via)
        let ownerName = record.ownerName ?? owner.map(displayName(of:))
        return Invitation(
            id: record.doc.hex, kind: "itinerary", from: owner?.humanID ?? HexCoding.encode(record.owner),
            fromName: ownerName == owner.map { String($0.humanID.prefix(7)) } ? nil : ownerName,
            via: via?.humanID ?? HexCoding.encode(record.via), name: record.name, role: record.role,
            receivedAt: RFC3339.string(ms: record.receivedMs), status: status)
    }
}
