import ArgumentParser
import Foundation

/// A contact as `GET /v1/contacts` lists it, with the discover fields (username, bio, how
/// many favorites they share); fields an older daemon leaves out read as unknown.
struct ContactRow: Decodable, Sendable {
    var id: String
    var name: String?
    var username: String?
    var bio: String?
    var sharedFavorites: Int?
    var addedAt: String?
}

/// `{"contacts": [...]}`.
struct ContactRows: Decodable, Sendable {
    var contacts: [ContactRow]
}

/// `GET /v1/contacts/{personId}`: a person's profile and the favorites they share.
struct ContactProfile: Decodable, Sendable {
    struct SharedFavorite: Decodable, Sendable {
        /// The discover id, `place:<owner 64 hex>.<32 hex>`.
        var id: String
        var name: String
        var latitude: Double
        var longitude: Double
        var address: String?
        var categories: [String]?
        var gazetteerId: String?
    }
    var id: String
    var name: String?
    var username: String?
    var bio: String?
    var coMember: Bool?
    var contact: Bool?
    var favorites: [SharedFavorite]
}

/// Prints the contacts table: name, username, shared favorites, id, since.
func printContacts(_ list: ContactRows) {
    guard !list.contacts.isEmpty else { return print("no contacts yet") }
    var table = Table("NAME", "USERNAME", "SHARED", "ID", "SINCE", alignments: [.left, .left, .right])
    for contact in list.contacts {
        table.append(
            contact.name ?? "—", contact.username.map { "@" + $0 } ?? "",
            contact.sharedFavorites.map(String.init) ?? "",
            contact.id, contact.addedAt.map(Format.time) ?? "")
    }
    table.print()
}

extension ContactsGroup {
    /// `places contacts show ID`.
    struct Show: ParsableCommand {
        static let configuration = CommandConfiguration(
            abstract: "Show a contact's profile (name, username, bio) and the favorites they share with you.")
        @OptionGroup var global: GlobalOptions
        @Argument(help: "Their public id, name or username (a unique start will do).") var id: String

        func run() throws {
            let person = try resolve(id)
            let reply = try global.api.get(Target.v1("contacts", person))
            if global.json { return printRaw(reply) }
            let profile = try reply.decode(ContactProfile.self)
            var fields = Fields()
            fields["name"] = profile.name ?? "—"
            fields["username"] = profile.username.map { "@" + $0 }
            fields["bio"] = profile.bio
            fields["id"] = profile.id
            var relation: [String] = []
            if profile.contact == true { relation.append("contact") }
            if profile.coMember == true { relation.append("shares an itinerary with you") }
            fields["relation"] = relation.isEmpty ? nil : relation.joined(separator: ", ")
            fields["shared favorites"] = String(profile.favorites.count)
            fields.print()
            guard !profile.favorites.isEmpty else { return }
            print("")
            var table = Table("NAME", "LOCATION", "CATEGORIES", "DISCOVER ID")
            for favorite in profile.favorites {
                table.append(
                    favorite.name, Format.coordinates(favorite.latitude, favorite.longitude),
                    (favorite.categories ?? []).joined(separator: ","), favorite.id)
            }
            table.print()
        }

        /// A contact's id from their id, name or username (the contacts list); anything
        /// else goes to the daemon as it is.
        private func resolve(_ text: String) throws -> String {
            let reply = try global.api.get(Target.v1("contacts"))
            let rows = try reply.decode(ContactRows.self).contacts
            let entries =
                rows.map { NameResolver.Entry(ids: [$0.id], name: $0.name ?? $0.username ?? $0.id) }
                + rows.compactMap { row in row.username.map { NameResolver.Entry(ids: [row.id], name: $0) } }
            let kind = NameResolver.Kind(
                singular: "contact", plural: "contacts", listTarget: Target.v1("contacts"), entries: { _ in [] },
                listCommand: "places contacts")
            var match = NameResolver.match(text.hasPrefix("@") ? String(text.dropFirst()) : text, in: entries)
            if case .ambiguous(let tier) = match {
                // The same person by name and by username is one person.
                let ids = Set(tier.map { $0.ids[0] })
                if ids.count == 1 { match = .found(tier[0]) }
            }
            return try global.names.decide(match, typed: text, kind) ?? text
        }
    }
}
