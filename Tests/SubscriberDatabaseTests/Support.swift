import DashModel
import Foundation
import PostgresNIO
import Testing
@testable import SubscriberDatabase
import CoreValues
import SubscriberStorage

/// A database of its own for each test, made on the test server and dropped afterwards.
enum TestDatabase {
  static var serverURL: String? { ProcessInfo.processInfo.environment["SUBDASH_TEST_DB"] }

  static func with(_ body: (DatabaseURL) async throws -> Void) async throws {
    let server = try DatabaseURL(try #require(serverURL))
    let name = "subdash_t_" + UUID().uuidString.lowercased().replacingOccurrences(of: "-", with: "").prefix(16)
    try await admin(server, "CREATE DATABASE \(name)")
    var url = server
    url.database = String(name)
    do {
      try await body(url)
    } catch {
      try? await admin(server, "DROP DATABASE IF EXISTS \(name) WITH (FORCE)")
      throw error
    }
    try await admin(server, "DROP DATABASE IF EXISTS \(name) WITH (FORCE)")
  }

  /// Statements that cannot run in a transaction or take bound names (CREATE/DROP DATABASE).
  private static func admin(_ server: DatabaseURL, _ sql: String) async throws {
    let c = try await PostgresConnection.connect(configuration: try server.connectionConfiguration(), id: 1, logger: .init(label: "test"))
    do {
      // Read the (empty) result to the end: the statement is done only then.
      for try await _ in try await c.query(PostgresQuery(unsafeSQL: sql), logger: .init(label: "test")) {}
    } catch {
      try? await c.close()
      throw error
    }
    try await c.close()
  }
}

/// A subscriber's whole history as SubDash reads it from a state file: its inline entries (a
/// young subscriber's whole history, `StateFile.inlineHistoryLimit`), then the committed part of
/// its journal if it has one.
enum History {
  static func entries(statePath path: String) throws -> [Journal.Entry] {
    try StateFile.historyEntries(StateFile.load(path: path), statePath: path)
  }

  static func notifications(statePath path: String) throws -> [NotificationRecord] {
    try entries(statePath: path).compactMap { if case .notification(let n) = $0 { return n } else { return nil } }
  }
}

/// Temporary directories holding copies of the Examples.
enum Workspace {
  static let repoRoot = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()

  static func fresh() -> URL {
    let dir = FileManager.default.temporaryDirectory.appendingPathComponent("subdash-dbtest-\(UUID().uuidString)")
    try? FileManager.default.createDirectory(at: dir, withIntermediateDirectories: true)
    return dir
  }

  /// Every Example (and the catalog one names), plus a copy with a journal changed by a plan
  /// action, which appends to that journal: the shape `subdash listen` and the dashboard leave
  /// behind for a subscriber past `StateFile.inlineHistoryLimit` entries.
  static func examplesWithAJournal() throws -> URL {
    let dir = fresh()
    let examples = repoRoot.appendingPathComponent("Examples")
    for name in try FileManager.default.contentsOfDirectory(atPath: examples.path) where name.hasSuffix(".json") || name.hasSuffix(".storekit") {
      try FileManager.default.copyItem(at: examples.appendingPathComponent(name), to: dir.appendingPathComponent(name))
    }
    let changed = dir.appendingPathComponent("zz-changed.json")
    // A young subscriber's history is inline and needs no journal; this copy of active.json
    // journals from the start (a `journal` object, nothing committed yet), so the change below
    // goes to a journal file the database has to carry with the row.
    let active = try String(contentsOf: examples.appendingPathComponent("active.json"), encoding: .utf8)
    guard active.hasPrefix("{\n") else { throw CocoaError(.fileReadCorruptFile) }
    let journalled = "{\n  \"journal\": {\"file\": \"zz-changed.journal.jsonl\", \"committedBytes\": 0},\n" + active.dropFirst(2)
    try Data(journalled.utf8).write(to: changed)
    _ = try StateFile.update(path: changed.path) { (current) throws(StateFileError) -> Change in
      switch Actions.apply(.setAutoRenew(false), to: current, at: Instant(ms: 1_778_000_000_000), timing: TimeRate.realTime) {
      case .success(let change): return change
      case .failure(let refusal): throw StateFileError(file: changed.path, message: refusal.message)
      }
    }
    return dir
  }
}
