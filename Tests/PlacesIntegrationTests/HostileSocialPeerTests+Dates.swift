import Foundation
import PlacesAPI
import PlacesCrypto
import PlacesModel
import Testing

@testable import PlacesSync
@testable import PlacesTestSupport

/// Issue 28: a friend gives impossible dates. Every date a peer gives is a real instant in
/// range (`op-format.md` §5 "Dates and times"), not only the right shape.
extension HostileSocialPeerTests {
    @Test("a friend's posts and reactions with impossible or out-of-range dates are refused; the next one shows")
    func impossibleDates() async throws {
        let v = try SocialVictim()
        let m = try await v.befriend(try AdversarialPeer(), name: "Mallory")
        let post = try v.post("Dated properly")
        let ops = v.node.opCount
        let dates = [
            "0000-01-01T00:00:00Z", "2027-02-30T10:00:00Z", "2026-06-01T12:00:00+24:00", "2026-06-01T24:00:00Z",
            "1969-12-31T23:59:59Z", "2026-06-01T12:00:60Z",
        ]
        for date in dates {
            try m.pushRefused(Wire.post(text: "planted: \(date)", postedAt: date))
            try m.pushRefused(
                SignedReaction.make("comment", on: post.id, by: m.peer, postAuthor: v.key.bytes, text: date, at: date)
                    .changes)
        }
        try m.push(Wire.post(text: "Honest post after the bad dates"))
        try await eventually("the honest post shows", timeout: .seconds(10)) {
            try v.feed().contains { $0.text == "Honest post after the bad dates" }
        }
        guard v.node.serving("impossible dates") else { return }
        #expect(v.node.opCount == ops + 1, "ops stored: \(v.node.opCount - ops), expected only the honest post")
        let texts = try v.feed().map(\.text)
        #expect(texts.filter { $0.hasPrefix("planted") }.isEmpty, "the feed shows \(texts)")
        #expect(try v.postView(post.id).comments == 0)
        let rejections = v.d.log.components(separatedBy: "rejected an op from a peer").count - 1
        #expect(rejections >= 2 * dates.count, "only \(rejections) rejections logged for \(2 * dates.count) bad ops")
    }
}
