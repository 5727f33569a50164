import Foundation
import PlacesAPI
import PlacesAccess
import PlacesCrypto
import PlacesModel
import PlacesStore
import PlacesSync

/// Contact cards (`Protocol/sync.md` §7 "Document kinds"): this person's card, kept in step
/// with their profile, favorites and sharing setting and sent to their contacts and
/// co-members; and the cards of others, taken only from their owners.
extension Engine {
    static let sharingPreference = "favorites.sharing"

    // MARK: The sharing setting

    /// `GET /v1/favorites/sharing`.
    func favoriteSharingSetting() throws -> FavoriteSharingSetting {
        try requireLogin()
        let sharing = favoriteSharing()
        var shared = 0
        if let card = try myCard() {
            shared = try storeCall { () throws(StoreError) in try store.entities(in: card.id, kind: .sharedPlace).count
            }
        }
        return FavoriteSharingSetting(
            sharing: sharing.mode.rawValue, placeIds: sharing.placeIDs.sorted(), shared: shared)
    }

    /// `PUT /v1/favorites/sharing`: `all`, `selected` (with `placeIds`: library places) or
    /// `off`. Contacts receive the change as soon as they are connected.
    func setFavoriteSharing(_ body: [String: JSONValue]) throws -> FavoriteSharingSetting {
        try requireLogin()
        let allowed: Set<String> = ["sharing", "placeIds"]
        if let unknown = body.keys.sorted().first(where: { !allowed.contains($0) }) {
            throw ServiceError.invalid(unknown, "unknown field '\(unknown)': the fields are sharing and placeIds")
        }
        guard let text = body["sharing"]?.stringValue, let mode = FavoriteSharing.Mode(rawValue: text) else {
            throw ServiceError.invalid("sharing", "'sharing' must be \"all\", \"selected\" or \"off\"")
        }
        var ids = Set<String>()
        if let list = body["placeIds"], !list.isNull {
            guard case .array(let items) = list, items.count <= CardService.maxSharedPlaces else {
                throw ServiceError.invalid(
                    "placeIds", "'placeIds' must be a list of at most \(CardService.maxSharedPlaces) place ids")
            }
            let library = try libraryService()
            for item in items {
                guard let reference = item.stringValue else {
                    throw ServiceError.invalid("placeIds", "'placeIds' must hold place ids (strings)")
                }
                ids.insert(try library.placeRecord(reference).id)
            }
        }
        guard mode == .selected || ids.isEmpty else {
            throw ServiceError.invalid("placeIds", "'placeIds' is for \"sharing\": \"selected\" only")
        }
        guard mode != .selected || !ids.isEmpty else {
            throw ServiceError.invalid("placeIds", "\"sharing\": \"selected\" needs 'placeIds' (at least one place)")
        }
        let setting = FavoriteSharing(mode: mode, placeIDs: ids)
        let stored = JSONValue.object([
            "mode": .string(mode.rawValue), "placeIds": .array(ids.sorted().map(JSONValue.string)),
        ])
        let storedText = String(decoding: (try? JSONEncoder().encode(stored)) ?? Data(), as: UTF8.self)
        try storeCall { () throws(StoreError) in try store.setPreference(Self.sharingPreference, storedText) }
        try refreshCard(sharing: setting)
        return try favoriteSharingSetting()
    }

    /// The stored setting (off when never set or unreadable).
    func favoriteSharing() -> FavoriteSharing {
        guard let text = try? store.preference(Self.sharingPreference),
            let value = try? JSONDecoder().decode(JSONValue.self, from: Data(text.utf8)),
            let mode = value.objectValue?["mode"]?.stringValue.flatMap(FavoriteSharing.Mode.init(rawValue:))
        else { return .off }
        let ids = value.objectValue?["placeIds"]?.arrayValue?.compactMap(\.stringValue) ?? []
        return FavoriteSharing(mode: mode, placeIDs: Set(ids))
    }

    // MARK: This person's card

    /// This identity's card, nil until favorites were first shared.
    func myCard() throws -> Store.DocumentRecord? {
        guard let me else { return nil }
        return try storeCall { () throws(StoreError) in try store.documents(kind: .card) }.first {
            $0.owner == me.bytes
        }
    }

    /// Brings the card to what the profile, the favorites and `sharing` say; creates it the
    /// first time favorites are shared. Returns whether anything was written.
    @discardableResult
    func refreshCard(sharing: FavoriteSharing? = nil) throws -> Bool {
        guard let identity else { return false }
        let sharing = sharing ?? favoriteSharing()
        var card = try myCard()
        if card == nil {
            // Made the first time favorites are shared or a friendship starts (friends see the
            // profile and picture through it).
            guard sharing.mode != .off || !currentFriends().isEmpty else { return false }
            let id = CardService.documentID(owner: (me ?? identity.publicKey).bytes)
            do {
                let key = try SecretBox.randomKey()
                try store.createDocument(
                    id, kind: .card, owner: me ?? identity.publicKey,
                    sealedKey: try SealedBox.seal(key, to: identity.publicKey),
                    timeMs: RFC3339.nowMs())
                account.keyring.insert(key, doc: id, epoch: 0)
            } catch {
                throw ServiceError.store("Could not create your contact card", "\(error)", cause: error)
            }
            card = try myCard()
        }
        guard let card else { return false }
        let service = CardService(store: store, library: try library(), card: card.id)
        let changes = try storeCall { () throws(StoreError) in
            try service.changes(profile: account.profile(in: store), sharing: sharing)
        }
        guard !changes.isEmpty else { return false }
        // One op per few hundred favorites: 2,000 shared at once would not fit in one op.
        for part in CardService.chunks(changes, entitiesPerOp: CardService.entitiesPerOp) {
            try commit(card.id, part, summary: "contact card updated")
        }
        // Contacts connected now receive it (an offer to those who have not offered it yet).
        offerToConnected(card, newcomers: participants(of: card))
        return true
    }

