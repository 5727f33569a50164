import Foundation

#if canImport(Glibc)
    import Glibc
#endif

/// The fan-out curve of `make scale-bench` (2, 8, 32 daemons in a line and a full mesh) and
/// the TCP byte counters it reads.
extension ScaleBench {
    /// `daemons` daemons over loopback, connected in a line (each dials the next) or a full
    /// mesh; the first owns a trip shared with all. Edits at the first: the time until the
    /// last daemon's event stream reports it, and the bytes every TCP connection sent.
    static func fanOut(daemons count: Int, mesh: Bool) throws -> [String: Any] {
        FloorTable.note("scale: fan-out, \(count) daemons in a \(mesh ? "mesh" : "line")")
        var point: [String: Any] = ["daemons": count, "topology": mesh ? "mesh" : "line"]
        var daemons = [BenchDaemon]()
        defer { for d in daemons { d.stop() } }
        for i in 0..<count { daemons.append(try BenchDaemon(name: "D\(i)")) }
        let owner = daemons[0]
        // Everyone knows everyone (a group of friends), so no session is closed as a stranger's
        // while a trip's ops are still on their way along the line.
        for d in daemons {
            for other in daemons where other !== d { _ = try d.json("POST", "/v1/contacts", #"{"id":"\#(other.id)"}"#) }
        }
        let itID = try owner.json("POST", "/v1/itineraries", #"{"name":"Group trip"}"#)["id"] as? String ?? ""
        for d in daemons.dropFirst() {
            _ = try owner.json("POST", "/v1/itineraries/\(itID)/share", #"{"member":"\#(d.id)","role":"editor"}"#)
        }
        // A line: each dials the next. A mesh: each pair once, each daemon dialling half of the
        // others (the next ones around the circle), so no daemon takes more than 16 connections
        // from 127.0.0.1 (sync.md §5: inbound connections per address).
        var dials = 0
        for (i, d) in daemons.enumerated() {
            let targets =
                mesh
                ? (1...(count / 2)).compactMap { j -> Int? in
                    j == count - j && i >= count / 2 ? nil : (i + j) % count
                } : (i + 1 < count ? [i + 1] : [])
            for t in targets {
                _ = try d.json("POST", "/v1/peers", #"{"address":"\#(daemons[t].listen)"}"#)
                dials += 1
            }
        }
        point["dials"] = dials
        // Every daemon holds the trip once a first edit has reached each of them.
        _ = try owner.client.send("PATCH", "/v1/itineraries/\(itID)", body: Array(#"{"notes":"warm-up"}"#.utf8))
        let clock = ContinuousClock()
        let setup = clock.now
        for d in daemons {
            while true {
                let r = try? d.client.send("GET", "/v1/itineraries/\(itID)")
                if let r, r.status == 200, String(decoding: r.body, as: UTF8.self).contains("warm-up") { break }
                guard clock.now - setup < .seconds(600) else { throw BenchError("fan-out: the trip did not arrive") }
                usleep(50_000)
            }
        }
        point["setupSeconds"] = PlacesBench.seconds(clock.now - setup)
        usleep(2_000_000)  // let the session openings settle before counting bytes
        let pids = Set(daemons.compactMap { $0.process?.processIdentifier })
        let followers = daemons.dropFirst().map { EventFollower(client: $0.client, doc: itID) }
        let rounds = max(20, edits / 2)
        // Bytes sent while nothing is edited, over about as long as the edits take.
        let idleStart = TCPCounters(pids: pids)
        let idleFrom = clock.now
        usleep(useconds_t(min(10_000_000, 100_000 + rounds * count * 3_000)))
        let idleBytes = TCPCounters(pids: pids).sent(since: idleStart)
        let idleSeconds = PlacesBench.seconds(clock.now - idleFrom)

        let before = TCPCounters(pids: pids)
        let opsBefore = try opsSent(daemons)
        let editFrom = clock.now
        var farthest = [Double](), last = [Double]()
        for i in 0..<rounds {
            let t0 = clock.now
            let answer = try owner.client.send(
                "PATCH", "/v1/itineraries/\(itID)", body: Array(#"{"notes":"edit \#(i)"}"#.utf8))
            guard answer.status == 200 else { throw BenchError("fan-out: PATCH answered \(answer.status)") }
            var arrivals = [Double]()
            for f in followers {
                guard let at = f.waitForChange(timeout: 30) else { throw BenchError("fan-out: an edit was lost") }
                arrivals.append(PlacesBench.seconds(at - t0) * 1_000)
            }
            farthest.append(arrivals.max() ?? 0)
            last.append(arrivals.last ?? 0)
        }
        let editSeconds = PlacesBench.seconds(clock.now - editFrom)
        usleep(500_000)
        // One `changed` event per edit at each daemon: more would mean an edit applied twice
        // (or the figures above paired with the wrong edit).
        point["extraEvents"] = followers.map { $0.received - rounds }.reduce(0, +)
        let after = TCPCounters(pids: pids)
        let opsAfter = try opsSent(daemons)
        point["opsSentPerEdit"] = Double(opsAfter.sent - opsBefore.sent) / Double(rounds)
        point["opsSentAgain"] = opsAfter.again - opsBefore.again
        let sent = after.sent(since: before)
        let background = idleSeconds > 0 ? Double(idleBytes.values.reduce(0, +)) * editSeconds / idleSeconds : 0
        let total = Double(sent.values.reduce(0, +))
        point["edits"] = rounds
        point["latestArrival"] = summary(farthest)
        point["lastDaemon"] = summary(last)
        point["connections"] = after.connections
        point["bytesPerEdit"] = total / Double(rounds)
        point["idleBytesPerEdit"] = background / Double(rounds)
        point["maxConnectionBytesPerEdit"] = Double(sent.values.max() ?? 0) / Double(rounds)
        point["connectionsCarryingEdits"] = sent.values.filter { $0 >= rounds * 100 }.count
        return point
    }

    /// Ops every daemon has sent on its open sessions, and of them those sent before on the
    /// same session (`GET /v1/peers`: `opsSent`, `opsSentAgain`).
    static func opsSent(_ daemons: [BenchDaemon]) throws -> (sent: Int, again: Int) {
        var sent = 0, again = 0
        for d in daemons {
            for peer in try d.json("GET", "/v1/peers", nil)["peers"] as? [[String: Any]] ?? [] {
                sent += peer["opsSent"] as? Int ?? 0
                again += peer["opsSentAgain"] as? Int ?? 0
            }
        }
        return (sent, again)
    }
}

/// The bytes each established TCP connection of the given processes has sent (`ss -tinp`:
/// `bytes_sent`), keyed by its local and remote address.
struct TCPCounters {
    var bytes: [String: Int] = [:]
    var connections: Int { bytes.count }

    init(pids: Set<Int32>) {
        let ss = Process()
        ss.executableURL = URL(fileURLWithPath: "/usr/bin/ss")
        ss.arguments = ["-tinpH", "state", "established"]
        let pipe = Pipe()
        ss.standardOutput = pipe
        guard (try? ss.run()) != nil else { return }
        let data = pipe.fileHandleForReading.readDataToEndOfFile()
        ss.waitUntilExit()
        // Each connection: a line of addresses and processes, then an indented line of counters.
        var current: (key: String, ours: Bool)? = nil
        for line in String(decoding: data, as: UTF8.self).split(separator: "\n") {
            let fields = line.split(separator: " ", omittingEmptySubsequences: true)
            if let first = line.first, first != " ", first != "\t" {
                let addresses = fields.filter { $0.contains(":") && !$0.hasPrefix("users:") }
                let ours = pids.contains { line.contains("pid=\($0),") }
                current = (addresses.prefix(2).joined(separator: "→"), ours)
            } else if let c = current, c.ours {
                let sent = fields.first { $0.hasPrefix("bytes_sent:") }.flatMap { Int($0.dropFirst(11)) } ?? 0
                bytes[c.key] = sent
                current = nil
            }
        }
    }

    /// Bytes sent on each connection since `earlier` (a connection opened since counts whole).
    func sent(since earlier: TCPCounters) -> [String: Int] {
        bytes.reduce(into: [:]) { out, entry in out[entry.key] = max(0, entry.value - (earlier.bytes[entry.key] ?? 0)) }
    }
}
