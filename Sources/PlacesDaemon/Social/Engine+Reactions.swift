import Foundation
import PlacesAPI
import PlacesAccess
import PlacesCrypto
import PlacesModel
import PlacesStore

/// What a post's reactions add up to: distinct people who like it, and its live comments.
struct ReactionTally {
    var likers = Set<String>()
    var comments = [Store.EntityRecord]()
}

/// Likes and comments (`Protocol/sync.md` §7.3). A reader writes their reaction, signed, into
/// their outbox to the post's author; the author's daemon checks the reader is in the post's
/// audience and the signature, and copies it — with the reader's signature — into the journal
/// and every outbox the post went to. Every daemon shows only reactions whose signature
/// verifies, so the counts are the same on every device that sees the post.
extension Engine {
    // MARK: Reacting

    /// `PUT /v1/posts/{id}/like` (`liked` true) and `DELETE …/like`.
    func setLike(_ postID: String, liked: Bool) throws -> Post {
        guard let me else { throw ServiceError.loggedOut }
        let post = try postRecord(postID)
        guard let ref = postRef(post) else { throw ServiceError.notFound("no post '\(post.id)' that you can see") }
        if liked {
            try writeReaction(post: post, id: Outboxes.likeID(of: ref, by: me.bytes), type: "like", text: "")
        } else {
            try retractReaction(post: post, id: Outboxes.likeID(of: ref, by: me.bytes))
            // A like from before reactions named their post's author has the older id.
            try retractReaction(post: post, id: Outboxes.legacyLikeID(post: ref.id, by: me.bytes))
        }
        return try postView(post)
    }

    /// `POST /v1/posts/{id}/comments`.
    func addComment(_ postID: String, _ body: [String: JSONValue]) throws -> PostComment {
        guard let me else { throw ServiceError.loggedOut }
        if let unknown = body.keys.sorted().first(where: { $0 != "text" }) {
            throw ServiceError.invalid(unknown, "unknown field '\(unknown)': the field is text")
        }
        guard let raw = body["text"]?.stringValue else {
            throw ServiceError.invalid("text", "'text' (the comment) is required")
        }
        let text = raw.trimmingCharacters(in: .whitespacesAndNewlines)
        guard !text.isEmpty else { throw ServiceError.invalid("text", "a comment cannot be empty") }
        guard text.utf8.count <= 64 * Self.maxPostCharacters, text.count <= Self.maxPostCharacters else {
            throw ServiceError.invalid("text", "a comment is at most \(Self.maxPostCharacters) characters")
        }
        let post = try postRecord(postID)
        let id = HexCoding.encode(SecureRandom.bytes(16))
        let at = try writeReaction(post: post, id: id, type: "comment", text: text)
        let name = displayName(of: me)
        return PostComment(
            id: id, author: me.humanID, authorName: name == String(me.humanID.prefix(7)) ? nil : name, text: text,
            createdAt: at)
    }

    /// `DELETE /v1/posts/{id}/comments/{commentId}`: by the comment's author or the post's.
    func deleteComment(_ postID: String, comment commentID: String) throws {
        guard let me else { throw ServiceError.loggedOut }
        let post = try postRecord(postID)
        let tally = try postRef(post).flatMap { try reactionTallies(for: [post])[$0] } ?? ReactionTally()
        guard let comment = tally.comments.first(where: { $0.id == commentID }) else {
            throw ServiceError.notFound("no comment '\(commentID.prefix(40))' on this post")
        }
        let isAuthor = post.doc == journalID(me)
        guard Views.fields(comment)[ReactionFields.by] == me.hex || isAuthor else {
            throw ServiceError(.forbidden, "only the comment's author or the post's author can delete a comment")
        }
        try retractReaction(post: post, id: commentID)
    }

    /// `GET /v1/posts/{id}/comments`: oldest first.
    func comments(_ postID: String) throws -> CommentList {
        try requireLogin()
        let post = try postRecord(postID)
        let tally = try postRef(post).flatMap { try reactionTallies(for: [post])[$0] } ?? ReactionTally()
        return CommentList(
            comments: tally.comments.compactMap { record in
                let f = Views.fields(record)
                guard let by = f[ReactionFields.by].flatMap(Engine.publicKey(hex:)) else { return nil }
                let name = displayName(of: by)
                return PostComment(
                    id: record.id, author: by.humanID, authorName: name == String(by.humanID.prefix(7)) ? nil : name,
                    text: f[ReactionFields.text] ?? "", createdAt: f[ReactionFields.at] ?? "")
            }.sorted { ($0.createdAt, $0.id) < ($1.createdAt, $1.id) })
    }

