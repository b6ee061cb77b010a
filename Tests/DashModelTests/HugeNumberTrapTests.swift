import Foundation
import Testing

@testable import DashModel
@testable import CoreValues
@testable import SimulationRuns

/// Numbers a file may carry that no arithmetic expected (issue 19 §1's audit): each used to trap
/// the process (signal 4) instead of being refused or computed.
@Suite struct HugeNumberTrapTests {
  /// `simulate` a prorated refund of a transaction whose `price` (milliunits) is Int64.max: the
  /// share was multiplied in 64 bits and overflowed.
  @Test func aProratedRefundOfTheLargestPriceIsComputedNotOverflowed() throws {
    var sim = Sim(start: "2026-06-01T00:00:00Z")
    sim.buy("pass.premium.annual")
    sim.advance(by: .days(3))
    sim.state.subscriber.latestTransaction?.price = .max
    sim.run(.refundProrated)
    let said = sim.log.last?.summary ?? ""
    #expect(said.contains("prorated refund of "), "\(said)")
    #expect(sim.latest.revocationType == .refundProrated)
    #expect(sim.latest.price == .max)
  }

  /// A length with 400 digits (a scenario's `advance`, a state file's grace period) is infinite
  /// as a Double; a Span refuses that with a trap, so the parser refuses it with a reason first.
  @Test func aLengthLongerThanAStateFileCanSpanIsRefused() {
    let huge = String(repeating: "9", count: 400) + "d"
    #expect(throws: TimeParseError.self) { try Format.parseSpan(huge) }
    #expect(throws: TimeParseError.self) { try Format.parseSpan("60000w") }
    #expect((try? Format.parseSpan("57000w")) == .weeks(57_000), "the longest a state file spans still reads")
  }

  /// `show --now 99999999999999999999` (milliseconds) trapped converting the day to Int64.
  @Test func aDateInMillisecondsOutsideTheFileRangeIsRefused() throws {
    #expect(throws: TimeParseError.self) { try Format.parseDate("99999999999999999999") }
    #expect(throws: TimeParseError.self) { try Format.parseDate("-9223372036854775808") }
    #expect(try Format.parseDate("32503680000000") == Instant.fileRange.upperBound)
    #expect(try Format.parseDate("-2208988800000") == Instant.fileRange.lowerBound)
  }

  @Test func aScenarioAdvancingByAnInfiniteLengthIsALineError() {
    let script = "advance " + String(repeating: "9", count: 400) + "d"
    #expect(throws: ScenarioSyntaxError.self) { _ = try ScenarioParser.parse(script, fileName: "adv.scenario") }
  }
}
