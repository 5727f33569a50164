import Foundation
import PlacesAPI
import PlacesCrypto
import PlacesModel
import PlacesStore
import PlacesSync

/// Publishing (issue 17, `Protocol/sync.md` §7.5): this person's itineraries published to
/// friends, a group or the network as `published` documents, the audience each goes to, and
/// the rules for taking someone else's.
extension Engine {
    // MARK: Publishing

    /// `POST /v1/itineraries/{id}/publish` (`{"audience": "friends"|"network"|GROUP, "dryRun"}`).
    func publish(_ reference: String, _ body: [String: JSONValue]) throws -> JSONValue {
        guard let identity else { throw ServiceError.loggedOut }
        if let unknown = body.keys.sorted().first(where: { !["audience", "dryRun"].contains($0) }) {
            throw ServiceError.invalid(
                unknown, "unknown field '\(unknown.prefix(64))': the fields are audience and dryRun")
        }
        let doc = try itineraryDoc(reference)
        guard doc.owner == me?.bytes else {
            throw ServiceError(.notOwner, "only the itinerary's owner can publish it")
        }
        let (audience, group) = try publicationAudience(body["audience"])
        var dryRun = false
        if let value = body["dryRun"], !value.isNull {
            guard case .bool(let flag) = value else {
                throw ServiceError.invalid("dryRun", "'dryRun' must be true or false")
            }
            dryRun = flag
        }
        let held = try storeCall { () throws(StoreError) in try store.publication(itinerary: doc.id) }
        // The network's trips are readable by anyone who holds their id; a private trip moving
        // there (or back) becomes a new document, the old one withdrawn.
        let reuse = held.flatMap { ($0.audience == "network") == (audience == "network") ? $0.published : nil }
        let now = RFC3339.string(ms: RFC3339.nowMs())
        let copy = try PublishService.copy(
            of: try tripSnapshot(doc), authorName: currentProfileName() ?? "", audience: audience, publishedAt: now,
            updatedAt: now)
        if dryRun {
            let id = reuse ?? doc.id
            let view = try exploreDetail(
                snapshot: PublishService.snapshot(of: copy, as: id), summary: draftSummary(id, copy: copy))
            return publicationJSON(
                id: reuse, itinerary: doc.id, audience: audience, group: group, dryRun: true, trip: view)
        }
        if let held, reuse == nil { try withdraw(held) }
        let salt = reuse != nil ? (held?.salt ?? []) : SecureRandom.bytes(16)
        let published = try reuse ?? createPublished(network: audience == "network", salt: salt, identity: identity)
        let record = Store.PublicationRecord(
            itinerary: doc.id, published: published, audience: audience, group: group?.id, salt: salt)
        try storeCall { () throws(StoreError) in try store.savePublication(record) }
        publishing.publicationSaved(record, replacing: held)
        let changes = try storeCall { () throws(StoreError) in
            try PublishService(store: store, doc: published).changes(to: copy)
        }
        for part in CardService.chunks(changes, entitiesPerOp: CardService.entitiesPerOp) {
            try commit(published, part, summary: "trip published")
        }
        if let record = try storeCall({ () throws(StoreError) in try store.document(published) }) {
            offerToConnected(record, newcomers: participants(of: record))
        }
        let view = try exploreTrip(published.hex)
        return publicationJSON(
            id: published, itinerary: doc.id, audience: audience, group: group, dryRun: false, trip: view)
    }

    /// `DELETE /v1/itineraries/{id}/publish`: withdrawn from every daemon that holds it.
    func unpublish(_ reference: String) throws {
        guard identity != nil else { throw ServiceError.loggedOut }
        let doc = try itineraryDoc(reference)
        guard doc.owner == me?.bytes else {
            throw ServiceError(.notOwner, "only the itinerary's owner can unpublish it")
        }
        guard let held = try storeCall({ () throws(StoreError) in try store.publication(itinerary: doc.id) }),
            !isWithdrawn(held.published)
        else { throw ServiceError.notFound("the itinerary is not published") }
        try withdraw(held)
    }

