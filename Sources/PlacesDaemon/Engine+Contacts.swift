import PlacesAPI
import PlacesCrypto
import PlacesModel
import PlacesStore

/// What this daemon knows of the people it deals with: contacts (consent, `Engine+Consent`)
/// and co-members, with what their contact cards show (`GET /v1/contacts[/{id}]`).
extension Engine {
    /// `GET /v1/contacts`: the contacts, each with what their card shows.
    func contactList() throws -> ContactList {
        var list = try consentService().contacts(displayName: { displayName(of: $0) })
        let cards = heldCards()
        for index in list.contacts.indices {
            guard let key = try? HumanID.decode(list.contacts[index].id), let card = cards[key] else { continue }
            let view = cardView(card)
            list.contacts[index].username = view.username
            list.contacts[index].bio = view.bio
            list.contacts[index].sharedFavorites = view.favorites.count
        }
        return list
    }

    /// `GET /v1/contacts/{personId}`: a contact's or co-member's profile and shared favorites.
    func contactProfile(_ reference: String) throws -> ContactProfile {
        try requireLogin()
        guard let key = try? HumanID.decode(reference) else {
            throw ServiceError.invalid("personId", "'\(reference.prefix(80))' is not a public id")
        }
        let isContact = (try? store.isContact(key.bytes)) == true
        let coMember = coMembers().contains(key)
        guard isContact || coMember else {
            throw ServiceError.notFound("\(key.humanID.prefix(7)) is neither a contact nor a co-member")
        }
        let shown = displayName(of: key)
        var profile = ContactProfile(
            id: key.humanID, name: shown == String(key.humanID.prefix(7)) ? nil : shown, username: nil, bio: nil,
            contact: isContact, coMember: coMember, favorites: [])
        if let card = heldCards()[key] {
            let view = cardView(card)
            if let name = view.name, !name.isEmpty { profile.name = name }
            profile.username = view.username
            profile.bio = view.bio
            profile.favorites = view.favorites
        }
        return profile
    }

    /// What a held card shows: its owner's profile and shared favorites, in their order
    /// (at most `CardService.maxSharedPlaces`).
    func cardView(_ card: Store.DocumentRecord) -> (
        name: String?, username: String?, bio: String?, favorites: [SharedFavorite]
    ) {
        let root = (try? store.entity(in: card.id, id: card.id.hex)).flatMap { $0?.deleted == false ? $0 : nil }
        let fields = root.map(Views.fields) ?? [:]
        let owner = HexCoding.encode(card.owner)
        let favorites = ((try? store.entities(in: card.id, kind: .sharedPlace)) ?? [])
            .prefix(CardService.maxSharedPlaces)
            .map { record in
                let f = Views.fields(record)
                typealias S = SharedPlaceFields
                return SharedFavorite(
                    id: "place:\(owner).\(record.id)", name: f[S.name] ?? "", latitude: f[S.latitude] ?? 0,
                    longitude: f[S.longitude] ?? 0, address: f[S.address], categories: f[S.categories] ?? [],
                    gazetteerId: f[S.gazetteerID], notes: f[S.notes],
                    photos: f[S.photos.name].map { Engine.photos(from: $0) }.flatMap { $0.isEmpty ? nil : $0 })
            }
        return (fields["name"]?.stringValue, fields["username"]?.stringValue, fields["bio"]?.stringValue, favorites)
    }
}
