import ArgumentParser
import PlacesAPI
import PlacesModel

extension ItineraryGroup {
    /// `places itinerary publish ITIN --to friends|GROUP|network [--dry-run]`.
    struct Publish: ParsableCommand {
        static let configuration = CommandConfiguration(
            abstract: "Publish a trip for others to explore: to your friends, a group, or the whole network.",
            discussion: """
                Publishes a read-only copy of the plan: name, dates, time zone, days with their \
                items, places to go and costs per section; never its expenses, checklist, \
                members, booking codes, contacts, notes or links. Publishing again replaces the copy \
                (and may change its audience); `places itinerary unpublish ITIN` withdraws it.

                --dry-run prints exactly what would be published, and publishes nothing.
                """)

        @OptionGroup var global: GlobalOptions

        @Argument(help: "The itinerary: its id, its name or a unique start of either.")
        var itinerary: String

        @Option(
            help: ArgumentHelp(
                "Who can explore it: friends, network, or one of your groups (its name or id).",
                valueName: "audience"))
        var to: String

        @Flag(help: "Print what would be published, and publish nothing.")
        var dryRun = false

        @OptionGroup var style: TripStyle

        func validate() throws {
            if to.trimmingCharacters(in: .whitespaces).isEmpty {
                throw ValidationError("--to needs an audience: friends, network or a group")
            }
        }

        func run() throws {
            var body = JSONBody()
            let keyword = to.lowercased()
            body["audience"] = .string(["friends", "network"].contains(keyword) ? keyword : to)
            if dryRun { body["dryRun"] = .bool(true) }
            let id = try global.names.itinerary(itinerary)
            let reply = try global.api.post(Target.v1("itineraries", id, "publish"), body)
            if global.json { return printRaw(reply) }
            let answer = try reply.decode(PublishAnswer.self)
            let audience = ExploreFormat.audience(answer.audience, groupName: answer.groupName ?? groupName(answer))
            if answer.dryRun {
                print("dry run: this is what would be published \(audience) (nothing is published)\n")
                return print(ExploreFormat.detail(answer.trip, preview: true, plain: style.plain))
            }
            let published = Format.shortID(answer.id ?? answer.trip.summary.id)
            print("published “\(answer.trip.summary.name)” \(audience): \(published)")
            print(
                "`places explore show \(published)` shows it as others see it; "
                    + "`places itinerary unpublish \(Format.shortID(id))` withdraws it")
        }

        /// The group's name as typed, when the answer names a group without its name.
        private func groupName(_ answer: PublishAnswer) -> String? {
            guard answer.audience == "group", answer.group != nil else { return nil }
            return ["friends", "network"].contains(to.lowercased()) ? nil : to
        }
    }

    /// `places itinerary unpublish ITIN`.
    struct Unpublish: ParsableCommand {
        static let configuration = CommandConfiguration(
            abstract: "Withdraw a published trip: it leaves explore for everyone.",
            discussion: """
                Those who saved it keep a line in `places saved`, marked withdrawn, without its \
                contents. Trips already copied into someone's own itinerary stay theirs.
                """)

        @OptionGroup var global: GlobalOptions

        @Argument(help: "The itinerary: its id, its name or a unique start of either.")
        var itinerary: String

        func run() throws {
            let id = try global.names.itinerary(itinerary)
            let reply = try global.api.delete(Target.v1("itineraries", id, "publish"))
            if global.json { return printRaw(reply) }
            print("unpublished itinerary \(Format.shortID(id)): it is no longer in explore")
        }
    }
}
