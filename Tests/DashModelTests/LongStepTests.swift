import Testing

@testable import DashModel
@testable import CoreValues

/// One `+` (a day) at "a month every 30 seconds" (86,400×) is 2,880 renewals: such a step is
/// counted before anything is written, asks first, and is saved in parts.
@Suite("Long simulation steps")
struct LongStepTests {
  static func fastSubscriber() -> Sim {
    var sim = Sim(settings: [("timeRate", .string("monthlyRenewalEveryThirtySeconds"))])
    sim.buy("pass.premium.monthly")
    return sim
  }

  @Test func aDayAtTheFastestRateIsCountedAsLongAndEstimated() throws {
    let sim = Self.fastSubscriber()
    let size = try Simulator.size(ofAdvancing: .days(1), sim.state, at: sim.now)
    #expect(size.isLong)
    #expect(!size.complete)
    #expect(size.events == LongStep.confirmAbove + 1)
    // About one renewal every 30 seconds for a day.
    #expect((2_700...3_000).contains(size.estimate), "\(size.estimate)")
    // An hour is 120 renewals: counted whole, not long.
    let hour = try Simulator.size(ofAdvancing: .hours(1), sim.state, at: sim.now)
    #expect(hour.complete && !hour.isLong)
    #expect((119...121).contains(hour.events), "\(hour.events)")
  }

  @Test func aLongStepSavedInPartsEndsWhereOneStepWould() throws {
    var parted = Self.fastSubscriber()
    let whole = try Simulator.apply(.advance(.hours(6)), to: parted.state, at: parted.now).get()
    let target = try Simulator.target(ofAdvancing: .hours(6), parted.state, at: parted.now)
    var parts = 0
    var notifications = 0
    while true {
      let part = try Simulator.advancePart(parted.state, to: target, at: parted.now)
      parts += 1
      notifications += part.change.notifications.count
      #expect(part.change.notifications.count <= LongStep.eventsPerSave * 2)
      parted.commit(part.change)
      if part.reached { break }
      #expect(parts < 100)
    }
    #expect(parts == 3)
    #expect(notifications == whole.notifications.count)
    #expect(parted.now == (try Simulator.clock(whole.state)))
    #expect(parted.latest.transactionId == whole.state.subscriber.latestTransaction?.transactionId)
  }
}