    /// Offers this person's card to the connected members of its audience (after a contact
    /// or a co-member was added; those who hold it already answer with nothing to send).
    func offerMyCard() {
        if (try? myCard()) == nil, !currentFriends().isEmpty { _ = try? refreshCard() }
        guard let card = try? myCard() else { return }
        offerToConnected(card, newcomers: cardAudience())
    }

    /// After a commit to the library or the profile: the card follows (never fails the
    /// user's write; a failure is logged and the next change tries again).
    func cardFollows(_ doc: DocumentID) {
        guard doc == account.libraryDoc || doc == account.profileDoc else { return }
        guard favoriteSharing().mode != .off || (try? myCard()) != nil || !currentFriends().isEmpty else { return }
        do { try refreshCard() } catch {
            logger.error("updating the contact card failed", metadata: ["error": "\(error)"])
        }
    }

    /// Who receives this person's card: contacts and the active co-members of every
    /// itinerary held.
    func cardAudience() -> Set<PublicKey> {
        var out = Set<PublicKey>()
        for contact in (try? store.contacts()) ?? [] {
            if let key = try? PublicKey(bytes: contact.key) { out.insert(key) }
        }
        out.formUnion(coMembers())
        if let me { out.remove(me) }
        return out
    }

    /// The active participants of the itineraries held, this identity left out.
    func coMembers() -> Set<PublicKey> {
        var out = Set<PublicKey>()
        for doc in (try? store.documents(kind: .itinerary)) ?? [] { out.formUnion(participants(of: doc)) }
        if let me { out.remove(me) }
        return out
    }

    /// The owner's grant of `card`'s key to `peer`, issued the first time it is offered to them.
    func ensureCardGrant(_ card: Store.DocumentRecord, to peer: PublicKey) -> KeyGrant? {
        guard identity != nil, card.owner == me?.bytes, !isRelayKey(peer) else { return nil }
        let grants = (try? store.grants(in: card.id)) ?? []
        if let held = grants.first(where: { $0.member == peer.bytes }) { return held }
        let ring = keyringCopy()
        guard let (epoch, key) = ring.current(card.id),
            let grant = try? issueGrant(key: key, doc: card.id, epoch: epoch, to: peer)
        else { return nil }
        try? store.saveGrant(grant)
        return grant
    }

    // MARK: Others' cards

    /// A card offered by `peer`: taken when `peer` is its owner, a contact or a co-member,
    /// this daemon holds no card of theirs yet, and the offer carries the owner's valid grant
    /// to this identity. Anything else is ignored (no invitation: a card is not a share).
    func receiveCard(_ offer: ReceivedOffer, from peer: PublicKey) -> Store.DocumentRecord? {
        guard let me, let identity, offer.owner == peer.bytes, peer != me else { return nil }
        guard (try? store.isContact(peer.bytes)) == true || coMembers().contains(peer) else {
            logger.info(
                "ignored a contact card from someone who is neither a contact nor a co-member",
                metadata: ["peer.id": "\(peer.humanID.prefix(7))"])
            return nil
        }
        guard offer.doc == CardService.documentID(owner: peer.bytes) else {
            logger.warning(
                "ignored a contact card whose id is not its owner's card id",
                metadata: ["peer.id": "\(peer.humanID.prefix(7))"])
            return nil
        }
        if ((try? store.documents(kind: .card)) ?? []).contains(where: { $0.owner == peer.bytes }) {
            logger.warning(
                "ignored a second contact card of one person", metadata: ["peer.id": "\(peer.humanID.prefix(7))"])
            return nil
        }
        guard
            let grant = offer.grants.first(where: {
                $0.doc == offer.doc && $0.member == me.bytes && $0.issuer == peer.bytes && $0.isValid
            }), let key = try? SealedBox.open(grant.sealedKey, with: identity)
        else { return nil }
        do {
            didStore(.documents)
            try store.joinDocument(grant, kind: .card, owner: peer.bytes, timeMs: RFC3339.nowMs())
        } catch {
            logger.error("keeping a contact card failed", metadata: ["error": "\(error)"])
            return nil
        }
        addKey(key, doc: grant.doc, epoch: grant.epoch)
        logger.info("received a contact card", metadata: ["peer.id": "\(peer.humanID.prefix(7))"])
        return try? store.document(grant.doc)
    }

    /// The cards of people who are contacts or co-members now, by owner.
    func heldCards() -> [PublicKey: Store.DocumentRecord] {
        guard let me else { return [:] }
        let known = cardAudience()
        var out = [PublicKey: Store.DocumentRecord]()
        for card in (try? store.documents(kind: .card)) ?? [] where card.owner != me.bytes {
            guard let owner = try? PublicKey(bytes: card.owner), known.contains(owner) else { continue }
            out[owner] = card
        }
        return out
    }
}