    func journalID(_ key: PublicKey) -> DocumentID { Outboxes.documentID(author: key.bytes, reader: key.bytes) }

    /// Writes this person's signed reaction: on their own post straight into the journal and
    /// the outboxes it went to; on a friend's, into their outbox to that friend. Returns its time.
    @discardableResult
    func writeReaction(post: Store.EntityRecord, id: String, type: String, text: String) throws -> String {
        guard let me else { throw ServiceError.loggedOut }
        guard let author = (try? store.document(post.doc)).flatMap({ try? PublicKey(bytes: $0.owner) }) else {
            throw ServiceError.notFound("no post '\(post.id)' that you can see")
        }
        let at = RFC3339.string(ms: RFC3339.nowMs())
        // The person key signs where this device holds it; another device signs itself and
        // shows its certificate.
        guard let signer = account.personKey ?? identity else { throw ServiceError.loggedOut }
        let cert = account.personKey == nil ? account.certificate?.base64url : nil
        let signature = signer.sign(
            Outboxes.reactionMessage(
                postAuthor: author.bytes, post: post.id, reaction: id, type: type, text: text, at: at))
        var fields: [String: JSONValue] = [
            ReactionFields.post.name: .string(post.id), ReactionFields.by.name: .string(me.hex),
            ReactionFields.type.name: .string(type), ReactionFields.text.name: text.isEmpty ? .null : .string(text),
            ReactionFields.at.name: .string(at),
            ReactionFields.signature.name: .string(HexCoding.encode(signature.bytes)),
            ReactionFields.postAuthor.name: .string(author.hex),
        ]
        if let cert { fields[ReactionFields.cert.name] = .string(cert) }
        if author == me {
            try copyReaction(id: id, fields: fields, live: true, post: post.id)
        } else {
            let outbox = Outboxes.documentID(author: me.bytes, reader: author.bytes)
            guard (try? store.document(outbox)) != nil else {
                throw ServiceError.notFound("no post '\(post.id)' that you can see")
            }
            try commit(outbox, reactionChanges(in: outbox, id: id, fields: fields, live: true), summary: "reacted")
        }
        return at
    }

    /// Takes back this person's reaction (an unlike, a comment deleted), or — on their own
    /// post — anyone's.
    func retractReaction(post: Store.EntityRecord, id: String) throws {
        guard let me else { throw ServiceError.loggedOut }
        guard let author = (try? store.document(post.doc)).flatMap({ try? PublicKey(bytes: $0.owner) }) else { return }
        if author == me {
            try copyReaction(id: id, fields: [:], live: false, post: post.id)
            return
        }
        let outbox = Outboxes.documentID(author: me.bytes, reader: author.bytes)
        guard let held = try? store.entity(in: outbox, id: id), !held.deleted else { return }
        try commit(outbox, [.tombstone(entity: id, kind: .reaction)], summary: "reaction taken back")
    }

    /// The changes that make entity `id` of `doc` hold `fields` (live) or be deleted; empty
    /// when it already does.
    func reactionChanges(in doc: DocumentID, id: String, fields: [String: JSONValue], live: Bool) -> [Change] {
        let held = try? store.entity(in: doc, id: id)
        guard live else {
            guard let held, !held.deleted else { return [] }
            return [.tombstone(entity: id, kind: .reaction)]
        }
        let current = held.map(Views.fields) ?? [:]
        var write = held == nil ? EntityWrite<ReactionFields>.create(id) : .update(id)
        if let held, held.deleted { write.set(FieldSpec.deleted.name, to: .bool(false), old: .bool(true)) }
        for (name, value) in fields.sorted(by: { $0.key < $1.key }) where (current[name] ?? .null) != value {
            guard !(held == nil && value.isNull) else { continue }
            write.set(name, to: value, old: current[name])
        }
        return write.changes
    }

    /// The author's copy of a reaction on their post `post`: into the journal and every
    /// outbox the post went to, so every reader sees it (or sees it gone).
    func copyReaction(id: String, fields: [String: JSONValue], live: Bool, post: String) throws {
        guard let me else { throw ServiceError.loggedOut }
        var edits = [Store.Edit]()
        let readers = try storeCall { () throws(StoreError) in try store.readers(of: post) }
        let docs =
            [journalID(me)]
            + readers.sorted(by: { $0.lexicographicallyPrecedes($1) }).map {
                Outboxes.documentID(author: me.bytes, reader: $0)
            }
        for doc in docs {
            guard (try? store.document(doc)) != nil else { continue }
            let changes = reactionChanges(in: doc, id: id, fields: fields, live: live)
            if !changes.isEmpty { edits.append(Store.Edit(doc: doc, changes: changes, timeMs: RFC3339.nowMs())) }
        }
        guard !edits.isEmpty else { return }
        try commitEdits(edits, summary: live ? "reaction shown" : "reaction removed")
    }

