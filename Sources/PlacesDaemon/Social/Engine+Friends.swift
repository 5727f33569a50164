import Foundation
import PlacesAPI
import PlacesAccess
import PlacesCrypto
import PlacesModel
import PlacesStore
import PlacesSync

/// Friends (`Protocol/sync.md` §7.3): a friend request is the sender's outbox to the other
/// person, offered to them; it waits as an invitation of kind `friend` until they accept
/// (their daemon then creates its own outbox back) or decline. Friends are contacts too.
extension Engine {
    /// Most friends (and requests) one person keeps: a post is at most this many small ops.
    static let maxFriends = 1_000

    // MARK: Reading

    /// What friendships are read with (`SocialComponent`).
    var socialContext: SocialComponent.Context { SocialComponent.Context(store: store, me: me) }

    /// Every friendship and request by person (cached).
    func friendStates() -> [PublicKey: Store.FriendState] { social.friendStates(socialContext) }

    /// Where the friendship with `key` stands.
    func friendState(_ key: PublicKey) -> Store.FriendState? { friendStates()[key] }

    /// The people who are friends now.
    func currentFriends() -> Set<PublicKey> { Set(friendStates().filter { $0.value == .friend }.keys) }

    /// Throws unless `key` may stand as a friend or request: it already does, or fewer than
    /// `maxFriends` do (`Protocol/sync.md` §7.3). The one bound every way in goes through: a
    /// request sent, a request accepted, their outbox taken after this person asked, a
    /// friend link redeemed.
    func requireFriendRoom(for key: PublicKey, field: String = "id") throws {
        let states = friendStates()
        if let state = states[key], state != .ended { return }
        let standing = states.values.count { $0 != .ended }
        guard standing < Self.maxFriends else {
            throw ServiceError.invalid(
                field, "you have \(Self.maxFriends) friends and requests, the most there can be: remove one first")
        }
    }

    /// The one way a friendship or request starts (or stands on): checked against the bound,
    /// then recorded. Ending one is `setFriendState(_, .ended)`.
    func admitFriend(_ key: PublicKey, as state: Store.FriendState, name: String = "", field: String = "id") throws {
        try requireFriendRoom(for: key, field: field)
        try setFriendState(key, state, name: name)
    }

    /// Records a friendship's state and forgets what depended on it.
    func setFriendState(_ key: PublicKey, _ state: Store.FriendState, name: String = "") throws {
        try storeCall { () throws(StoreError) in
            try store.setFriend(key.bytes, state: state, name: name, timeMs: RFC3339.nowMs())
        }
        didStore(.friendship)
        if state == .friend { friendshipStarted(with: key) }
        mirrorPersonState()
    }

    /// A new friend (here or on another device of this person) receives the trips published
    /// to friends (and groups they are in) now, not at the next session.
    func friendshipStarted(with key: PublicKey) {
        guard let me else { return }
        for doc in publishedDocuments(with: key) where doc.owner == me.bytes {
            offerToConnected(doc, newcomers: [key])
        }
    }

    /// The reader of one of this person's outboxes (nil for another's outbox or the journal).
    func outboxReader(_ doc: DocumentID) -> PublicKey? { social.outboxReader(doc, socialContext) }

    /// An outbox's participants (`Protocol/sync.md` §7.3). In its author's view: the author,
    /// and the reader while a friendship or request stands (an ended one too, so the reader
    /// learns it ended); in the reader's view: the author while they are friends, and the
    /// reader. The journal's: its author alone.
    func outboxParticipants(_ doc: Store.DocumentRecord) -> Set<PublicKey> {
        guard let me, let owner = try? PublicKey(bytes: doc.owner) else { return [] }
        if owner == me {
            guard let reader = outboxReader(doc.id), reader != me, friendState(reader) != nil else { return [me] }
            return [me, reader]
        }
        // Their outbox, held from an earlier friendship, carries their new request when this
        // person asked them again (`friendshipFollows`).
        switch friendState(owner) {
        case .friend?, .requested?: return [owner, me]
        case .ended?, nil: return [me]
        }
    }

    /// The outboxes exchanged with `peer`: this person's to them and theirs to this person,
    /// when held and the friendship allows.
    func outboxes(with peer: PublicKey) -> [Store.DocumentRecord] {
        guard let me, peer != me, let state = friendState(peer) else { return [] }
        var out = [Store.DocumentRecord]()
        if let mine = try? store.document(Outboxes.documentID(author: me.bytes, reader: peer.bytes)) {
            out.append(mine)
        }
        if state != .ended, let theirs = try? store.document(Outboxes.documentID(author: peer.bytes, reader: me.bytes))
        {
            out.append(theirs)
        }
        return out
    }

