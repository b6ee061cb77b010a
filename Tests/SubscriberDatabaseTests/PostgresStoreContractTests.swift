import DashModel
import Foundation
import Testing
@testable import SubscriberDatabase
import CoreValues
import SubscriberStorage

/// The team database and a directory behind the same `SubscriberStore` protocol: one script, run
/// against each, gets the same typed results, the same stored state and history, no lost update
/// among concurrent writers, and `follow` reports the writes. A caller cannot tell them apart.
@Suite(.serialized, .enabled(if: TestDatabase.serverURL != nil, "SUBDASH_TEST_DB is not set: not run (bash scripts/test.sh starts a test server)"),
       .timeLimit(.minutes(2)))
struct PostgresStoreContractTests {
  /// The subscriber journals from its first entry (a `journal` object, nothing committed yet): a
  /// young subscriber's history is inline (`StateFile.inlineHistoryLimit`), and the script checks
  /// each store's journal (`history()`, `held(_:)`, the row's journal).
  static func document(_ owner: String) throws -> JSONObject {
    try #require(try JSONParser.parse(Array(#"{"format":"subdash-state/1","catalog":{"subscriptionGroups":[]},"journal":{"file":"contract.journal.jsonl","committedBytes":0},"subscriber":{"x-owner":"\#(owner)"}}"#.utf8)).objectValue)
  }

  /// A change that counts in the document and records one notification in the history.
  static func bump(_ s: SubscriptionState, _ uuid: String) -> SubscriberEdit {
    var next = s
    let n = (next.document.subscriber.source["x-counter"].flatMap { if case .number(let v) = $0 { return Int(v) } else { return nil } }) ?? 0
    next.document.subscriber.source["x-counter"] = .int(n + 1)
    let note = NotificationRecord(type: .test, uuid: uuid, signedDate: Instant(ms: 1_780_000_000_000 + Double(n) * 1000), status: nil)
    return .save(Change(state: next, notifications: [note], message: "bumped to \(n + 1)"))
  }

  struct Refused: Error {}

  /// The script: what every store must answer, in order.
  static func script(_ store: any SubscriberStore, label: String) async throws {
    let name = "contract.json"
    let firstDocument = try Self.document("first"), secondDocument = try Self.document("second")
    // Created once; a second creation of the same name is refused, the first one's kept.
    let made = await store.update(name) { (current) throws(Never) -> SubscriberEdit in
      current == nil ? .create(NewSubscriber(document: firstDocument, message: "made")) : .leave
    }
    guard case .created = made else { Issue.record("\(label): expected created, got \(made)"); return }
    let again = await store.update(name) { (_) throws(Never) -> SubscriberEdit in .create(NewSubscriber(document: secondDocument, message: "again")) }
    guard case .failed = again else { Issue.record("\(label): expected failed, got \(again)"); return }
    #expect(try await store.list() == [name], "\(label)")
    #expect(try await store.get(name)?.state.subscriber.source["x-owner"] == .string("first"), "\(label)")
    #expect(try await store.get("none.json") == nil, "\(label)")

    // A refusal and a leave write nothing; a missing subscriber is never created by a change.
    let refused = await store.update(existing: name) { (_) throws(Refused) -> SubscriberEdit in throw Refused() }
    guard case .refused = refused else { Issue.record("\(label): expected refused, got \(refused)"); return }
    let left = await store.update(existing: name) { (_) throws(Never) -> SubscriberEdit in .leave }
    guard case .unchanged(let kept?) = left else { Issue.record("\(label): expected unchanged, got \(left)"); return }
    #expect(kept.subscriber.source["x-counter"] == nil, "\(label)")
    let missing = await store.update(existing: "missing.json") { (s) throws(Never) -> SubscriberEdit in .save(Change(state: s, message: "x")) }
    guard case .failed = missing else { Issue.record("\(label): expected failed, got \(missing)"); return }
    #expect(try await store.list() == [name], "\(label)")

    // Followed: a write is reported.
    var events = store.follow().makeAsyncIterator()
    try await Task.sleep(for: .milliseconds(200))
    let first = await store.update(existing: name) { (s) throws(Never) -> SubscriberEdit in Self.bump(s, "00000000-0000-4000-8000-000000000000") }
    guard case .applied(let c) = first else { Issue.record("\(label): expected applied, got \(first)"); return }
    #expect(c.message == "bumped to 1")
    #expect(await events.next() == .changed(name), "\(label)")

    // Twenty writers at once: every change is in the result, none lost.
    try await withThrowingTaskGroup(of: Void.self) { group in
      for k in 1...20 {
        group.addTask {
          let uuid = String(format: "00000000-0000-4000-8000-%012d", k)
          let r = await store.update(existing: name) { (s) throws(Never) -> SubscriberEdit in Self.bump(s, uuid) }
          if case .applied = r {} else { Issue.record("\(label): writer \(k) got \(r)") }
        }
      }
      try await group.waitForAll()
    }
    let last = try #require(try await store.get(name))
    #expect(last.state.subscriber.source["x-counter"] == .int(21), "\(label)")
    let notes = try last.history().compactMap { if case .notification(let n) = $0 { return n.notificationUUID } else { return nil } }
    #expect(notes.count == 21 && Set(notes).count == 21, "\(label): \(notes.count) notifications in the history")
    // What the history already holds (an import's question) is answered alike by either store.
    let asked = HistoryKeys(notificationUUIDs: ["00000000-0000-4000-8000-000000000007", "00000000-0000-4000-8000-000000000999"])
    #expect(try last.held(asked) == HistoryKeys(notificationUUIDs: ["00000000-0000-4000-8000-000000000007"]), "\(label)")
  }

