import Foundation
import PlacesAPI
import PlacesCrypto
import PlacesModel
import PlacesStore

/// Consent (`Protocol/sync.md` §7.1), the API half: invitations from people who are not
/// contacts yet, and the contacts whose shares arrive directly. Reads and writes the
/// store's consent tables (not documents); accepting, which adds a document and its key,
/// is the engine's (`Engine+Consent.swift`).
struct ConsentService {
    let store: Store
    /// The logged-in identity.
    let me: PublicKey?

    func invitations(displayName: (PublicKey) -> String) throws -> InvitationList {
        let records = try ServiceError.storing { () throws(StoreError) in try store.invitations() }
        return InvitationList(
            invitations: records.map { invitationView($0, status: "pending", displayName: displayName) })
    }

    /// Declines an invitation: the share is not added and not asked again.
    func decline(_ reference: String, displayName: (PublicKey) -> String) throws -> Invitation {
        let invitation = try findInvitation(reference)
        try ServiceError.storing { () throws(StoreError) in try store.declineInvitation(invitation.doc) }
        return invitationView(invitation, status: "declined", displayName: displayName)
    }

    func contacts(displayName: (PublicKey) -> String) throws -> ContactList {
        let records = try ServiceError.storing { () throws(StoreError) in try store.contacts() }
        return ContactList(
            contacts: records.compactMap { record in
                guard let key = try? PublicKey(bytes: record.key) else { return nil }
                let shown = record.name.isEmpty ? displayName(key) : record.name
                return Contact(
                    id: key.humanID, name: shown == String(key.humanID.prefix(7)) ? nil : shown,
                    addedAt: RFC3339.string(ms: record.addedMs))
            })
    }

    /// Adds a contact; returns its pending invitations (to accept).
    func addContact(_ request: AddContactRequest) throws -> [Store.InvitationRecord] {
        let key: PublicKey
        do { key = try HumanID.decode(request.id) } catch {
            throw ServiceError.invalid("id", "'\(request.id)' is not a valid id: \(error.message)")
        }
        guard key != me else { throw ServiceError.invalid("id", "that is your own id") }
        let name = request.name?.trimmingCharacters(in: .whitespacesAndNewlines) ?? ""
        guard name.count <= 100 else { throw ServiceError.invalid("name", "name must be at most 100 characters") }
        try ServiceError.storing { () throws(StoreError) in
            try store.addContact(key.bytes, name: name, timeMs: RFC3339.nowMs())
        }
        return (try? store.invitations())?.filter { $0.owner == key.bytes } ?? []
    }

    /// Removes a contact: later shares from them arrive as invitations again.
    func removeContact(_ reference: String) throws {
        let key: PublicKey
        do { key = try HumanID.decode(reference) } catch {
            throw ServiceError.invalid("id", "'\(reference)' is not a valid id: \(error.message)")
        }
        let removed = try ServiceError.storing { () throws(StoreError) in try store.removeContact(key.bytes) }
        guard removed else { throw ServiceError.notFound("\(key.humanID.prefix(7)) is not a contact") }
    }

    /// The invitation named by a document id or a unique prefix of it (at least 4 characters).
    func findInvitation(_ reference: String) throws -> Store.InvitationRecord {
        let all = try ServiceError.storing { () throws(StoreError) in try store.invitations() }
        let wanted = reference.lowercased()
        let matches = all.filter { $0.doc.hex.hasPrefix(wanted) }
        guard wanted.count >= 4, let first = matches.first else {
            throw ServiceError.notFound("no invitation '\(reference)': `places invitations` lists them")
        }
        guard matches.count == 1 else {
            throw ServiceError.invalid("id", "'\(reference)' names \(matches.count) invitations: give more characters")
        }
        return first
    }

    /// An invitation as the API shows it.
    func invitationView(
        _ record: Store.InvitationRecord, status: String, displayName: (PublicKey) -> String
    ) -> Invitation {
        let owner = try? PublicKey(bytes: record.owner)
        let via = try? PublicKey(bytes: record.via)
        let ownerName = record.ownerName ?? owner.map(displayName)
        return Invitation(
            id: record.doc.hex, kind: record.kind, from: owner?.humanID ?? HexCoding.encode(record.owner),
            fromName: ownerName == owner.map { String($0.humanID.prefix(7)) } ? nil : ownerName,
            via: via?.humanID ?? HexCoding.encode(record.via), name: record.name, role: record.role,
            receivedAt: RFC3339.string(ms: record.receivedMs), status: status)
    }
}
