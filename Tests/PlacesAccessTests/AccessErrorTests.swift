import PlacesAccess
import Testing

@Suite("Access errors")
struct AccessErrorTests {
    @Test("an error reads as its code and message")
    func description() {
        #expect(AccessError(.expired, "the link expired").description == "expired: the link expired")
    }
}
