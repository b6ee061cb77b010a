import DashModel
import DashView
import Foundation
import Testing

@testable import DashRuntime
import CoreValues
import SubscriberStorage

/// The summary and the timeline where support meets them: `subdash show --json` (the built
/// binary) and a dashboard session following a file while renewals land.
@Suite struct StoryCommandTests {
  @Test func showJSONHasTheSummaryAndTheTimeline() throws {
    let example = DemoStateTests.repoRoot.appendingPathComponent("Examples/refunded.json").path
    let r = try CommandLineTests().run(["show", "--json", example])
    #expect(r.status == 0, "\(r.stderr)")
    let o = try #require(try JSONParser.parse(Array(r.stdout.utf8)).objectValue)
    let summary = try #require(o["summary"]?.objectValue)
    func amounts(_ key: String) -> String { JSONWriter.string(summary[key] ?? .null) }
    #expect(amounts("spent").contains("\"currency\"") && amounts("spent").contains("119.99"))
    #expect(amounts("refunded").contains("119.99"))
    #expect(amounts("net").contains("\"amount\"") && amounts("net").contains("0"))
    for key in ["complete", "customerSince", "customerSinceISO", "paidPeriods", "offersUsed", "renewalExtensions", "refundRequests", "streak"] {
      #expect(summary[key] != nil, "summary.\(key)")
    }
    guard case .array(let periods)? = o["timeline"] else { Issue.record("no timeline array"); return }
    let kinds = periods.compactMap { $0.objectValue?["kind"].flatMap { if case .string(let s) = $0 { s } else { nil } } }
    #expect(kinds == ["paid", "revoked"])
    for key in ["kind", "start", "startISO", "end", "endISO", "productId", "transactionId"] {
      #expect(periods.first?.objectValue?[key] != nil, "timeline[0].\(key)")
    }
    #expect(o["timelineMarks"] != nil)
  }

  /// While a simulation writes renewals, each reload grows the lane: the session re-derives the
  /// story from the current state and what the journal gained.
  @Test func theTimelineGrowsWhenARenewalIsAppended() throws {
    let path = try DashboardSessionTests().copyOfExample("active") { _ in }
    let session = try DashboardSession(path: path, displayName: "state.json", options: DisplayOptions(), nowOverride: nil, retryAccess: nil)
    let wall = Instant(ms: 1_800_000_000_000)
    let before = try #require(session.model(wall: wall).story)
    #expect(before.timeline.periods.count == 5)

    // Two renewals: the newer is also the state's latest transaction; the older is only in the
    // journal, so it shows only if the reload read what the journal gained.
    for _ in 0..<2 {
      _ = try StateFile.update(path: path, refusing: ActionError.self) { (s) throws(ActionError) -> Change in
        try Simulator.advanceToNextEvent(s)
      }
    }
    _ = session.reload(wall: wall + .seconds(1))
    let vm = session.model(wall: wall + .seconds(1))
    let after = try #require(vm.story)
    #expect(after.timeline.periods.count == 7)
    #expect(after.summary.paidPeriods == before.summary.paidPeriods + 2)
    var ui = UIState()
    _ = reduce(&ui, .resized(width: 200, height: 50), context: vm)
    _ = reduce(&ui, .keyPressed(.char("T")), context: vm)
    #expect(render(vm, ui, width: 200, height: 50).textDump.contains("7/7 paid"))
  }
}
