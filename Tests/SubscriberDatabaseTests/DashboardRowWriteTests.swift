import DashModel
import DashRuntime
import DashView
import Foundation
import Glibc
import Testing
@testable import SubscriberDatabase
import CoreValues
import SubscriberStorage

/// A support agent's keys on a subscriber of the team database (`subdash --db URL`, a dashboard
/// opened from the list): written to the row under its lock through the mirror, never to the
/// mirror's copy, so neither the key nor another writer's commit is lost.
@Suite(.enabled(if: TestDatabase.serverURL != nil, "SUBDASH_TEST_DB is not set: not run (bash scripts/test.sh starts a test server)"),
       .serialized)
struct DashboardRowWriteTests {
  static let name = "auto-renew-off.json"
  static let options = DisplayOptions(readOnly: false, ascii: true, color: false)

  /// The Examples in a new database, the mirror following it, and a dashboard session on one row.
  static func withDashboard(_ body: @Sendable (SubscriberDatabase, DatabaseMirror, DashboardSession) async throws -> Void) async throws {
    try await TestDatabase.with { url in
      let dir = Workspace.fresh()
      defer { try? FileManager.default.removeItem(at: dir) }
      let examples = Workspace.repoRoot.appendingPathComponent("Examples")
      for file in [name, "backyard-birds.storekit"] {
        try FileManager.default.copyItem(at: examples.appendingPathComponent(file), to: dir.appendingPathComponent(file))
      }
      try await SubscriberDatabase.open(url) { db in
        try await db.migrate()
        let read = try DirectoryFiles.read(dir.path)
        try await db.store(read.subscribers, catalogs: read.catalogs)
        let mirror = try DatabaseMirror.start(url: url.description, follow: true)
        defer { mirror.stop() }
        let session = try DashboardSession(path: mirror.directory + "/" + name, displayName: name, options: options, nowOverride: nil, retryAccess: nil)
        session.rowWriter = mirror
        try await body(db, mirror, session)
      }
    }
  }

  /// A key pressed on the dashboard, off the concurrency threads (it waits on the mirror's pipe).
  static func press(_ action: PlanAction, _ session: DashboardSession) async -> EffectOutcome {
    let box = UncheckedBox(session)
    return await withCheckedContinuation { c in
      Thread.detachNewThread { c.resume(returning: UncheckedBox(box.value.perform(action, wall: WallClock.now())).value) }
    }
  }

  /// The row as a state file: its state, its history's notifications (inline, where a young
  /// subscriber's are, then its journal's) and its version.
  static func row(_ db: SubscriberDatabase) async throws -> (state: SubscriptionState, notifications: [NotificationRecord], version: Int64) {
    let s = try #require(try await db.subscribers(named: [name]).first)
    let dir = Workspace.fresh()
    defer { try? FileManager.default.removeItem(at: dir) }
    try DirectoryFiles.write(s, to: dir.path)
    let path = dir.path + "/" + name
    return (try StateFile.load(path: path), try History.notifications(statePath: path), s.version)
  }

  static func count(_ notes: [NotificationRecord], _ type: String, _ subtype: String? = nil) -> Int {
    notes.filter { $0.notificationType.rawValue == type && (subtype == nil || $0.subtype?.rawValue == subtype) }.count
  }

  @Test func aKeyIsStoredInTheRowAndTheMirrorShowsIt() async throws {
    try await Self.withDashboard { db, mirror, session in
      let before = try await Self.row(db)
      #expect(before.state.subscriber.renewalInfo?.autoRenewStatus == .off)
      guard case .succeeded(let message) = await Self.press(.setAutoRenew(true), session) else {
        Issue.record("turning auto-renew on was refused")
        return
      }
      #expect(message.contains("auto-renew on"))
      let after = try await Self.row(db)
      #expect(after.state.subscriber.renewalInfo?.autoRenewStatus == .on)
      #expect(after.version == before.version + 1)
      #expect(Self.count(after.notifications, "DID_CHANGE_RENEWAL_STATUS", "AUTO_RENEW_ENABLED")
                == Self.count(before.notifications, "DID_CHANGE_RENEWAL_STATUS", "AUTO_RENEW_ENABLED") + 1)
      // The commit's NOTIFY brings the mirror's copy (what the dashboard watches) up to date.
      let path = mirror.directory + "/" + Self.name
      for _ in 0..<500 where (try? StateFile.load(path: path))?.subscriber.renewalInfo?.autoRenewStatus != .on {
        try await Task.sleep(for: .milliseconds(10))
      }
      #expect(try StateFile.load(path: path).subscriber.renewalInfo?.autoRenewStatus == .on)
    }
  }

  @Test func aRefusedKeyLeavesTheRowAsItWas() async throws {
    try await Self.withDashboard { db, _, session in
      let before = try await Self.row(db)
      // Auto-renew is already off: Apple's rules refuse turning it off again.
      guard case .failed = await Self.press(.setAutoRenew(false), session) else {
        Issue.record("turning auto-renew off twice was not refused")
        return
      }
      #expect(try await Self.row(db).version == before.version)
    }
  }

  /// Twenty keys on the dashboard while another writer (a `listen --db`, say) commits twenty
  /// changes to the same row: every one of the forty is in the row at the end.
  @Test func keysAndAnotherWritersCommitsAreAllKept() async throws {
    try await Self.withDashboard { db, _, session in
      let before = try await Self.row(db)
      let other = Task {
        for n in 1...20 {
          try await db.update(Self.name) { current in
            guard var s = current, case .object(var o)? = try? JSONParser.parse(s.document) else { return nil }
            o["x-other-writer"] = .number(String(n))
            s.document = JSONWriter.write(.object(o))
            return s
          }
        }
      }
      var toggles = 0
      for n in 1...20 {
        if case .succeeded = await Self.press(.setAutoRenew(n % 2 == 1), session) { toggles += 1 }
      }
      try await other.value
      #expect(toggles == 20)
      let after = try await Self.row(db)
      #expect(after.state.document.source["x-other-writer"] == .number("20"))
      #expect(Self.count(after.notifications, "DID_CHANGE_RENEWAL_STATUS") - Self.count(before.notifications, "DID_CHANGE_RENEWAL_STATUS") == 20)
      #expect(after.state.subscriber.renewalInfo?.autoRenewStatus == .off)
    }
  }

  @Test func aMirrorThatHasStoppedRefusesKeysWithoutEndingTheProgram() async throws {
    try await Self.withDashboard { db, mirror, session in
      let before = try await Self.row(db)
      kill(mirror.pid, SIGKILL)
      guard case .failed(let why) = await Self.press(.setAutoRenew(true), session) else {
        Issue.record("a key was taken with the mirror gone")
        return
      }
      #expect(why.contains("keys are off until subdash is restarted"))
      #expect(try await Self.row(db).version == before.version)
    }
  }
}

/// Carries a non-Sendable value to the thread that uses it alone.
struct UncheckedBox<T>: @unchecked Sendable {
  let value: T
  init(_ value: T) { self.value = value }
}
