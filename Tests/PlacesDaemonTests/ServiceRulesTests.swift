import PlacesModel
import Testing

@testable import PlacesDaemon

/// Rules of the services that need no store: when a link expires, and how often a member's
/// view of an itinerary is recorded.
@Suite("Service rules without a store")
struct ServiceRulesTests {
    let now: Int64 = 1_800_000_000_000

    @Test(
        "a link's expiry: durations from now, a date's end of day, an RFC 3339 time",
        arguments: [
            ("30m", 30 * 60_000), ("12h", 12 * 3_600_000), ("7d", 7 * 86_400_000), ("2w", 14 * 86_400_000),
        ] as [(String, Int64)])
    func durations(text: String, offsetMs: Int64) {
        #expect(SharingService.parseExpiry(text, nowMs: now) == now + offsetMs)
    }

    @Test("a date means the end of that day, UTC")
    func date() {
        #expect(SharingService.parseExpiry("2027-05-01", nowMs: now) == 1_809_216_000_000)  // 2027-05-02T00:00:00Z
    }

    @Test("what is not an expiry is refused", arguments: ["", "soon", "0d", "100001d", "5y", "2027-13-01"])
    func refused(text: String) {
        #expect(SharingService.parseExpiry(text, nowMs: now) == nil)
    }

    @Test("a member's views of one itinerary are recorded at most once per ten minutes")
    func viewCoalescing() throws {
        let doc = try #require(DocumentID(hex: String(repeating: "ab", count: 16)))
        let other = try #require(DocumentID(hex: String(repeating: "cd", count: 16)))
        var log = ActivityService()
        let first = log.noteView(of: doc, nowMs: now)
        let soon = log.noteView(of: doc, nowMs: now + 60_000)
        let elsewhere = log.noteView(of: other, nowMs: now + 60_000)
        let later = log.noteView(of: doc, nowMs: now + ActivityService.viewCoalescingMs)
        #expect(first && !soon && elsewhere && later)
    }
}
