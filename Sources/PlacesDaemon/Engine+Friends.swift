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

    /// Every friendship and request by person (cached).
    func friendStates() -> [PublicKey: Store.FriendState] {
        if let friendCache { return friendCache }
        var states = [PublicKey: Store.FriendState]()
        var readers = [DocumentID: PublicKey]()
        for record in (try? store.friends()) ?? [] {
            guard let key = try? PublicKey(bytes: record.key) else { continue }
            states[key] = record.state
            if let me { readers[Outboxes.documentID(author: me.bytes, reader: key.bytes)] = key }
        }
        friendCache = states
        outboxReaders = readers
        return states
    }

    /// Where the friendship with `key` stands.
    func friendState(_ key: PublicKey) -> Store.FriendState? { friendStates()[key] }

    /// The people who are friends now.
    func currentFriends() -> Set<PublicKey> { Set(friendStates().filter { $0.value == .friend }.keys) }

    /// Records a friendship's state and forgets what depended on it.
    func setFriendState(_ key: PublicKey, _ state: Store.FriendState, name: String = "") throws {
        try storeCall { () throws(StoreError) in
            try store.setFriend(key.bytes, state: state, name: name, timeMs: RFC3339.nowMs())
        }
        friendCache = nil
        participantsCache.removeAll()
    }

    /// The reader of one of this person's outboxes (nil for another's outbox or the journal).
    func outboxReader(_ doc: DocumentID) -> PublicKey? {
        _ = friendStates()
        return outboxReaders[doc]
    }

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
        return FriendProfile(friend: friend, posts: posts, places: card.map { cardView($0).favorites } ?? [])
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
        let live = ((try? store.friends()) ?? []).filter { $0.state != .ended }.count
        guard live < Self.maxFriends else {
            throw ServiceError.invalid("id", "you have \(Self.maxFriends) friends and requests, the most there can be")
        }
        try setFriendState(key, .requested)
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

    /// This person's outbox to `reader`, created on first use.
    @discardableResult
    func ensureOutbox(to reader: PublicKey, identity: SigningKeyPair) throws -> Store.DocumentRecord {
        let id = Outboxes.documentID(author: identity.publicKey.bytes, reader: reader.bytes)
        if let held = try? store.document(id) { return held }
        do {
            let key = try SecretBox.randomKey()
            try store.createDocument(
                id, kind: .outbox, owner: identity.publicKey,
                sealedKey: try SealedBox.seal(key, to: identity.publicKey),
                timeMs: RFC3339.nowMs())
            account.keyring.insert(key, doc: id, epoch: 0)
        } catch {
            throw ServiceError.store("Could not create your outbox", "\(error)", cause: error)
        }
        forgetDocumentState()
        guard let record = try? store.document(id) else {
            throw ServiceError.internal("Could not create your outbox", "not found after creating it")
        }
        return record
    }

    /// Writes the outbox's root with `ended` false (a friendship that starts, or starts again).
    /// With `asking`, it is written even when it already says so: a request after an ended
    /// friendship is a new op the other daemon sees (`friendshipFollows`).
    func reopenOutbox(_ outbox: Store.DocumentRecord, asking: Bool = false) throws {
        let root = try storeCall { () throws(StoreError) in try store.entity(in: outbox.id, id: outbox.id.hex) }
        let ended = root.map(Views.fields)?[OutboxFields.ended.name]
        guard asking || root == nil || ended != .bool(false) else { return }
        var write = root == nil ? EntityWrite<OutboxFields>.create(outbox.id.hex) : .update(outbox.id.hex)
        write.set(OutboxFields.ended.name, to: .bool(false), old: root == nil ? nil : ended)
        try commit(outbox.id, write.changes, summary: "outbox opened")
    }

    /// An outbox offered by `peer` that this daemon does not hold: taken when `peer` is its
    /// author, its id is `peer`'s outbox to this person, and it carries `peer`'s valid grant.
    /// From a friend, or someone this person asked, it is taken (and the friendship starts);
    /// from anyone else it waits as a friend request.
    func receiveOutbox(_ offer: ReceivedOffer, from peer: PublicKey) -> Store.DocumentRecord? {
        guard let me, let identity, offer.owner == peer.bytes, peer != me else { return nil }
        guard offer.doc == Outboxes.documentID(author: peer.bytes, reader: me.bytes) else {
            logger.warning(
                "ignored an outbox whose id is not its author's outbox to this person",
                metadata: ["peer.id": "\(peer.humanID.prefix(7))"])
            return nil
        }
        guard
            let grant = offer.grants.first(where: {
                $0.doc == offer.doc && $0.member == me.bytes && $0.issuer == peer.bytes && $0.isValid
            }), let key = try? SealedBox.open(grant.sealedKey, with: identity)
        else { return nil }
        switch friendState(peer) {
        case .friend?, .requested?:
            return takeOutbox(grant, key: key, from: peer, name: offer.fromName)
        case .ended?, nil:
            // Redeeming this person's friend link: accepted without a prompt while it is valid.
            if !offer.joinProof.isEmpty, let link = try? FriendLink(token: offer.joinProof), link.owner == me,
                (try? link.check(nowMs: RFC3339.nowMs())) != nil
            {
                logger.info("a friend link was redeemed", metadata: ["peer.id": "\(peer.humanID.prefix(7))"])
                let taken = takeOutbox(grant, key: key, from: peer, name: offer.fromName)
                notify("friend-accepted", actor: peer, subject: peer.humanID, dedup: "friend-link:\(offer.doc.hex)")
                return taken
            }
            let invitation = Store.InvitationRecord(
                grant: grant, owner: peer.bytes, via: peer.bytes,
                ownerName: offer.fromName.isEmpty ? nil : offer.fromName, name: nil, role: nil,
                receivedMs: RFC3339.nowMs(), declined: false, kind: "friend")
            switch (try? store.recordInvitation(invitation)) ?? .full {
            case .recorded:
                logger.info("received a friend request", metadata: ["peer.id": "\(peer.humanID.prefix(7))"])
                notify("friend-request", actor: peer, subject: peer.humanID, dedup: "friend-request:\(offer.doc.hex)")
                events.publish(
                    Event(
                        type: "invited", time: RFC3339.string(ms: RFC3339.nowMs()), doc: offer.doc.hex,
                        docKind: "outbox", author: peer.humanID,
                        summary: "\(invitation.ownerName ?? displayName(of: peer)) wants to be your friend"))
            case .known: break
            case .full:
                logger.warning(
                    "dropped a friend request: too many are waiting", metadata: ["peer.id": "\(peer.humanID.prefix(7))"]
                )
            }
            return nil
        }
    }

    /// Keeps `peer`'s outbox to this person (the friendship is on): they become a friend and a
    /// contact, and this person's outbox to them is created and offered.
    func takeOutbox(_ grant: KeyGrant, key: [UInt8], from peer: PublicKey, name: String) -> Store.DocumentRecord? {
        guard let identity else { return nil }
        let wasRequested = friendState(peer) == .requested
        do {
            forgetDocumentState()
            try store.joinDocument(grant, kind: .outbox, owner: peer.bytes, timeMs: RFC3339.nowMs())
            try store.addContact(peer.bytes, name: name, timeMs: RFC3339.nowMs())
            try setFriendState(peer, .friend, name: name)
        } catch {
            logger.error("keeping a friend's outbox failed", metadata: ["error": "\(error)"])
            return nil
        }
        var ring = keyringCopy()
        ring.insert(key, doc: grant.doc, epoch: grant.epoch)
        setKeyring(ring)
        if let mine = try? ensureOutbox(to: peer, identity: identity) {
            try? reopenOutbox(mine)
            offerToConnected(mine, newcomers: [peer])
        }
        offerMyCard()
        if wasRequested {
            notify("friend-accepted", actor: peer, subject: peer.humanID, dedup: "friend-accepted:\(grant.doc.hex)")
            events.publish(
                Event(
                    type: "friend", time: RFC3339.string(ms: RFC3339.nowMs()), doc: grant.doc.hex, docKind: "outbox",
                    author: peer.humanID, summary: "\(displayName(of: peer)) accepted your friend request"))
        }
        logger.info("a friendship started", metadata: ["peer.id": "\(peer.humanID.prefix(7))"])
        return try? store.document(grant.doc)
    }

    static let friendLinkPreference = "friend.link."

    /// Takes a former friend out of every group (a group holds friends only).
    func dropFromGroups(_ key: PublicKey) {
        guard let library = try? library(), let groups = try? store.entities(in: library, kind: .group) else { return }
        var changes = [Change]()
        for group in groups {
            let members = Views.fields(group)[GroupFields.members] ?? []
            guard members.contains(key.hex) else { continue }
            var write = EntityWrite<GroupFields>.update(group.id)
            write.set(GroupFields.members, to: members.filter { $0 != key.hex }, old: members)
            changes += write.changes
        }
        guard !changes.isEmpty else { return }
        do { try commit(library, changes, summary: "a former friend left your groups") } catch {
            logger.error("updating groups failed", metadata: ["error": "\(error)"])
        }
    }

    /// The token of `peer`'s friend link this person redeemed, sent with the first offer of
    /// this person's outbox to them.
    func friendLinkToken(for peer: PublicKey) -> [UInt8]? {
        guard friendState(peer) == .requested,
            let hex = try? store.preference(Self.friendLinkPreference + peer.hex), let token = HexCoding.decode(hex)
        else { return nil }
        return token
    }

    /// `POST /v1/friends/link` (`{"validHours": 1…720}`, 24 by default): a friend link whose
    /// redeemer becomes a friend without a prompt.
    func createFriendLink(_ body: [String: JSONValue]) throws -> FriendLinkResponse {
        guard let identity else { throw ServiceError.loggedOut }
        if let unknown = body.keys.sorted().first(where: { $0 != "validHours" }) {
            throw ServiceError.invalid(unknown, "unknown field '\(unknown)': the field is validHours")
        }
        var hours: Int64 = 24
        if let value = body["validHours"], !value.isNull {
            guard let n = value.intValue, (1...720).contains(n) else {
                throw ServiceError.invalid("validHours", "'validHours' must be a whole number from 1 to 720")
            }
            hours = n
        }
        let link = FriendLink.issue(by: identity, expiresMs: RFC3339.nowMs() + hours * 3_600_000)
        return FriendLinkResponse(link: link.text, expiresAt: RFC3339.string(ms: link.expiresMs))
    }

    /// Accepting an invitation of kind `friend`.
    func acceptFriendInvitation(_ invitation: Store.InvitationRecord) throws -> Invitation {
        guard let identity, let owner = try? PublicKey(bytes: invitation.owner) else { throw ServiceError.loggedOut }
        guard friendStates().values.filter({ $0 != .ended }).count < Self.maxFriends else {
            throw ServiceError.invalid(
                "id", "you have \(Self.maxFriends) friends and requests, the most there can be: remove one first")
        }
        var grant = invitation.grant
        grant.member = identity.publicKey.bytes
        guard grant.isValid, let key = try? SealedBox.open(grant.sealedKey, with: identity) else {
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
            try? setFriendState(owner, .friend)
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

extension Engine {
    /// `PATCH /v1/profile`: `name`, `username`, `bio` (null clears it) and `picture` (a photo id
    /// added with `POST /v1/photos`, or null). Friends and co-members see it through the card.
    func updateProfile(_ body: [String: JSONValue]) throws -> Profile {
        try requireLogin()
        let allowed: Set<String> = ["name", "username", "bio", "picture"]
        if let unknown = body.keys.sorted().first(where: { !allowed.contains($0) }) {
            throw ServiceError.invalid(
                unknown, "unknown field '\(unknown)': the fields are name, username, bio, picture")
        }
        guard let doc = account.profileDoc,
            let record = try storeCall({ () throws(StoreError) in try store.entity(in: doc, id: doc.hex) })
        else { throw ServiceError.notFound("no profile") }
        let current = Views.fields(record)
        var write = EntityWrite<ProfileFields>.update(doc.hex)
        for (name, value) in body.sorted(by: { $0.key < $1.key }) {
            var checked: JSONValue
            switch name {
            case "username":
                guard let text = value.stringValue else {
                    throw ServiceError.invalid("username", "a username is 1–32 letters, digits, '.', '_' or '-'")
                }
                checked = .string(try AccountService.checkUsername(text))
            case "picture":
                guard value.isNull || value.stringValue != nil else {
                    throw ServiceError.invalid("picture", "'picture' is a photo id or null")
                }
                if let id = value.stringValue {
                    guard FieldRule.isLowerHex(id, count: 64), hasBlob(id) else {
                        throw ServiceError.invalid(
                            "picture", "no photo '\(id.prefix(80))' on this device: add it with POST /v1/photos first")
                    }
                }
                checked = value
            default:
                guard let rule = ProfileFields.schema.requestRules[name] else { continue }
                checked = try rule.check(name, value)
            }
            if (current[name] ?? .null) != checked { write.set(name, to: checked, old: current[name]) }
        }
        if !write.changes.isEmpty { try commit(doc, write.changes, summary: "profile changed") }
        return try profile()
    }

    /// After ops of an outbox were stored (`Engine+Ingest`): the friendship's end, reactions
    /// on this person's posts, and new posts as events.
    func socialFollows(_ record: Store.DocumentRecord, stored: [SignedOp], bodies: [OpBody]) {
        guard let me, let author = try? PublicKey(bytes: record.owner), author != me else { return }
        friendshipFollows(record)
        reactionsFollow(record, ops: stored, bodies: bodies)
        // A deleted post's photos go when nothing else names them.
        let deletesAPost = bodies.contains { body in
            body.changes.contains {
                if case .set(_, .post, FieldSpec.deleted.name, .bool(true), _) = $0 {
                    return true
                } else {
                    return false
                }
            }
        }
        if deletesAPost {
            collectPhotos()
        }
        for body in bodies {
            for change in body.changes {
                guard case .create(_, .post) = change else { continue }
                events.publish(
                    Event(
                        type: "post", time: RFC3339.string(ms: body.timeMs), doc: record.id.hex, docKind: "outbox",
                        author: author.humanID, summary: "\(displayName(of: author)) posted"))
            }
        }
    }

    /// The photo id a card shows as its owner's picture.
    func cardPicture(_ card: Store.DocumentRecord) -> String? {
        guard let root = try? store.entity(in: card.id, id: card.id.hex), !root.deleted else { return nil }
        return Views.fields(root)[CardFields.picture]
    }
}

extension Engine {
    /// The built-in pin categories and their emoji (`GET /v1/categories`); a place may carry
    /// any other category name too.
    static let builtInCategories: [(name: String, emoji: String)] = [
        ("to eat", "🍴"), ("to drink", "🍸"), ("to shop", "🛍️"), ("to see", "👀"), ("to stay", "🛏️"),
    ]

    static let categoriesPreference = "pin.categories"

    /// The pin categories: the built-in ones and this person's own, with their emoji.
    func pinCategories() -> [(name: String, emoji: String)] {
        var out = Self.builtInCategories
        if let text = try? store.preference(Self.categoriesPreference),
            case .object(let own)? = try? JSONDecoder().decode(JSONValue.self, from: Data(text.utf8))
        {
            for (name, emoji) in own.sorted(by: { $0.key < $1.key }) {
                guard let emoji = emoji.stringValue else { continue }
                out.removeAll { $0.name == name }
                out.append((name, emoji))
            }
        }
        return out
    }

    /// `POST /v1/categories` (`{"name", "emoji"}`): a category of this person's own, or a new
    /// emoji for one (built-in ones included).
    func addPinCategory(_ body: [String: JSONValue]) throws -> CategoryList {
        if let unknown = body.keys.sorted().first(where: { $0 != "name" && $0 != "emoji" }) {
            throw ServiceError.invalid(unknown, "unknown field '\(unknown)': the fields are name and emoji")
        }
        let name = (body["name"]?.stringValue ?? "").trimmingCharacters(in: .whitespaces)
        guard !name.isEmpty, name.utf8.count <= 3_200, name.count <= 50 else {
            throw ServiceError.invalid("name", "a category's name is 1–50 characters")
        }
        guard let emoji = body["emoji"]?.stringValue, (1...4).contains(emoji.count), emoji.utf8.count <= 32,
            !emoji.contains(where: { $0.isWhitespace })
        else { throw ServiceError.invalid("emoji", "'emoji' is one emoji (at most 4 characters, no spaces)") }
        var own = [String: JSONValue]()
        if let text = try? store.preference(Self.categoriesPreference),
            case .object(let held)? = try? JSONDecoder().decode(JSONValue.self, from: Data(text.utf8))
        {
            own = held
        }
        guard own.count < 100 || own[name] != nil else {
            throw ServiceError.invalid("name", "you have 100 categories of your own, the most there can be")
        }
        own[name] = .string(emoji)
        try storeCall { () throws(StoreError) in
            try store.setPreference(Self.categoriesPreference, JSONValue.object(own).jsonText)
        }
        return CategoryList(categories: pinCategories().map { PinCategory(name: $0.name, emoji: $0.emoji) })
    }

    /// `POST /v1/places` with `fromPost` (a post id) or `fromFriend` (a public id) and
    /// `placeId` (one of the places they share): the body filled with the copied place, which
    /// remembers where it came from (`origin`).
    func filledFromFriends(_ body: [String: JSONValue]) throws -> [String: JSONValue] {
        var out = body
        if let reference = body["fromPost"], !reference.isNull {
            out["fromPost"] = nil
            guard let id = reference.stringValue else {
                throw ServiceError.invalid("fromPost", "'fromPost' is a post id")
            }
            let post = try self.post(id)
            guard let place = post.place, let latitude = place.latitude, let longitude = place.longitude else {
                throw ServiceError.invalid("fromPost", "post \(id.prefix(12)) names no place")
            }
            out["name"] = out["name"] ?? .string(place.name ?? "Place from \(post.authorName ?? "a friend")'s post")
            out["latitude"] = .double(latitude)
            out["longitude"] = .double(longitude)
            if let address = place.address { out["address"] = out["address"] ?? .string(address) }
            if let gid = place.gazetteerId { out["gazetteerId"] = out["gazetteerId"] ?? .string(gid) }
            out["origin"] = .string("post:\(post.id)")
            return out
        }
        guard let friendRef = body["fromFriend"], !friendRef.isNull else { return body }
        out["fromFriend"] = nil
        guard let text = friendRef.stringValue else {
            throw ServiceError.invalid("fromFriend", "'fromFriend' is a friend's public id")
        }
        guard let wanted = body["placeId"]?.stringValue else {
            throw ServiceError.invalid("placeId", "'placeId' names one of the places the friend shares")
        }
        out["placeId"] = nil
        let profile = try friendProfile(text)
        guard
            let shared = profile.places.first(where: {
                $0.id == wanted || $0.id.hasSuffix(".\(wanted)") || $0.name == wanted
            })
        else { throw ServiceError.notFound("\(profile.friend.name ?? text) shares no place '\(wanted.prefix(80))'") }
        out["name"] = out["name"] ?? .string(shared.name)
        out["latitude"] = .double(shared.latitude)
        out["longitude"] = .double(shared.longitude)
        if let address = shared.address { out["address"] = out["address"] ?? .string(address) }
        if !shared.categories.isEmpty {
            out["categories"] = out["categories"] ?? .array(shared.categories.map(JSONValue.string))
        }
        if let gid = shared.gazetteerId { out["gazetteerId"] = out["gazetteerId"] ?? .string(gid) }
        out["origin"] = .string("friend:\(profile.friend.id)")
        return out
    }

    /// `GET /v1/friends/{id}/map?category=C&format=geojson`: the places a friend shares, as a
    /// list or a GeoJSON FeatureCollection.
    func friendMap(_ reference: String, query: [String: String]) throws -> (places: [SharedFavorite], geoJSON: Bool) {
        let profile = try friendProfile(reference)
        var places = profile.places
        if let category = query["category"] {
            places = places.filter { $0.categories.contains { $0.caseInsensitiveCompare(category) == .orderedSame } }
        }
        switch query["format"] {
        case nil, "json": return (places, false)
        case "geojson": return (places, true)
        case let other?:
            throw ServiceError.invalid("format", "'format' is json or geojson, not '\(other.prefix(40))'")
        }
    }

    static func geoJSON(_ places: [SharedFavorite], categories: [(name: String, emoji: String)]) -> JSONValue {
        .object([
            "type": .string("FeatureCollection"),
            "features": .array(
                places.map { place in
                    var properties: [String: JSONValue] = [
                        "id": .string(place.id), "name": .string(place.name),
                        "categories": .array(place.categories.map(JSONValue.string)),
                    ]
                    if let address = place.address { properties["address"] = .string(address) }
                    if let emoji = place.categories.lazy.compactMap({ name in
                        categories.first { $0.name == name }?.emoji
                    }).first {
                        properties["emoji"] = .string(emoji)
                    }
                    return .object([
                        "type": .string("Feature"),
                        "geometry": .object([
                            "type": .string("Point"),
                            "coordinates": .array([.double(place.longitude), .double(place.latitude)]),
                        ]),
                        "properties": .object(properties),
                    ])
                }),
        ])
    }
}

extension Engine {
    /// An itinerary held under an id that is provably `peer`'s outbox to this person or
    /// `peer`'s card was planted there by someone else (a contact can offer an itinerary under
    /// any id): it is dropped, so the real document can be taken (`Protocol/sync.md` §7.3).
    public func releaseSquatted(_ doc: DocumentID, as kind: ReplicaDocument.Kind, from peer: PublicKey) async -> Bool {
        guard let me, let held = try? store.document(doc), held.kind == .itinerary, held.owner != peer.bytes else {
            return false
        }
        let provable =
            switch kind {
            case .outbox: doc == Outboxes.documentID(author: peer.bytes, reader: me.bytes)
            case .card: doc == CardService.documentID(owner: peer.bytes)
            case .itinerary: false
            }
        guard provable else { return false }
        do { try store.purgeDocument(doc) } catch {
            logger.error("dropping a planted itinerary failed", metadata: ["doc.id": "\(doc)", "error": "\(error)"])
            return false
        }
        forgetDocumentState()
        logger.warning(
            "dropped an itinerary planted under someone's outbox or card id",
            metadata: ["doc.id": "\(doc)", "peer.id": "\(peer.humanID.prefix(7))"])
        return true
    }
}
