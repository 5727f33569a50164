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
        let waiting = state.wait()
        #expect(waiting == nil)
        let admitted = state.admit(by: holder)
        #expect(admitted)
        #expect(state.admittedBy == holder)
        #expect(state.isOpen)
        let step = state.finish(.joined)
        #expect(step == .resume)
        #expect(state == .finished(.joined))
        #expect(!state.isOpen)
    }

    @Test("only the first outcome counts: the timeout after success changes nothing")
    func oneOutcome() {
        var state = JoinState.waiting
        let first = state.finish(.joined)
        #expect(first == .resume)
        let second = state.finish(timedOut)
        #expect(second == nil)
        #expect(state.outcome == .joined)
    }

    @Test("a refusal before the request waits is kept for it, and the request gets it at once")
    func decidedEarly() {
        var state = JoinState.presenting
        let step = state.finish(refused)
        #expect(step == .hold)
        #expect(!state.isOpen)
        #expect(state.outcome == refused)
        let handed = state.wait()
        #expect(handed == refused)
        #expect(state == .finished(refused))
        let late = state.finish(timedOut)
        #expect(late == nil)
    }

    @Test("a second holder cannot take over a join another holder admitted")
    func oneAdmittingPeer() throws {
        let holder = try #require(holder)
        let stranger = try #require(stranger)
        var state = JoinState.presenting
        let first = state.admit(by: holder)
        #expect(first)
        let other = state.admit(by: stranger)
        #expect(!other)
        let again = state.admit(by: holder)
        #expect(again)
        #expect(state.admittedBy == holder)
        let waiting = state.wait()
        #expect(waiting == nil)
        #expect(state == .admitted(by: holder, waiting: true))
    }

    @Test("nobody admits a join that is over")
    func noAdmissionAfterOutcome() throws {
        let holder = try #require(holder)
        var state = JoinState.waiting
        _ = state.finish(timedOut)
        let admitted = state.admit(by: holder)
        #expect(!admitted)
        #expect(state.admittedBy == nil)
    }

}