    private func withdraw(_ publication: Store.PublicationRecord) throws {
        let changes = try storeCall { () throws(StoreError) in
            try PublishService(store: store, doc: publication.published).withdrawal(
                at: RFC3339.string(ms: RFC3339.nowMs()))
        }
        guard !changes.isEmpty else { return }
        for part in CardService.chunks(changes, entitiesPerOp: CardService.entitiesPerOp) {
            try commit(publication.published, part, summary: "trip unpublished")
        }
    }

    /// A new published document of this identity: a network trip's key is derived from its
    /// id (anyone it is offered to may read it), a private one's is random (sent in grants).
    private func createPublished(network: Bool, salt: [UInt8], identity: SigningKeyPair) throws -> DocumentID {
        let id = PublishService.documentID(author: (me ?? identity.publicKey).bytes, salt: salt)
        do {
            let key = network ? Engine.networkKey(id) : try SecretBox.randomKey()
            try store.createDocument(
                id, kind: .published, owner: me ?? identity.publicKey,
                sealedKey: try SealedBox.seal(key, to: identity.publicKey), timeMs: RFC3339.nowMs())
            account.keyring.insert(key, doc: id, epoch: 0)
        } catch {
            throw ServiceError.store("Could not publish the itinerary", "\(error)", cause: error)
        }
        return id
    }

    /// A network trip's document key: BLAKE2b-256(`"places/published-key/1"` ‖ 0x00 ‖ id).
    static func networkKey(_ doc: DocumentID) -> [UInt8] {
        Blake2b.hash256(Array("places/published-key/1".utf8) + [0] + doc.bytes)
    }

    /// `friends`, `network`, or a group by id or name.
    private func publicationAudience(_ value: JSONValue?) throws -> (String, FriendGroup?) {
        guard let text = value?.stringValue, !text.isEmpty else {
            throw ServiceError.invalid("audience", "'audience' must be \"friends\", \"network\" or one of your groups")
        }
        if text == "friends" || text == "network" { return (text, nil) }
        do {
            return ("group", groupView(try groupRecord(text)))
        } catch let error as ServiceError where error.isNotFound {
            throw ServiceError.invalid(
                "audience",
                "unknown audience '\(text.prefix(80))': use \"friends\", \"network\" or one of your groups (`places groups`)"
            )
        }
    }

    private func publicationJSON(
        id: DocumentID?, itinerary: DocumentID, audience: String, group: FriendGroup?, dryRun: Bool, trip: JSONValue
    ) -> JSONValue {
        var out: [String: JSONValue] = [
            "itinerary": .string(itinerary.hex), "audience": .string(audience), "dryRun": .bool(dryRun), "trip": trip,
        ]
        if let id { out["id"] = .string(id.hex) }
        if let group {
            out["group"] = .string(group.id)
            out["groupName"] = .string(group.name)
        }
        if let published = trip.objectValue?["publishedAt"], !dryRun { out["publishedAt"] = published }
        return .object(out)
    }

    // MARK: Audience and participants

    /// This identity's publications, by published document (read once per change).
    func publicationsByDoc() -> [DocumentID: Store.PublicationRecord] {
        publishing.publications(store)
    }

    /// Who may hold one of this identity's published trips now: every friend; a group's
    /// members who are friends; anyone connected, for the network.
    func publishedAudience(_ doc: DocumentID) -> Set<PublicKey> {
        guard let publication = publicationsByDoc()[doc] else { return [] }
        switch publication.audience {
        case "network": return Set(syncComponent.peerNames.keys)
        case "group":
            let friends = currentFriends()
            guard let group = publication.group, let record = try? groupRecord(group) else { return [] }
            let members = (Views.fields(record)[GroupFields.members] ?? []).compactMap { Engine.publicKey(hex: $0) }
            return Set(members).intersection(friends)
        default: return currentFriends()
        }
    }

    /// Whether `peer` may see this identity's published trip `doc`.
    func mayRead(_ doc: DocumentID, _ peer: PublicKey) -> Bool {
        guard let publication = publicationsByDoc()[doc] else { return false }
        return publication.audience == "network" || publishedAudience(doc).contains(peer)
    }