    /// `GET /v1/friends`: friends and the requests this person sent, oldest first.
    func friendList() throws -> FriendList {
        try requireLogin()
        let records = try storeCall { () throws(StoreError) in try store.friends() }
        let cards = heldCards()
        let seen = Dictionary(
            ((try? store.peers()) ?? []).map { ($0.key, $0.lastSeenMs) }, uniquingKeysWith: { a, _ in a })
        return FriendList(
            friends: records.compactMap { record in
                guard record.state != .ended, let key = try? PublicKey(bytes: record.key) else { return nil }
                return friendView(key, record: record, card: cards[key], lastSeenMs: seen[record.key] ?? nil)
            })
    }

    func friendView(_ key: PublicKey, record: Store.FriendRecord, card: Store.DocumentRecord?, lastSeenMs: Int64?)
        -> Friend
    {
        let view = card.map(cardView)
        let shown = view?.name.flatMap { $0.isEmpty ? nil : $0 } ?? displayName(of: key)
        return Friend(
            id: key.humanID, name: shown == String(key.humanID.prefix(7)) ? nil : shown, username: view?.username,
            bio: view?.bio, picture: card.flatMap(cardPicture), state: record.state.rawValue,
            since: RFC3339.string(ms: record.sinceMs), lastSeen: lastSeenMs.map { RFC3339.string(ms: $0) })
    }

    /// The friend named by a public id (a friend or a request sent); 404 otherwise.
    func friendRecord(_ reference: String) throws -> (PublicKey, Store.FriendRecord) {
        guard let key = try? HumanID.decode(reference) else {
            throw ServiceError.invalid("id", "'\(reference.prefix(80))' is not a public id")
        }
        guard let record = try storeCall({ () throws(StoreError) in try store.friend(key.bytes) }),
            record.state != .ended
        else { throw ServiceError.notFound("\(key.humanID.prefix(7)) is not your friend") }
        return (key, record)
    }

    /// `GET /v1/friends/{id}`: their profile, the posts of theirs this person can see, and the
    /// places they share.
    func friendProfile(_ reference: String) throws -> FriendProfile {
        try requireLogin()
        let (key, record) = try friendRecord(reference)
        let card = heldCards()[key]
        let seen = ((try? store.peers()) ?? []).first { $0.key == key.bytes }?.lastSeenMs
        let friend = friendView(key, record: record, card: card, lastSeenMs: seen)
        var posts = [Post]()
        if record.state == .friend, let me {
            let doc = Outboxes.documentID(author: key.bytes, reader: me.bytes)
            posts = try feedPage(docs: [doc], before: nil, limit: 50).posts
        }
        var profile = FriendProfile(friend: friend, posts: posts, places: card.map { cardView($0).favorites } ?? [])
        profile.trips = tripsPublished(by: key)
        return profile
    }

    // MARK: Requests

    /// `POST /v1/friends`: sends a friend request, or accepts theirs when they already asked.
    func addFriend(_ body: [String: JSONValue]) throws -> (Friend, created: Bool) {
        guard let identity, let me else { throw ServiceError.loggedOut }
        if let unknown = body.keys.sorted().first(where: { $0 != "id" && $0 != "link" }) {
            throw ServiceError.invalid(unknown, "unknown field '\(unknown)': the fields are id or link")
        }
        let key: PublicKey
        if let linkText = body["link"]?.stringValue {
            let link: FriendLink
            do {
                link = try FriendLink(parsing: linkText)
                try link.check(nowMs: RFC3339.nowMs())
            } catch { throw ServiceError(.link(error.code), error.message, field: "link") }
            key = link.owner
            guard key != me else { throw ServiceError.invalid("link", "that is your own friend link") }
            try storeCall { () throws(StoreError) in
                try store.setPreference(Self.friendLinkPreference + key.hex, HexCoding.encode(link.token))
            }
        } else {
            guard let text = body["id"]?.stringValue else {
                throw ServiceError.invalid("id", "'id' (a public id) or 'link' (a friend link) is required")
            }
            do { key = try HumanID.decode(text) } catch {
                throw ServiceError.invalid("id", "'\(text.prefix(80))' is not a valid id: \(error.message)")
            }
        }
        guard key != me else { throw ServiceError.invalid("id", "that is your own id") }
        if let waiting = ((try? store.invitations()) ?? []).first(where: {
            $0.kind == "friend" && $0.owner == key.bytes
        }) {
            _ = try acceptInvitation(waiting.doc.hex)
            return (try friendEntry(key), false)
        }
        switch friendState(key) {
        case .friend?, .requested?: return (try friendEntry(key), false)
        case .ended?, nil: break
        }
        try admitFriend(key, as: .requested, field: body["link"] == nil ? "id" : "link")
        let outbox = try ensureOutbox(to: key, identity: identity)
        try reopenOutbox(outbox, asking: true)
        offerToConnected(outbox, newcomers: [key])
        // Their outbox, held from an earlier friendship, is asked for again: if they asked
        // this person again too, its new ops say so (`friendshipFollows`).
        if let theirs = try? store.document(Outboxes.documentID(author: key.bytes, reader: me.bytes)) {
            offerToConnected(theirs, newcomers: [key])
        }
        logger.info("sent a friend request", metadata: ["peer.id": "\(key.humanID.prefix(7))"])
        return (try friendEntry(key), true)
    }

