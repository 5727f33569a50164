import Foundation

/// Two people for the browser tests: friends (posts and comments reach each other) and
/// co-members of itineraries, through the daemons' sockets as their CLIs would do it.
extension PeerNode {
    /// Connects to `other` and makes the two friends: a request from this side, accepted on
    /// the other, both sides showing `friend`.
    public func befriend(_ other: PeerNode) throws {
        try addPeer(other)
        try json("POST", "/v1/friends", #"{"id":"\#(other.id)"}"#)
        var invitation = ""
        try waitUntil("\(other.name) has \(name)'s friend request") {
            let list = try other.json("GET", "/v1/invitations")["invitations"] as? [[String: Any]] ?? []
            invitation = list.first { $0["kind"] as? String == "friend" }?["id"] as? String ?? ""
            return !invitation.isEmpty
        }
        try other.json("POST", "/v1/invitations/\(invitation)/accept")
        try waitUntil("\(name) and \(other.name) are friends on both sides") {
            try [self, other].allSatisfy { node in
                let friends = try node.json("GET", "/v1/friends")["friends"] as? [[String: Any]] ?? []
                return friends.first?["state"] as? String == "friend"
            }
        }
    }

    /// Shares the itinerary `id` with `other` (who trusts this side, so no invitation is
    /// needed) and waits until `other` holds it.
    public func share(itinerary id: String, with other: PeerNode, role: String = "editor") throws {
        try other.trust(self)
        try json("POST", "/v1/itineraries/\(id)/share", #"{"member":"\#(other.id)","role":"\#(role)"}"#)
        try waitUntil("\(other.name) holds the shared itinerary", timeout: 30) {
            try other.send("GET", "/v1/itineraries/\(id)").ok
        }
    }

    /// Creates an itinerary and answers its id.
    public func createItinerary(_ fields: String) throws -> String {
        guard let id = try json("POST", "/v1/itineraries", fields)["id"] as? String else {
            throw HarnessError("\(name): no itinerary id")
        }
        return id
    }
}

/// JSON text for a request body from a dictionary (keys sorted, strings escaped).
public func jsonText(_ object: Any) -> String {
    guard let data = try? JSONSerialization.data(withJSONObject: object, options: [.sortedKeys]) else { return "{}" }
    return String(decoding: data, as: UTF8.self)
}
