import ArgumentParser
import Foundation
import PlacesAPI

extension PlacesCommand {
    /// `places activity`: who changed what in an itinerary.
    struct Activity: ParsableCommand {
        static let configuration = CommandConfiguration(
            abstract: "Show who changed what in an itinerary, newest first.")

        @OptionGroup var global: GlobalOptions

        @Argument(help: "The itinerary: its id, its name or a unique start of either.")
        var itinerary: String

        func run() throws {
            let reply = try global.api.get(Target.v1("itineraries", try global.names.itinerary(itinerary), "activity"))
            if global.json { return printRaw(reply) }
            let list = try reply.decode(ActivityList.self)
            guard !list.activity.isEmpty else { return print("no activity") }
            // The summary names who did it ("Ana changed …"); --json has the author's full id.
            var table = Table("WHEN", "WHAT")
            for entry in list.activity {
                table.append(Format.time(entry.time), entry.summary)
            }
            table.print()
        }
    }

    /// `places events`: follow the daemon's event stream.
    struct Events: ParsableCommand {
        static let configuration = CommandConfiguration(
            abstract: "Follow the daemon's events (edits, logins, sync) until interrupted.",
            discussion: """
                Prints one line per event: local time and a summary. With --json, prints each \
                event's JSON line as the daemon sends it (newline-delimited JSON), suitable for \
                `jq`. Stop with Ctrl-C.
                """)

        @OptionGroup var global: GlobalOptions

        func run() throws {
            let json = global.json
            try global.api.stream(Target.v1("events")) { line in
                // Unbuffered writes: lines must reach pipes (`places events | jq`) as they happen.
                if json {
                    writeStandardOutput(String(decoding: line, as: UTF8.self) + "\n")
                } else if let event = try? JSONDecoder().decode(Event.self, from: Data(line)) {
                    writeStandardOutput("\(Format.time(event.time))  \(event.summary)\n")
                }
                return true
            }
        }
    }
}
