import DashModel
import DashView
import Foundation
import Testing
@testable import DashRuntime
@testable import SubDash

/// The dashboard's session writes what its confirmation promised: at an accelerated time rate an
/// upgrade's new period is the rate's length, not a calendar month.
@Suite struct DashboardSessionTests {
  func copyOfExample(_ name: String, edit: (inout JSONObject) -> Void) throws -> String {
    let dir = FileManager.default.temporaryDirectory.appendingPathComponent("subdash-session-\(UUID().uuidString)")
    try FileManager.default.createDirectory(at: dir, withIntermediateDirectories: true)
    let source = DemoStateTests.repoRoot.appendingPathComponent("Examples/\(name).json")
    var root = try JSONParser.parse(Array(try Data(contentsOf: source))).objectValue!
    edit(&root)
    let path = dir.appendingPathComponent("state.json").path
    try Data(JSONWriter.write(.object(root))).write(to: URL(fileURLWithPath: path))
    return path
  }

  @Test func upgradeAtAFastRateUsesTheRatesPeriodLikeItsPreview() throws {
    let path = try copyOfExample("active") { root in
      var sim = root["simulation"]?.objectValue ?? JSONObject()
      sim["timeRate"] = .string("oneRenewalEveryTwoSeconds")
      root["simulation"] = .object(sim)
    }
    let session = try DashboardSession(path: path, displayName: "state.json", options: DisplayOptions(), nowOverride: nil, retryAccess: nil)
    let wall = Instant(ms: 1_800_000_000_000)
    let action = PlanAction.upgrade(toProductId: "pass.premium.monthly")
    let preview = try session.model(wall: wall).advisor.preview(action).get()

    guard case .succeeded = session.perform(action, wall: wall) else {
      Issue.record("the upgrade was refused")
      return
    }
    let t = try #require(try StateFile.load(path: path).subscriber.latestTransaction)
    #expect(t.productId == "pass.premium.monthly")
    #expect(try #require(t.expiresDate) - (try #require(t.purchaseDate)) == .seconds(2))
    // A period of two seconds is said with its seconds (a minute-only time would read as zero).
    #expect(preview.summary.contains(Format.date(try #require(t.expiresDate), now: try #require(t.purchaseDate))), "\(preview.summary)")
    #expect(Format.date(try #require(t.expiresDate), now: try #require(t.purchaseDate)).split(separator: ":").count == 3)
  }

  /// The session keeps the viewing copy (no inline history, same summary) after opening and after
  /// every reload, so a long history is not held in memory twice while the next version parses.
  @Test func theSessionKeepsNoInlineHistoryAfterOpeningOrReloading() throws {
    let path = try copyOfExample("expired-voluntary") { _ in }
    let full = try StateFile.load(path: path)
    let session = try DashboardSession(path: path, displayName: "state.json", options: DisplayOptions(), nowOverride: nil, retryAccess: nil)
    #expect(full.subscriber.transactions.count > 0)
    #expect(session.state.subscriber.transactions.isEmpty)
    #expect(session.state.historySummary == full.historySummary)
    if case .fileFailed(let error) = session.reload(wall: Instant(ms: 1_800_000_000_000)) { Issue.record("reload failed: \(error)") }
    #expect(session.state.subscriber.transactions.isEmpty)
    #expect(session.state.historySummary == full.historySummary)
  }
}