    // MARK: Counting

    /// Whether a reaction record is well formed and signed by its `by` (or by a device `by`
    /// certified, whose certificate it carries) for a post by `author`.
    func reactionIsValid(_ record: Store.EntityRecord, postAuthor author: PublicKey) -> Bool {
        let f = Views.fields(record)
        guard let post = f[ReactionFields.post], let byHex = f[ReactionFields.by],
            let by = Engine.publicKey(hex: byHex), let type = f[ReactionFields.type], let at = f[ReactionFields.at],
            let sigHex = f[ReactionFields.signature], let sigBytes = HexCoding.decode(sigHex),
            let signature = try? Signature(bytes: sigBytes)
        else { return false }
        // The post it names is the author's (absent only on reactions stored before the field).
        // A like's id is fixed by its post and its author: one per person.
        if let postAuthor = f[ReactionFields.postAuthor] {
            guard postAuthor == author.hex else { return false }
            let id = Outboxes.likeID(of: PostRef(author: author, id: post), by: by.bytes)
            if type == "like", record.id != id { return false }
        } else if type == "like", record.id != Outboxes.legacyLikeID(post: post, by: by.bytes) {
            return false
        }
        if type == "comment", (f[ReactionFields.text] ?? "").isEmpty { return false }
        let key = "\(record.doc.hex)/\(record.id)/\(record.dataJSON)"
        if social.isVerifiedReaction(key) { return true }
        let message = Outboxes.reactionMessage(
            postAuthor: author.bytes, post: post, reaction: record.id, type: type, text: f[ReactionFields.text] ?? "",
            at: at)
        var signer = by
        if let text = f[ReactionFields.cert] {
            // A device of the reactor signed: its certificate must be by the reactor.
            guard let cert = try? DeviceCertificate(base64url: text), cert.person == by else { return false }
            signer = cert.device
        }
        guard signer.verify(signature, for: message) else { return false }
        social.noteVerifiedReaction(key)
        return true
    }

    /// The likes and comments of each of `posts`, as this person sees them: on their own posts,
    /// the journal's copies; on a friend's, that friend's copies, with this person's own
    /// reactions from their outbox to the friend taking precedence for their own (so a like
    /// shows at once) unless the author removed it. Keyed by post (author and id): the
    /// reactions of one author's outboxes never count for another author's post with the
    /// same id.
    func reactionTallies(for posts: [Store.EntityRecord]) throws -> [PostRef: ReactionTally] {
        guard let me, !posts.isEmpty else { return [:] }
        var byDoc = [DocumentID: [String]]()
        for post in posts { byDoc[post.doc, default: []].append(post.id) }
        var out = [PostRef: ReactionTally]()
        for (doc, ids) in byDoc {
            guard let author = (try? store.document(doc)).flatMap({ try? PublicKey(bytes: $0.owner) }) else { continue }
            var docs = [doc]
            let own = author == me ? nil : Outboxes.documentID(author: me.bytes, reader: author.bytes)
            if let own { docs.append(own) }
            let records = try storeCall { () throws(StoreError) in try store.reactions(to: ids, in: docs) }
            // The author's copies by id, then this person's own reactions.
            var copies = [String: Store.EntityRecord]()
            var mine = [String: Store.EntityRecord]()
            for record in records {
                if record.doc == own { mine[record.id] = record } else { copies[record.id] = record }
            }
            var chosen = [String: Store.EntityRecord]()
            for (id, record) in copies { chosen[id] = record }
            for (id, record) in mine {
                let f = Views.fields(record)
                guard f[ReactionFields.by] == me.hex else { continue }
                if let copy = copies[id], copy.deleted, f[ReactionFields.type] == "comment" { continue }
                chosen[id] = record
            }
            for record in chosen.values where !record.deleted {
                guard reactionIsValid(record, postAuthor: author) else { continue }
                let f = Views.fields(record)
                guard let post = f[ReactionFields.post], ids.contains(post), let by = f[ReactionFields.by] else {
                    continue
                }
                let ref = PostRef(author: author, id: post)
                if f[ReactionFields.type] == "like" {
                    out[ref, default: ReactionTally()].likers.insert(by)
                } else {
                    out[ref, default: ReactionTally()].comments.append(record)
                }
            }
        }
        return out
    }