    /// A published trip's participants: for this identity's, itself and its audience; for
    /// another's, its author and this identity (published trips are never relayed).
    func publishedParticipants(_ doc: Store.DocumentRecord) -> Set<PublicKey> {
        guard let me, let owner = try? PublicKey(bytes: doc.owner) else { return [] }
        return owner == me ? publishedAudience(doc.id).union([me]) : [owner, me]
    }

    /// This identity's published trips `peer` may hold, and `peer`'s own held here.
    func publishedDocuments(with peer: PublicKey) -> [Store.DocumentRecord] {
        guard let me else { return [] }
        return ((try? store.documents(kind: .published)) ?? []).filter { doc in
            doc.owner == peer.bytes || (doc.owner == me.bytes && mayRead(doc.id, peer))
        }
    }

    func isWithdrawn(_ doc: DocumentID) -> Bool {
        guard let root = try? store.entity(in: doc, id: doc.hex) else { return true }
        return Views.fields(root)[PublishedTripFields.withdrawn] == true
    }

    // MARK: Others' published trips

    /// An offer of a published trip not held: taken only from its author, for a network
    /// trip within the bounds on unknown authors, for a private one from a friend with the
    /// author's grant to this identity (`Protocol/sync.md` §7.5).
    func receivePublished(_ offer: ReceivedOffer, from peer: PublicKey) -> Store.DocumentRecord? {
        let refused = publishing.refusals(of: peer)
        if refused >= PublishedBounds.refusalsPerSession {
            if refused == PublishedBounds.refusalsPerSession {
                logger.notice(
                    "ignoring this peer's further published trips until it reconnects",
                    metadata: ["peer.id": "\(peer.humanID.prefix(7))", "refused": "\(refused)"])
            }
            publishing.refuse(peer)
            return nil
        }
        guard let me, let identity, offer.owner == peer.bytes, peer != me else {
            publishing.refuse(peer)
            logger.warning(
                "ignored a published trip offered by someone who is not its author",
                metadata: ["peer.id": "\(peer.humanID.prefix(7))", "doc.id": "\(offer.doc)"])
            return nil
        }
        guard offer.salt.count == 16, offer.doc == PublishService.documentID(author: peer.bytes, salt: offer.salt)
        else {
            return refusePublished(offer, peer, "its id is not derived from its author's key")
        }
        let known = knownPeople().contains(peer)
        let held = ((try? store.documents(kind: .published)) ?? []).filter { $0.owner != me.bytes }
        let byAuthor = held.filter { $0.owner == peer.bytes }.count
        if known {
            guard byAuthor < PublishedBounds.perKnownAuthor else {
                return refusePublished(offer, peer, "the author has \(PublishedBounds.perKnownAuthor) trips here")
            }
        } else {
            guard offer.role == "network" else {
                return refusePublished(offer, peer, "a private trip from someone who is not a friend")
            }
            guard byAuthor < PublishedBounds.perUnknownAuthor else {
                return refusePublished(
                    offer, peer, "\(PublishedBounds.perUnknownAuthor) trips of this unknown author are kept")
            }
            let origins = Dictionary(
                ((try? store.publishedOrigins()) ?? []).map { ($0.doc, $0.address) }, uniquingKeysWith: { a, _ in a })
            let knownKeys = Set(knownPeople().map(\.bytes))
            let unknown = held.filter { !knownKeys.contains($0.owner) }
            guard unknown.count < PublishedBounds.unknownTotal else {
                return refusePublished(offer, peer, "\(PublishedBounds.unknownTotal) trips of unknown authors are kept")
            }
            let address = peerHost(peer)
            guard unknown.filter({ origins[$0.id] == address }).count < PublishedBounds.perUnknownAddress else {
                return refusePublished(
                    offer, peer, "\(PublishedBounds.perUnknownAddress) trips of unknown authors from this address")
            }
        }
        let key: [UInt8]
        if offer.role == "network" {
            key = Engine.networkKey(offer.doc)
        } else {
            guard currentFriends().contains(peer),
                let grant = offer.grants.first(where: {
                    $0.doc == offer.doc && $0.member == me.bytes && $0.issuer == peer.bytes && $0.isValid
                }), let opened = try? SealedBox.open(grant.sealedKey, with: identity)
            else { return refusePublished(offer, peer, "a private trip without its author's grant to a friend") }
            key = opened
        }
        do {
            didStore(.documents)
            try store.createDocument(
                offer.doc, kind: .published, owner: peer, sealedKey: try SealedBox.seal(key, to: me),
                timeMs: RFC3339.nowMs())
            try store.notePublishedOrigin(offer.doc, address: peerHost(peer), timeMs: RFC3339.nowMs())
        } catch {
            logger.error("keeping a published trip failed", metadata: ["error": "\(error)"])
            return nil
        }
        addKey(key, doc: offer.doc, epoch: 0)
        logger.info(
            "received a published trip", metadata: ["peer.id": "\(peer.humanID.prefix(7))", "doc.id": "\(offer.doc)"])
        return try? store.document(offer.doc)
    }