    func friendEntry(_ key: PublicKey) throws -> Friend {
        guard let record = try storeCall({ () throws(StoreError) in try store.friend(key.bytes) }) else {
            throw ServiceError.notFound("\(key.humanID.prefix(7)) is not your friend")
        }
        let seen = ((try? store.peers()) ?? []).first { $0.key == key.bytes }?.lastSeenMs
        return friendView(key, record: record, card: heldCards()[key], lastSeenMs: seen)
    }

    /// Accepting an invitation of kind `friend`.
    func acceptFriendInvitation(_ invitation: Store.InvitationRecord) throws -> Invitation {
        guard let identity, let owner = try? PublicKey(bytes: invitation.owner) else { throw ServiceError.loggedOut }
        try requireFriendRoom(for: owner)
        let holder = account.personKey ?? identity
        var grant = invitation.grant
        grant.member = holder.publicKey.bytes
        guard grant.isValid, let key = try? SealedBox.open(grant.sealedKey, with: holder) else {
            try? store.deleteInvitation(invitation.doc)
            throw ServiceError(
                .invitationInvalid, "the friend request's key does not open with this identity; ask them again")
        }
        guard takeOutbox(grant, key: key, from: owner, name: invitation.ownerName ?? "") != nil else {
            throw ServiceError.internal("Could not accept the friend request", "see the log")
        }
        try? store.deleteInvitation(invitation.doc)
        if let record = try? store.document(invitation.doc) { offerToConnected(record, newcomers: [owner]) }
        return consentService().invitationView(invitation, status: "accepted", displayName: { displayName(of: $0) })
    }

    /// `DELETE /v1/friends/{id}`: ends the friendship on both sides from now on. Their daemon
    /// learns it from this person's outbox (its root's `ended`); posts already delivered stay
    /// with them, no new ones go.
    func removeFriend(_ reference: String) throws {
        guard let identity else { throw ServiceError.loggedOut }
        let (key, _) = try friendRecord(reference)
        try setFriendState(key, .ended)
        dropFromGroups(key)
        let outbox = try ensureOutbox(to: key, identity: identity)
        let root = try storeCall { () throws(StoreError) in try store.entity(in: outbox.id, id: outbox.id.hex) }
        var write = root == nil ? EntityWrite<OutboxFields>.create(outbox.id.hex) : .update(outbox.id.hex)
        write.set(
            OutboxFields.ended.name, to: .bool(true), old: root.map(Views.fields)?[OutboxFields.ended.name])
        try commit(outbox.id, write.changes, summary: "friendship ended")
        logger.info("ended a friendship", metadata: ["peer.id": "\(key.humanID.prefix(7))"])
    }

    /// After ops of `peer`'s outbox to this person were stored: an `ended` root ends the
    /// friendship here too.
    func friendshipFollows(_ doc: Store.DocumentRecord) {
        guard let owner = try? PublicKey(bytes: doc.owner), owner != me,
            let root = try? store.entity(in: doc.id, id: doc.id.hex)
        else { return }
        let ended = Views.fields(root)[OutboxFields.ended.name]
        // Friends again: both asked each other after an earlier friendship ended.
        if friendState(owner) == .requested, ended == .bool(false) {
            guard (try? admitFriend(owner, as: .friend)) != nil else { return }
            if let me, let mine = try? store.document(Outboxes.documentID(author: me.bytes, reader: owner.bytes)) {
                offerToConnected(mine, newcomers: [owner])
            }
            notify(
                "friend-accepted", actor: owner, subject: owner.humanID,
                dedup: "friend-accepted:\(doc.id.hex):\(root.updatedMs ?? 0)")
            offerMyCard()
            return
        }
        guard friendState(owner) == .friend, ended == .bool(true) else { return }
        try? setFriendState(owner, .ended)
        dropFromGroups(owner)
        logger.info("a friend ended the friendship", metadata: ["peer.id": "\(owner.humanID.prefix(7))"])
        events.publish(
            Event(
                type: "unfriended", time: RFC3339.string(ms: RFC3339.nowMs()), doc: doc.id.hex, docKind: "outbox",
                author: owner.humanID, summary: "\(displayName(of: owner)) is no longer your friend"))
    }
}
