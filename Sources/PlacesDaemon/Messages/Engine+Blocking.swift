import Foundation
import PlacesAPI
import PlacesCrypto
import PlacesModel
import PlacesStore

/// Quiet and control (issue 32): muting a conversation and blocking a person. Both are
/// settings, so they follow the person to their other devices (`Protocol/devices.md` §4.4).
/// A blocked person is not told: their outbox ops are dropped at ingest (messages and "out"
/// notes alike), nothing of theirs is shown, and nothing new is written to them.
extension Engine {
    static let blockedPrefix = "blocked."
    static let mutedPrefix = "message.muted."
    /// People a person may block.
    static let maxBlocked = 10_000

    /// Whether this person blocked `key` (a person key). For every feature that reads what
    /// others write to this person ("out" notes among them).
    public func isBlocked(_ key: PublicKey) -> Bool {
        (try? store.preference(Self.blockedPrefix + key.hex)) != nil
    }

    /// Whether the conversation `id` is muted (no notifications for its messages).
    func isMuted(_ id: String) -> Bool { (try? store.preference(Self.mutedPrefix + id)) != nil }

    /// `PUT /v1/conversations/{id}/mute` (`muted` true) and `DELETE …/mute`.
    func setMuted(_ id: String, _ muted: Bool) throws -> JSONValue {
        let conversation =
            id.hasPrefix(Conversation.tripPrefix) ? try tripConversation(id).id : try self.conversation(id).id
        let value = muted ? RFC3339.string(ms: RFC3339.nowMs()) : nil
        try storeCall { () throws(StoreError) in try store.setPreference(Self.mutedPrefix + conversation, value) }
        return .object(["id": .string(conversation), "muted": .bool(muted)])
    }

    /// The person a `/v1/blocked/{person}` route names: anyone's person id but this person's.
    func blockTarget(_ text: String) throws -> PublicKey {
        guard let me else { throw ServiceError.loggedOut }
        guard let key = try? HumanID.decode(text) else {
            throw ServiceError.invalid("person", "'\(text.prefix(80))' is not a person id")
        }
        guard key != me else { throw ServiceError.invalid("person", "you cannot block yourself") }
        return key
    }

    /// `PUT /v1/blocked/{person}`: nothing of theirs reaches this person from now on.
    func block(_ text: String) throws -> JSONValue {
        let key = try blockTarget(text)
        if !isBlocked(key) {
            let held = try storeCall { () throws(StoreError) in try store.preferences(withPrefix: Self.blockedPrefix) }
            guard held.count < Self.maxBlocked else {
                throw ServiceError.invalid("person", "you blocked \(Self.maxBlocked) people, the most there can be")
            }
            let since = RFC3339.string(ms: RFC3339.nowMs())
            try storeCall { () throws(StoreError) in try store.setPreference(Self.blockedPrefix + key.hex, since) }
            logger.info("blocked a person", metadata: ["peer.id": "\(key.humanID.prefix(7))"])
        }
        return try blockedJSON(key)
    }

    /// `DELETE /v1/blocked/{person}`. What they wrote meanwhile may arrive once unblocked.
    func unblock(_ text: String) throws {
        let key = try blockTarget(text)
        try storeCall { () throws(StoreError) in try store.setPreference(Self.blockedPrefix + key.hex, nil) }
    }

    /// `GET /v1/blocked`.
    func blockedList() throws -> JSONValue {
        try requireLogin()
        let held = try storeCall { () throws(StoreError) in try store.preferences(withPrefix: Self.blockedPrefix) }
        let people = held.keys.sorted().compactMap {
            Engine.publicKey(hex: String($0.dropFirst(Self.blockedPrefix.count)))
        }
        return .object(["blocked": .array(try people.map(blockedJSON))])
    }

    func blockedJSON(_ key: PublicKey) throws -> JSONValue {
        let since = try storeCall { () throws(StoreError) in try store.preference(Self.blockedPrefix + key.hex) }
        guard case .object(var o) = personJSON(key) else { return .null }
        o["since"] = since.map(JSONValue.string) ?? .null
        return .object(o)
    }
}
