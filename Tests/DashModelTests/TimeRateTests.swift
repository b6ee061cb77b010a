import Foundation
import Testing

@testable import DashModel
@testable import CoreValues

@Suite("Time rates: names, raw values, conversion")
struct TimeRateTests {
  @Test(arguments: [
    (0, TimeRate.realTime), (1, .oneHourIsOneDay), (2, .thirtyMinutesIsOneDay), (3, .fiveMinutesIsOneDay),
    (4, .oneMinuteIsOneDay), (5, .thirtySecondsIsOneDay), (6, .oneSecondIsOneDay),
    (10, .monthlyRenewalEveryHour), (11, .monthlyRenewalEveryThirtyMinutes), (12, .monthlyRenewalEveryFifteenMinutes),
    (13, .monthlyRenewalEveryFiveMinutes), (15, .monthlyRenewalEveryThirtySeconds),
    (1000, .oneRenewalEveryFifteenMinutes), (1001, .oneRenewalEveryFiveMinutes), (1002, .oneRenewalEveryMinute),
    (1003, .oneRenewalEveryThirtySeconds), (1004, .oneRenewalEveryTenSeconds), (1005, .oneRenewalEveryTwoSeconds),
  ])
  func rawValuesMatchApple(raw: Int, rate: TimeRate) throws {
    #expect(rate.rawValue == raw)
    #expect(TimeRate(rawValue: raw) == rate)
    #expect(try TimeRate(storeKitValue: raw) == rate)
    #expect(try TimeRate(parsing: String(raw)) == rate)
    #expect(try TimeRate(parsing: rate.name) == rate)
    #expect(try SimulationRate(parsing: rate.name) == .storeKitTest(rate))
  }

  @Test func everyRateHasARawValueTest() {
    #expect(TimeRate.allCases.count == 18)
  }

  @Test(arguments: [(0, TimeRate.realTime), (1, .oneHourIsOneDay), (6, .oneSecondIsOneDay)])
  func readsStoreKitFileTimeRates(timeRate: Int, rate: TimeRate) throws {
    #expect(try TimeRate(storeKitValue: timeRate) == rate)
  }

  @Test(arguments: [-1, 7, 8, 9, 14, 16, 999, 1006])
  func rejectsUnknownRawValues(raw: Int) {
    #expect(TimeRate(rawValue: raw) == nil)
    #expect {
      try TimeRate(storeKitValue: raw)
    } throws: { error in
      String(describing: error).hasPrefix("invalid _timeRate \"\(raw)\"")
    }
  }

  @Test func canonicalNamesAreApplesCaseNames() throws {
    #expect(TimeRate.monthlyRenewalEveryFiveMinutes.name == "monthlyRenewalEveryFiveMinutes")
    #expect(TimeRate.oneRenewalEveryTwoSeconds.name == "oneRenewalEveryTwoSeconds")
    #expect(try TimeRate(parsing: "MonthlyRenewalEveryHour") == .monthlyRenewalEveryHour)
  }

  @Test(arguments: [
    ("sandbox-3m", SandboxRenewalRate.everyThreeMinutes), ("sandbox-5m", .everyFiveMinutes),
    ("sandbox-15m", .everyFifteenMinutes), ("sandbox-30m", .everyThirtyMinutes), ("sandbox-1h", .everyHour),
    ("sandbox", .everyFiveMinutes),
  ])
  func readsSandboxRates(text: String, rate: SandboxRenewalRate) throws {
    #expect(try SimulationRate(parsing: text) == .sandbox(rate))
  }

  @Test func everySimulationRateNameReadsBack() throws {
    #expect(SimulationRate.allCases.count == 18 + 5)
    for rate in SimulationRate.allCases {
      #expect(try SimulationRate(parsing: rate.name) == rate)
    }
  }

  @Test(arguments: ["monthly-every-5m", "", "sandbox-10m", "fast", "14"])
  func unknownRateNamesGiveOneLineHelp(text: String) {
    #expect {
      try SimulationRate(parsing: text)
    } throws: { error in
      let message = String(describing: error)
      return message.hasPrefix("invalid rate") && message.contains("sandbox-5m") && !message.contains("\n")
    }
  }

  @Test func aMonthEveryFiveMinutes() {
    let rate = SimulationRate.storeKitTest(.monthlyRenewalEveryFiveMinutes)
    #expect(rate.periodEnd(from: novemberMorning, period: .oneMonth) == novemberMorning + .minutes(5))
    #expect(rate.periodEnd(from: novemberMorning, period: .oneMonth, count: 12) == novemberMorning + .hours(1))
    #expect(rate.wallClock(for: .days(30), period: .oneMonth) == .minutes(5))
    #expect(rate.wallClock(for: .days(7), period: .oneWeek) == .minutes(3))
    #expect(rate.virtualTime(forWallClock: .minutes(5), period: .oneMonth) == .days(30))
  }

  @Test func productionGraceConvertsAtTheSubscriptionsScale() {
    let sandbox = SandboxRenewalRate.everyFiveMinutes
    #expect(sandbox.wallClock(for: .days(28), period: .oneMonth) == .minutes(4) + .seconds(40))
    #expect(sandbox.wallClock(for: .days(3), period: .oneMonth) == .seconds(30))
  }

  @Test(arguments: [
    TimeRate.monthlyRenewalEveryHour, .monthlyRenewalEveryThirtyMinutes, .monthlyRenewalEveryFifteenMinutes,
    .monthlyRenewalEveryFiveMinutes, .monthlyRenewalEveryThirtySeconds,
  ])
  func sixtyDaysOfRetryIsTheDocumentedRetryAtMonthlyScale(rate: TimeRate) {
    #expect(rate.wallClock(for: .days(60), period: .oneMonth) == rate.billingRetry)
  }

  @Test func fixedRatesIgnoreThePeriodLength() {
    let rate = TimeRate.oneRenewalEveryMinute
    #expect(rate.renewalLength(of: .threeDays) == .minute)
    #expect(rate.renewalLength(of: ISOPeriod(years: 1, months: 2, days: 10)) == .minute)
    #expect(rate.wallClock(for: .days(365), period: .oneYear) == .minute)
    #expect(rate.wallClock(for: .days(7), period: .oneWeek) == .minute)
  }

  @Test func realTimeIsTheIdentity() {
    #expect(TimeRate.realTime.wallClock(for: .days(16), period: .oneMonth) == .days(16))
    #expect(TimeRate.realTime.virtualTime(forWallClock: .hours(3), period: .oneYear) == .hours(3))
  }

  @Test func periodsOutsideTheTableAreBuiltFromItsCells() {
    let rate = TimeRate.monthlyRenewalEveryHour
    #expect(rate.renewalLength(of: .twoWeeks) == .minutes(30))
    #expect(rate.renewalLength(of: .threeDays) == .minutes(15) * (3.0 / 7.0))
    #expect(rate.renewalLength(of: ISOPeriod(months: 12)) == .hours(12))
    #expect(rate.renewalLength(of: ISOPeriod(years: 1, months: 2)) == .hours(14))
    #expect(rate.renewalLength(of: ISOPeriod()) == .zero)
    #expect(rate.wallClock(for: .days(30), period: ISOPeriod()) == .hour)
  }

  @Test func weeklyGraceAppliesBelowAMonth() {
    let rate = TimeRate.monthlyRenewalEveryThirtySeconds
    #expect(rate.gracePeriod(for: .twoWeeks) == .seconds(9))
    #expect(rate.gracePeriod(for: .threeDays) == .seconds(9))
    #expect(rate.gracePeriod(for: .twoMonths) == .seconds(15))
  }
}
