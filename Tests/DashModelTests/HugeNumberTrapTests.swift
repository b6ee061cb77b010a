import Foundation
import Testing

@testable import DashModel

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

  @Test func aScenarioAdvancingByAnInfiniteLengthIsALineError() {
    let script = "advance " + String(repeating: "9", count: 400) + "d"
    #expect(throws: ScenarioSyntaxError.self) { _ = try ScenarioParser.parse(script, fileName: "adv.scenario") }
  }
}
