import Foundation
import PlacesAPI
import PlacesAccess
import PlacesCrypto
import PlacesModel
import PlacesStore
import PlacesSync

// The profile's edits and what follows a friend's outbox ops (Engine+Friends has the friendships).
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
        messagesFollow(record, bodies: bodies)
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
        for body in bodies where body.changes.contains(where: { $0.kind == .out }) && !isBlockedForOut(author) {
            events.publish(
                Event(
                    type: "out", time: RFC3339.string(ms: body.timeMs), doc: record.id.hex, docKind: "outbox",
                    author: author.humanID, summary: "\(displayName(of: author)) changed their “I'm out” note"))
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