    // MARK: From friends

    /// After ops of `peer`'s outbox to this person were stored: their reactions on this
    /// person's posts are checked (the post is live, they are in its audience, the signature
    /// holds) and copied to everyone the post went to, or taken back; the rest is dropped
    /// with a logged reason. Notifies likes and comments.
    func reactionsFollow(_ doc: Store.DocumentRecord, ops: [SignedOp], bodies: [OpBody]) {
        guard let me, let reactor = try? PublicKey(bytes: doc.owner), reactor != me else { return }
        // A former friend's reactions (ops of a session opened while they were one) are not
        // passed on.
        guard friendState(reactor) == .friend else {
            logger.info(
                "dropped reactions from someone who is not a friend",
                metadata: ["peer.id": "\(reactor.humanID.prefix(7))"])
            return
        }
        var touched = Set<String>()
        for body in bodies {
            for change in body.changes where change.kind == .reaction { touched.insert(change.entity) }
        }
        let journal = journalID(me)
        for id in touched.sorted() {
            guard let record = try? store.entity(in: doc.id, id: id) else { continue }
            let f = Views.fields(record)
            guard
                let postID = f[ReactionFields.post]
                    ?? (try? store.entity(in: journal, id: id)).flatMap({
                        $0.map(Views.fields)?[ReactionFields.post]
                    })
            else { continue }
            // A reaction names its post by author and id: one on another author's post with
            // this id is not for this person's post.
            if let postAuthor = f[ReactionFields.postAuthor], postAuthor != me.hex {
                logger.warning(
                    "dropped a reaction to another author's post",
                    metadata: ["peer.id": "\(reactor.humanID.prefix(7))"])
                continue
            }
            guard let post = try? store.entity(in: journal, id: postID), post.kind == .post, !post.deleted else {
                logger.info(
                    "dropped a reaction to a post that is not live here",
                    metadata: ["peer.id": "\(reactor.humanID.prefix(7))"])
                continue
            }
            let readers = (try? store.readers(of: postID)) ?? []
            guard readers.contains(reactor.bytes) else {
                logger.warning(
                    "dropped a reaction from someone outside the post's audience",
                    metadata: ["peer.id": "\(reactor.humanID.prefix(7))"])
                continue
            }
            // A reaction id belongs to whoever reacted first under it: no one may overwrite or
            // delete another person's like or comment by reusing its id.
            let held = try? store.entity(in: journal, id: id)
            if let held, Views.fields(held)[ReactionFields.by] != reactor.hex {
                logger.warning(
                    "dropped a reaction that reuses another person's reaction id",
                    metadata: ["peer.id": "\(reactor.humanID.prefix(7))"])
                continue
            }
            if record.deleted {
                guard held != nil else { continue }
                try? copyReaction(id: id, fields: [:], live: false, post: postID)
                continue
            }
            guard f[ReactionFields.by] == reactor.hex, reactionIsValid(record, postAuthor: me) else {
                logger.warning(
                    "dropped a reaction whose signature or author does not hold",
                    metadata: ["peer.id": "\(reactor.humanID.prefix(7))"])
                continue
            }
            // A comment the author deleted stays deleted.
            if let copy = try? store.entity(in: journal, id: id), copy.deleted, f[ReactionFields.type] == "comment" {
                continue
            }
            var fields = f
            fields[FieldSpec.deleted.name] = nil
            let before = try? store.entity(in: journal, id: id)
            do { try copyReaction(id: id, fields: fields, live: true, post: postID) } catch {
                logger.error("copying a reaction failed", metadata: ["error": "\(error)"])
                continue
            }
            if before == nil || before?.deleted == true {
                let type = f[ReactionFields.type] == "like" ? "like" : "comment"
                notify(
                    type, actor: reactor, subject: PostRef(author: me, id: postID).routeID,
                    dedup: "\(type):\(id):\(record.updatedMs ?? 0)")
                events.publish(
                    Event(
                        type: type, time: RFC3339.string(ms: RFC3339.nowMs()), doc: journal.hex, docKind: "outbox",
                        author: reactor.humanID,
                        summary: "\(displayName(of: reactor)) \(type == "like" ? "liked" : "commented on") your post"))
            }
        }
    }
}
