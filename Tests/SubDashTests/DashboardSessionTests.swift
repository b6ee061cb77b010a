import DashModel
import DashView
import Foundation
import Testing
@testable import DashRuntime
@testable import SubDash
import CoreValues
import SubscriberStorage

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

  /// A file on a simulated clock is viewed at its own instant whatever the wall clock says: its
  /// story (100,000 transactions take 50 ms to derive) is derived once and reused key after key.
  /// On the wall clock each instant has its own story; a changed file gets a new one.
  @Test func theStoryIsDerivedOncePerVersionAndInstant() throws {
    let simulated = try copyOfExample("active") { root in
      var sim = root["simulation"]?.objectValue ?? JSONObject()
      sim["now"] = .int(Int64(1_790_000_000_000))
      root["simulation"] = .object(sim)
    }
    let session = try DashboardSession(path: simulated, displayName: "state.json", options: DisplayOptions(), nowOverride: nil, retryAccess: nil)
    let first = session.model(wall: Instant(ms: 1_800_000_000_000))
    let second = session.model(wall: Instant(ms: 1_800_000_000_500))
    #expect(first.story != nil)
    #expect(second.story == first.story)
    #expect(session.storyDerivations == 1)
    // The file changes (another writer): its story is derived again.
    var root = try #require(try JSONParser.parse(Array(try Data(contentsOf: URL(fileURLWithPath: simulated)))).objectValue)
    var sim = root["simulation"]?.objectValue ?? JSONObject()
    sim["now"] = .int(Int64(1_790_000_060_000))
    root["simulation"] = .object(sim)
    try Data(JSONWriter.write(.object(root))).write(to: URL(fileURLWithPath: simulated))
    if case .fileFailed(let error) = session.reload(wall: Instant(ms: 1_800_000_001_000)) { Issue.record("reload failed: \(error)") }
    _ = session.model(wall: Instant(ms: 1_800_000_002_000))
    #expect(session.storyDerivations == 2)

    let live = try copyOfExample("active") { root in
      var sim = root["simulation"]?.objectValue ?? JSONObject()
      sim["now"] = nil
      root["simulation"] = .object(sim)
    }
    let liveSession = try DashboardSession(path: live, displayName: "state.json", options: DisplayOptions(), nowOverride: nil, retryAccess: nil)
    let a = liveSession.model(wall: Instant(ms: 1_800_000_000_000))
    let b = liveSession.model(wall: Instant(ms: 1_800_000_000_500))
    #expect(liveSession.storyDerivations == 2)
    #expect(a.story?.timeline.now != b.story?.timeline.now)
  }
}

