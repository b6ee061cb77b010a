import Testing

@testable import DashModel
@testable import CoreValues

/// A child's Ask to Buy request waits 24 hours for a parent, then lapses; asking again for the same
/// product while it waits is the same request (Apple: pending requests last about 24 hours and
/// duplicates are consolidated).
@Suite("Ask to Buy: 24-hour lapse")
struct AskToBuyLapseTests {
  /// A family with Ask to Buy on; the child asks for Premium at 2026-01-01 00:00 UTC.
  func childAsked() -> Sim {
    var sim = Sim(settings: [("askToBuy", .bool(true))])
    sim.buy("pass.premium.monthly")
    return sim
  }

  @Test func aParentCanApproveOneMillisecondBeforeTheRequestLapses() {
    var sim = childAsked()
    sim.advance(to: Sim.at("2026-01-02T00:00:00Z") - .millisecond)
    sim.run(.approveAskToBuy)
    #expect(sim.labels == ["SUBSCRIBED / INITIAL_BUY"])
  }

  @Test func atTwentyFourHoursTheRequestHasLapsedAndCannotBeAnswered() {
    var sim = childAsked()
    sim.advance(to: "2026-01-02T00:00:00Z")
    let approve = sim.refusal(.approveAskToBuy)
    #expect(approve?.message == "The Ask to Buy request for Premium Monthly lapsed on 2026-01-02 00:00:00 UTC (requests wait 24 hours); buy again to send a new one.")
    #expect(sim.refusal(.declineAskToBuy)?.message == approve?.message)
    #expect(sim.state.subscriber.latestTransaction == nil)
    #expect(sim.log.isEmpty)
  }

  @Test func theDashboardStopsShowingTheRequestTheMomentItLapses() {
    let sim = childAsked()
    let lapse = Sim.at("2026-01-02T00:00:00Z")
    #expect(Lifecycle.derive(sim.state, at: lapse - .millisecond).askToBuy?.productId == "pass.premium.monthly")
    #expect(Lifecycle.derive(sim.state, at: lapse).askToBuy == nil)
  }

  @Test func askingAgainWhileTheRequestWaitsKeepsTheFirstRequest() {
    var sim = childAsked()
    sim.advance(by: .hours(5))
    sim.buy("pass.premium.monthly")
    #expect(sim.state.subscriber.askToBuy?.requestedDate == Sim.at("2026-01-01T00:00:00Z"))
    sim.advance(to: Sim.at("2026-01-02T00:00:00Z") - .millisecond)
    sim.run(.approveAskToBuy)
    #expect(sim.labels == ["SUBSCRIBED / INITIAL_BUY"])
  }

  @Test func askingAgainAfterTheLapseStartsANewTwentyFourHours() {
    var sim = childAsked()
    sim.advance(to: "2026-01-03T00:00:00Z")
    sim.buy("pass.premium.monthly")
    #expect(sim.state.subscriber.askToBuy?.requestedDate == Sim.at("2026-01-03T00:00:00Z"))
    #expect(sim.state.subscriber.askToBuy?.lapseDate == Sim.at("2026-01-04T00:00:00Z"))
    sim.run(.approveAskToBuy)
    #expect(sim.labels == ["SUBSCRIBED / INITIAL_BUY"])
  }

  @Test func theJSONReportGivesTheLapseDate() throws {
    let sim = childAsked()
    let json = Lifecycle.derive(sim.state, at: sim.now).json
    let ask = try #require(json.objectValue?["askToBuy"]?.objectValue)
    #expect(ask["lapseDateISO"] == .string("2026-01-02T00:00:00Z"))
  }

  /// `+` past the lapse names it (the banner goes; "nothing happened" would hide why), and one
  /// millisecond short of it says nothing happened.
  @Test func advancingPastTheLapseNamesIt() throws {
    let sim = childAsked()
    let lapse = Sim.at("2026-01-02T00:00:00Z")
    let past = try Simulator.advance(sim.state, to: lapse)
    #expect(past.message == "Advanced to 2026-01-02 00:00 UTC; the Ask to Buy request for Premium Monthly lapsed at 2026-01-02 00:00 UTC (no answer within 24 hours; nothing was charged)", "\(past.message)")
    let short = try Simulator.advance(sim.state, to: lapse - .millisecond)
    #expect(short.message.hasSuffix("nothing happened"), "\(short.message)")
  }

  /// `>` with nothing else scheduled goes to the lapse and says so, instead of "nothing is scheduled".
  @Test func nextEventKeyGoesToTheLapse() throws {
    let sim = childAsked()
    let change = try Simulator.advanceToNextEvent(sim.state)
    #expect(try Simulator.clock(change.state) == Sim.at("2026-01-02T00:00:00Z"))
    #expect(change.message.hasPrefix("The Ask to Buy request for Premium Monthly lapsed at 2026-01-02 00:00"), "\(change.message)")
    #expect(throws: ActionError.self) { try Simulator.advanceToNextEvent(change.state) }
  }
}