  @Test func theSameScriptGetsTheSameAnswersFromADirectoryAndFromTheDatabase() async throws {
    let dir = Workspace.fresh()
    defer { try? FileManager.default.removeItem(at: dir) }
    try await Self.script(DirectorySubscriberStore(directory: dir.path, followInterval: .milliseconds(20)), label: "directory")
    try await TestDatabase.with { url in
      try await SubscriberDatabase.open(url) { db in
        try await db.migrate()
        let scratch = try PrivateDirectory.makeTemporary("subdash-store-test")
        defer { PrivateDirectory.remove(scratch) }
        try await Self.script(PostgresSubscriberStore(database: db, scratch: scratch), label: "database")
        // What the database holds is a state file SubDash opens, with its journal.
        let row = try #require(try await db.subscribers(named: ["contract.json"]).first)
        #expect(row.version == 22)
        #expect(row.journal != nil)
      }
    }
  }

  @Test func aRowAnotherSessionHoldsIsBusyWithinTheBoundAndNothingIsWritten() async throws {
    try await TestDatabase.with { url in
      try await SubscriberDatabase.open(url) { db in
        try await db.migrate()
        let scratch = try PrivateDirectory.makeTemporary("subdash-store-test")
        defer { PrivateDirectory.remove(scratch) }
        let store = PostgresSubscriberStore(database: db, scratch: scratch)
        let document = try Self.document("a")
        _ = await store.update("held.json") { (_) throws(Never) -> SubscriberEdit in .create(NewSubscriber(document: document, message: "made")) }
        let holding = Task {
          try await db.update("held.json") { _ in
            try await Task.sleep(for: .seconds(30))
            return nil
          }
        }
        try await Task.sleep(for: .milliseconds(300))
        let started = ContinuousClock.now
        let r = await store.update(existing: "held.json") { (s) throws(Never) -> SubscriberEdit in Self.bump(s, "00000000-0000-4000-8000-000000000099") }
        guard case .busy(let e) = r else { Issue.record("expected busy, got \(r)"); return }
        #expect(e.kind == .busy)
        #expect(ContinuousClock.now - started < .seconds(20))
        #expect(try await store.get("held.json")?.state.subscriber.source["x-counter"] == nil)
        holding.cancel()
        _ = try? await holding.value
      }
    }
  }
}
