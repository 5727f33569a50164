import PlacesAPI
import PlacesControl
import PlacesModel

/// The control API's message routes (issue 32): sending, conversations and their marks,
/// deleting, muting and blocking. Every route is listed in `Protocol/control-api.yaml`.
enum MessageRoutes {
    /// The first path segments this table answers.
    static let sections: Set<String> = ["messages", "conversations", "blocked"]

    /// `path` is the request's path after `/v1`.
    static func route(_ engine: Engine, _ r: ControlRequest, _ path: [String]) async throws -> ControlResponse? {
        // A trip's conversation (`trip:` and an itinerary id) is read on its own.
        if path.count == 3, path[0] == "conversations", path[1].hasPrefix(Conversation.tripPrefix) {
            switch (r.method, path[2]) {
            case ("GET", "messages"):
                return .written(try await engine.tripConversationMessages(path[1], query: r.query))
            case ("POST", "read"): return .encoding(try await engine.markTripConversationRead(path[1]))
            default: break
            }
        }
        switch (r.method, path.count, path[0]) {
        case ("POST", 1, "messages"):
            return .encoding(try await engine.sendMessage(try Router.object(r)), status: 201)
        case ("DELETE", 2, "messages"):
            try await engine.deleteMessage(path[1], query: r.query)
            return .json(status: 204, body: [])
        case ("GET", 1, "conversations"): return .written(try await engine.conversations())
        case ("GET", 3, "conversations") where path[2] == "messages":
            return .written(try await engine.conversationMessages(path[1], query: r.query))
        case ("POST", 3, "conversations") where path[2] == "read":
            return .encoding(try await engine.markConversationRead(path[1]))
        case ("PUT", 3, "conversations") where path[2] == "mute":
            return .encoding(try await engine.setMuted(path[1], true))
        case ("DELETE", 3, "conversations") where path[2] == "mute":
            return .encoding(try await engine.setMuted(path[1], false))
        case ("GET", 1, "blocked"): return .encoding(try await engine.blockedList())
        case ("PUT", 2, "blocked"): return .encoding(try await engine.block(path[1]))
        case ("DELETE", 2, "blocked"):
            try await engine.unblock(path[1])
            return .json(status: 204, body: [])
        default: return nil
        }
    }
}
