import DashModel
import DashRuntime
import DashView
import Foundation
import Testing
@testable import SubscriberDatabase
import CoreValues

/// A dashboard over `subdash --db URL` finds the Retention Messaging configuration `serve --db`
/// keeps in the database (the default message shown when the realtime URL does not answer, the
/// realtime URL itself), and a change to it while the dashboard is open.
@Suite(.enabled(if: TestDatabase.serverURL != nil, "SUBDASH_TEST_DB is not set: not run (bash scripts/test.sh starts a test server)"),
       .serialized)
struct DashboardRetentionOverDatabaseTests {
  static let options = DisplayOptions(readOnly: false, ascii: true, color: false)

  /// The document as `serve --db` stores it: one message, the default for Family Monthly in en-US.
  static func configuration(header: String, realtimeURL: String? = nil) -> [UInt8] {
    var fields: [(String, JSON)] = [
      ("messages", .array([.object(JSONObject([
        ("messageIdentifier", .string("a5f9c2d0-0000-4000-8000-000000000001")),
        ("message", .object(JSONObject([("header", .string(header)), ("body", .string("Your birds miss you."))]))),
      ]))])),
      ("defaults", .array([.object(JSONObject([
        ("key", .string("pass.family.monthly/en-US")), ("messageIdentifier", .string("a5f9c2d0-0000-4000-8000-000000000001")),
      ]))])),
    ]
    if let realtimeURL { fields.append(("realtimeURL", .string(realtimeURL))) }
    return JSONWriter.write(.object(JSONObject(fields)))
  }

  static func defaultHeader(_ session: DashboardSession, wall: Instant) -> String? {
    session.model(wall: wall).retention?.defaultMessage(productId: "pass.family.monthly", locale: "en-US")?.message.header
  }

  @Test func theDefaultMessageAndRealtimeURLComeFromTheDatabaseAndFollowItsChanges() async throws {
    try await TestDatabase.with { url in
      let dir = Workspace.fresh()
      defer { try? FileManager.default.removeItem(at: dir) }
      let examples = Workspace.repoRoot.appendingPathComponent("Examples")
      try FileManager.default.copyItem(at: examples.appendingPathComponent("active.json"), to: dir.appendingPathComponent("active.json"))
      try await SubscriberDatabase.open(url) { db in
        try await db.migrate()
        let read = try DirectoryFiles.read(dir.path)
        try await db.store(read.subscribers, catalogs: read.catalogs)
        try await db.updateConfiguration(named: SubscriberDatabase.retentionConfigurationName) { _ in
          Self.configuration(header: "Before you go", realtimeURL: "https://127.0.0.1:9/realtime")
        }
        let mirror = try DatabaseMirror.start(url: url.description, follow: true)
        defer { mirror.stop() }
        let session = try DashboardSession(path: mirror.directory + "/active.json", displayName: "active.json", options: Self.options,
                                           nowOverride: nil, retryAccess: nil)
        var wall = WallClock.now()
        let vm = session.model(wall: wall)
        #expect(vm.retentionProblem == nil, "\(vm.retentionProblem ?? "")")
        #expect(Self.defaultHeader(session, wall: wall) == "Before you go")
        #expect(vm.retention?.realtimeURL == "https://127.0.0.1:9/realtime")

        // serve --db changes it while the dashboard is open: the dashboard reads the new one.
        try await db.updateConfiguration(named: SubscriberDatabase.retentionConfigurationName) { _ in
          Self.configuration(header: "Wait, a gift")
        }
        for _ in 0..<500 where Self.defaultHeader(session, wall: wall) != "Wait, a gift" {
          try await Task.sleep(for: .milliseconds(10))
          wall = wall + Span.seconds(2)  // past the dashboard's one-second reading cache
        }
        #expect(Self.defaultHeader(session, wall: wall) == "Wait, a gift")
        #expect(session.model(wall: wall).retention?.realtimeURL == nil)
      }
    }
  }
}
