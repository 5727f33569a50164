import Foundation
import PlacesControlClient

/// Messages' figures (issue 32), through the sockets of two real daemons that are friends
/// over loopback: a message reaching the online friend, and the last 50 messages of a
/// conversation of 10,000.
enum MessageBench {
    /// Messages timed each way: under the receiver's bound of 60 a minute from one sender.
    static let timedEachWay = 55

    static func run() throws {
        let ana = try BenchDaemon(name: "Ana")
        let bruno = try BenchDaemon(name: "Bruno")
        try FeedBench.befriend(ana, bruno)

        // From POST /v1/messages to the message showing in the friend's conversation.
        var ms = [Double]()
        let clock = ContinuousClock()
        for (from, to) in [(ana, bruno), (bruno, ana)] {
            for i in 0..<timedEachWay {
                let start = clock.now
                let id = try send(from, to: to, "timed message \(i)")
                try FeedBench.wait("the message reaches the friend", timeout: 10) {
                    let page = try ExpenseBench.object(
                        to.client.send("GET", "/v1/conversations/\(from.id)/messages?limit=1&peek=true"))
                    return ((page["messages"] as? [[String: Any]])?.last?["id"] as? String) == id
                }
                ms.append(PlacesBench.seconds(clock.now - start) * 1_000)
            }
        }
        ms.sort()
        print(
            String(
                format:
                    "a message reaching an online friend (%d, both ways): p50 %.1f ms, p99 %.1f ms (target p99 <= 200 ms)",
                ms.count, ms[ms.count / 2], ms[ms.count * 99 / 100]))

        // A conversation of 10,000 messages: Ana writes them (the receiver keeps 60 a minute
        // of one sender, so Ana's side holds them all).
        let start = clock.now
        for i in ms.count..<10_000 { _ = try send(ana, to: bruno, "Message number \(i) from the bench") }
        print(
            String(
                format: "POST /v1/messages (up to 10,000 in one conversation): %.1f s",
                PlacesBench.seconds(clock.now - start)))
        let page = try TripBench.latencies(
            2_000,
            measuring: { _ in _ = try ana.client.send("GET", "/v1/conversations/\(bruno.id)/messages?limit=50") })
        print(
            String(
                format:
                    "GET …/messages?limit=50 (10,000 messages, the author's): p50 %.2f ms, p99 %.2f ms (target p99 <= 5 ms)",
                page.p50, page.p99))
        let list = try TripBench.latencies(
            2_000, measuring: { _ in _ = try ana.client.send("GET", "/v1/conversations") })
        print(String(format: "GET /v1/conversations (one of 10,000): p50 %.2f ms, p99 %.2f ms", list.p50, list.p99))
        let reader = try TripBench.latencies(
            2_000,
            measuring: { _ in _ = try bruno.client.send("GET", "/v1/conversations/\(ana.id)/messages?limit=50") })
        print(
            String(
                format:
                    "GET …/messages?limit=50 (the reader's, the flood bound's drops hidden): p50 %.2f ms, p99 %.2f ms",
                reader.p50, reader.p99))
        // The same once the reader's daemon is done storing the flood (it arrives while the
        // figures above are taken, and every read waits behind it).
        Thread.sleep(forTimeInterval: 30)
        let settled = try TripBench.latencies(
            2_000,
            measuring: { _ in _ = try bruno.client.send("GET", "/v1/conversations/\(ana.id)/messages?limit=50") })
        print(
            String(
                format:
                    "GET …/messages?limit=50 (the reader's, 30 s later, the flood stored): p50 %.2f ms, p99 %.2f ms",
                settled.p50, settled.p99))
    }

    static func send(_ from: BenchDaemon, to: BenchDaemon, _ text: String) throws -> String {
        let r = try from.client.send(
            "POST", "/v1/messages", body: Array(#"{"to":"\#(to.id)","text":"\#(text)"}"#.utf8))
        guard r.status == 201, let id = try ExpenseBench.object(r)["id"] as? String else {
            throw BenchError("the message was refused (\(r.status))")
        }
        return id
    }
}
