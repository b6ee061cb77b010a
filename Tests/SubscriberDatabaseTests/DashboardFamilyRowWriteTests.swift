import DashModel
import DashRuntime
import DashView
import Foundation
import Testing
@testable import SubscriberDatabase
import CoreValues
import SubscriberStorage

/// `e` on a family purchaser opened from `subdash --db URL`: the family members' rows follow the
/// purchaser's new renewal date, as they do in a directory (Apple: "Extending a Family Sharing
/// purchase extends the family members automatically").
@Suite(.enabled(if: TestDatabase.serverURL != nil, "SUBDASH_TEST_DB is not set: not run (bash scripts/test.sh starts a test server)"),
       .serialized)
struct DashboardFamilyRowWriteTests {
  static let purchaser = "2000000871234560"
  static let options = DisplayOptions(readOnly: false, ascii: true, color: false)

  /// Examples/active.json as the purchaser's row; Examples/family-shared.json as a member's row,
  /// linked (its document names the purchaser) or not.
  static func family(linked: Bool) throws -> URL {
    let dir = Workspace.fresh()
    let examples = Workspace.repoRoot.appendingPathComponent("Examples")
    try FileManager.default.copyItem(at: examples.appendingPathComponent("active.json"), to: dir.appendingPathComponent("purchaser.json"))
    var member = try String(contentsOf: examples.appendingPathComponent("family-shared.json"), encoding: .utf8)
    if linked {
      member = member.replacingOccurrences(of: "\"format\": \"subdash-state/1\",",
                                           with: "\"format\": \"subdash-state/1\", \"familyPurchaser\": \"\(purchaser)\",")
    }
    try member.write(to: dir.appendingPathComponent("member.json"), atomically: true, encoding: .utf8)
    return dir
  }

  /// The row's expiry, and the notification types of its history (inline, where a young
  /// subscriber's is, then its journal's).
  static func expires(_ db: SubscriberDatabase, _ name: String) async throws -> (expires: Instant?, notifications: [String]) {
    let row = try #require(try await db.subscribers(named: [name]).first)
    let dir = Workspace.fresh()
    defer { try? FileManager.default.removeItem(at: dir) }
    try DirectoryFiles.write(row, to: dir.path)
    let state = try StateFile.load(path: dir.path + "/" + name)
    return (state.subscriber.latestTransaction?.expiresDate, try History.notifications(statePath: dir.path + "/" + name).map(\.notificationType.rawValue))
  }

  /// The family in a new database, a dashboard on the purchaser's row through the mirror, `e`
  /// pressed (30 days); the status line.
  static func pressE(linked: Bool, _ check: @Sendable (SubscriberDatabase, EffectOutcome) async throws -> Void) async throws {
    try await TestDatabase.with { url in
      let dir = try family(linked: linked)
      defer { try? FileManager.default.removeItem(at: dir) }
      try await SubscriberDatabase.open(url) { db in
        try await db.migrate()
        let read = try DirectoryFiles.read(dir.path)
        try await db.store(read.subscribers, catalogs: read.catalogs)
        let mirror = try DatabaseMirror.start(url: url.description, follow: true)
        defer { mirror.stop() }
        let session = try DashboardSession(path: mirror.directory + "/purchaser.json", displayName: "purchaser.json", options: options,
                                           nowOverride: nil, retryAccess: nil)
        session.rowWriter = mirror
        let outcome = await DashboardRowWriteTests.press(.extendRenewalDate(days: 30, reason: .customerSatisfaction), session)
        try await check(db, outcome)
      }
    }
  }

  @Test func theLinkedMembersRowFollowsThePurchasersExtension() async throws {
    try await Self.pressE(linked: true) { db, outcome in
      guard case .succeeded(let status) = outcome else { Issue.record("the extension was refused: \(outcome)"); return }
      #expect(status.hasSuffix(" 1 family member followed."), "\(status)")
      let purchaser = try #require(try await Self.expires(db, "purchaser.json").expires)
      let member = try await Self.expires(db, "member.json")
      #expect(member.expires == purchaser)
      #expect(member.notifications.contains("RENEWAL_EXTENDED"))
    }
  }

  @Test func withNoLinkedMemberTheRowIsLeftAndTheStatusSaysNoneWasFound() async throws {
    try await Self.pressE(linked: false) { db, outcome in
      guard case .succeeded(let status) = outcome else { Issue.record("the extension was refused: \(outcome)"); return }
      #expect(status.hasSuffix(" No family member of \(Self.purchaser) found in the database (a member's file names it as familyPurchaser)."), "\(status)")
      let member = try await Self.expires(db, "member.json")
      #expect(!member.notifications.isEmpty, "the member's history is read")
      #expect(!member.notifications.contains("RENEWAL_EXTENDED"))
    }
  }
}
