import Testing
@testable import DashModel
@testable import DashView
@testable import CoreValues

/// A declined or lapsed Ask to Buy request sends no App Store notification; the plan panel keeps
/// a trace of it, so the request does not vanish with its banner.
@Suite struct AskToBuyTraceTests {
  let asked = Scenarios.example("ask-to-buy")

  func screen(_ state: SubscriptionState, at now: Instant) -> String {
    let vm = ViewModel.derived(state: state, notifications: [], fileName: "ask-to-buy.json", clock: DashClock(simulated: now, wall: now))
    return render(vm, UIState(), width: 120, height: 40).textDump
  }

  @Test func aDeclinedRequestLeavesATrace() throws {
    let declined = try Simulator.apply(.declineAskToBuy, to: asked.state, at: asked.now).get().state
    let text = screen(declined, at: asked.now)
    #expect(text.contains("was declined; nothing was charged (no App Store notification)"), "\(text)")
    #expect(!text.contains("ASK TO BUY"))
  }

  @Test func aLapsedRequestLeavesATraceFromTheMomentItLapses() throws {
    let lapse = try #require(asked.state.subscriber.askToBuy?.lapseDate)
    #expect(!screen(asked.state, at: lapse - .millisecond).contains("lapsed unanswered"))
    #expect(screen(asked.state, at: lapse).contains("lapsed unanswered at"))
  }
}