    private func refusePublished(_ offer: ReceivedOffer, _ peer: PublicKey, _ reason: String) -> Store.DocumentRecord? {
        publishing.refuse(peer)
        logger.notice(
            "ignored a published trip",
            metadata: ["peer.id": "\(peer.humanID.prefix(7))", "doc.id": "\(offer.doc)", "reason": "\(reason)"])
        return nil
    }

    /// The address a connected peer came from, without its port (the bound per address).
    func peerHost(_ peer: PublicKey) -> String {
        guard let address = publishing.address(of: peer) else { return "unknown" }
        if address.hasPrefix("["), let end = address.firstIndex(of: "]") {
            return String(address[address.index(after: address.startIndex)..<end])
        }
        return String(address.split(separator: ":").first ?? Substring(address))
    }

    /// Friends, contacts and co-members: whose likes count as "people you know", and whose
    /// trips are not bounded as strangers' are.
    func knownPeople() -> Set<PublicKey> {
        var out = currentFriends().union(coMembers())
        for contact in (try? store.contacts()) ?? [] {
            if let key = try? PublicKey(bytes: contact.key) { out.insert(key) }
        }
        return out
    }

    /// When `peer` connects: its published trips held here were seen now; unknown authors'
    /// trips not seen for `unknownExpiryMs` and not saved are dropped.
    func publishedFollowConnection(_ peer: PublicKey) {
        guard let me else { return }
        let now = RFC3339.nowMs()
        let docs = ((try? store.documents(kind: .published)) ?? []).filter { $0.owner != me.bytes }
        for doc in docs where doc.owner == peer.bytes {
            try? store.notePublishedOrigin(doc.id, address: peerHost(peer), timeMs: now)
        }
        let expired = ((try? store.publishedOrigins()) ?? []).filter {
            $0.seenMs < now - PublishedBounds.unknownExpiryMs
        }
        // Who this person knows is read only when some trip is old enough to drop (it reads
        // every trip's members: a session opening with thousands of trips must not).
        guard !expired.isEmpty else { return }
        let saved = Set(((try? store.savedTrips()) ?? []).map(\.doc))
        let knownKeys = Set(knownPeople().map(\.bytes))
        let byDoc = Dictionary(docs.map { ($0.id, $0) }, uniquingKeysWith: { a, _ in a })
        for origin in expired where !saved.contains(origin.doc) {
            guard let doc = byDoc[origin.doc], !knownKeys.contains(doc.owner) else { continue }
            try? store.dropPublished(origin.doc)
            didStore(.documents)
            logger.info("dropped an unknown author's trip not seen for 30 days", metadata: ["doc.id": "\(origin.doc)"])
        }
    }

    /// Whether more ops of another's published trip `doc` may be stored (its size bound).
    func publishedHasRoom(_ doc: Store.DocumentRecord) -> Bool {
        guard let owner = try? PublicKey(bytes: doc.owner), owner != me else { return true }
        let bound = knownPeople().contains(owner) ? PublishedBounds.knownOpBytes : PublishedBounds.unknownOpBytes
        return ((try? store.opBytes(of: doc.id)) ?? 0) < bound
    }
}
