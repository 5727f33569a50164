import Testing

@testable import PlacesDaemon

/// The join state machine as a value: what `POST /v1/join` answers, whatever order the
/// holder's answers, the request's wait and the timeout come in.
@Suite("Joining a share link as a state machine")
struct JoinStateTests {
    let holder = Engine.publicKey(hex: String(repeating: "ab", count: 32))
    let stranger = Engine.publicKey(hex: String(repeating: "cd", count: 32))
    let timedOut = JoinOutcome.failed(.init(ServiceError(.noMemberReachable, "no daemon let this one in")))
    let refused = JoinOutcome.failed(.init(ServiceError(.link(.revoked), "the link was revoked", field: "link")))

    @Test("a join admitted, then caught up while the request waits, answers joined")
    func admittedThenJoined() throws {
        let holder = try #require(holder)
        var state = JoinState.presenting
        let r1 = state.wait()
        #expect(r1 == nil)
        let r2 = state.admit(by: holder)
        #expect(r2)
        #expect(state.admittedBy == holder)
        #expect(state.isOpen)
        let r3 = state.finish(.joined)
        #expect(r3 == .resume)
        #expect(state == .finished(.joined))
        #expect(!state.isOpen)
    }

    @Test("only the first outcome counts: the timeout after success changes nothing")
    func oneOutcome() {
        var state = JoinState.waiting
        let r4 = state.finish(.joined)
        #expect(r4 == .resume)
        let r5 = state.finish(timedOut)
        #expect(r5 == nil)
        #expect(state.outcome == .joined)
    }

    @Test("a refusal before the request waits is kept for it, and the request gets it at once")
    func decidedEarly() {
        var state = JoinState.presenting
        let r6 = state.finish(refused)
        #expect(r6 == .hold)
        #expect(!state.isOpen)
        #expect(state.outcome == refused)
        let r7 = state.wait()
        #expect(r7 == refused)
        #expect(state == .finished(refused))
        let r8 = state.finish(timedOut)
        #expect(r8 == nil)
    }

    @Test("a second holder cannot take over a join another holder admitted")
    func oneAdmittingPeer() throws {
        let holder = try #require(holder)
        let stranger = try #require(stranger)
        var state = JoinState.presenting
        let r9 = state.admit(by: holder)
        #expect(r9)
        let r10 = state.admit(by: stranger)
        #expect(!r10)
        let r11 = state.admit(by: holder)
        #expect(r11)
        #expect(state.admittedBy == holder)
        let r12 = state.wait()
        #expect(r12 == nil)
        #expect(state == .admitted(by: holder, waiting: true))
    }

    @Test("nobody admits a join that is over")
    func noAdmissionAfterOutcome() throws {
        let holder = try #require(holder)
        var state = JoinState.waiting
        _ = state.finish(timedOut)
        let r13 = state.admit(by: holder)
        #expect(!r13)
        #expect(state.admittedBy == nil)
    }

}
