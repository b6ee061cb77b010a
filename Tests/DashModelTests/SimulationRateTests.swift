import Testing

@testable import DashModel
@testable import CoreValues

/// At every rate the engine takes period, grace and retry lengths from Apple's tables (the time
/// branch tests the tables themselves; this checks the simulator uses them).
@Suite struct SimulationRateTests {
  @Test(arguments: SimulationRate.allCases)
  func periodsGraceAndRetryFollowTheRate(rate: SimulationRate) throws {
    for (product, period) in [("pass.basic.weekly", ISOPeriod.oneWeek), ("pass.premium.monthly", .oneMonth), ("pass.premium.annual", .oneYear)] {
      var sim = Sim(start: "2026-03-31T10:00:00Z", settings: [
        ("timeRate", .string(rate.name)), ("gracePeriod", .string("storekit")), ("failRenewals", .bool(true)),
      ])
      sim.buy(product)
      let bought = sim.latest
      let expected = rate.periodEnd(from: bought.purchaseDate!, period: period)
      #expect(bought.expiresDate == expected, "\(rate) \(period)")
      if let length = rate.renewalLength(of: period) { #expect(expected - bought.purchaseDate! == length) }
      sim.next()
      #expect(sim.log.last?.signedDate == expected)
      let grace = try #require(sim.info.gracePeriodExpiresDate)
      #expect(grace - expected == min(rate.gracePeriod(for: period), rate.billingRetry), "\(rate) \(period) grace")
      #expect(sim.settings.billingIssue?.retryExpiresDate == expected + rate.billingRetry, "\(rate) \(period) retry")
    }
  }

  @Test func realTimeMonthsAreCalendarMonths() {
    var sim = Sim(start: "2026-03-31T10:00:00Z")
    sim.buy("pass.premium.monthly")
    #expect(sim.latest.expiresDate == Sim.at("2026-04-30T10:00:00Z"))
    var annual = Sim(start: "2028-02-29T10:00:00Z")
    annual.buy("pass.premium.annual")
    #expect(annual.latest.expiresDate == Sim.at("2029-02-28T10:00:00Z"))
  }

  @Test func monthlyRateTableValuesThroughTheEngine() {
    // monthlyRenewalEveryHour: week 15 min, month 1 h, year 12 h; grace 12 min 51 s / 30 min; retry 2 h.
    var weekly = Sim(start: "2026-01-01T00:00:00Z", settings: [("timeRate", .int(10)), ("gracePeriod", .bool(true)), ("failRenewals", .bool(true))])
    weekly.buy("pass.basic.weekly")
    #expect(weekly.latest.expiresDate == Sim.at("2026-01-01T00:15:00Z"))
    weekly.next()
    #expect(weekly.info.gracePeriodExpiresDate == Sim.at("2026-01-01T00:27:51Z"))
    #expect(weekly.settings.billingIssue?.retryExpiresDate == Sim.at("2026-01-01T02:15:00Z"))
    var annual = Sim(start: "2026-01-01T00:00:00Z", settings: [("timeRate", .int(10))])
    annual.buy("pass.premium.annual")
    #expect(annual.latest.expiresDate == Sim.at("2026-01-01T12:00:00Z"))
  }
}
