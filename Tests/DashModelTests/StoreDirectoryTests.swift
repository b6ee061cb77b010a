import Foundation
import Testing

@testable import DashModel

#if canImport(Glibc)
import Glibc
#endif
@testable import CoreValues
@testable import SubscriberStorage

/// The subscriber store over a directory of state files: typed results, new files created under
/// the same lock and atomic rename as updates, reads that never write, and changes followed.
@Suite("Store: a directory of state files", .timeLimit(.minutes(1)))
struct StoreDirectoryTests {
  static func newSubscriber(_ otid: String) -> NewSubscriber {
    let doc = try! JSONParser.parse(Array(#"{"format":"subdash-state/1","catalog":{"subscriptionGroups":[]},"subscriber":{"x-owner":"\#(otid)"}}"#.utf8)).objectValue!
    return NewSubscriber(document: doc, message: "made by \(otid)")
  }

  @Test func twoCreatorsOfTheSameNewFileOneCreatesItWholeAndTheOtherSeesIt() throws {
    let dir = TempDir()
    let store = DirectorySubscriberStore(directory: dir.path)
    for round in 0..<25 {
      let name = "race-\(round).json"
      let results = ResultBox<[Int: UpdateResult<Never>]>()
      results.value = [:]
      DispatchQueue.concurrentPerform(iterations: 2) { creator in
        let r = store.update(name, wait: .bounded) { (current) throws(Never) -> SubscriberEdit in
          current == nil ? .create(Self.newSubscriber("creator-\(creator)")) : .leave
        }
        let box = results
        objc_sync(box) { box.value![creator] = r }
      }
      let all = results.value!
      var created: [Int] = []
      var saw: [Int] = []
      for (creator, r) in all {
        switch r {
        case .created: created.append(creator)
        case .unchanged(let state?): saw.append(creator); #expect(state.subscriber.source["x-owner"] != nil)
        default: Issue.record("round \(round): creator \(creator) got \(r)")
        }
      }
      #expect(created.count == 1 && saw.count == 1, "round \(round): \(all)")
      // Whole, the winner's, private, and no temporary file left beside it.
      let state = try StateFile.load(path: dir.file(name))
      #expect(state.subscriber.source["x-owner"] == .string("creator-\(created.first ?? -1)"))
      var st = stat()
      #expect(lstat(dir.file(name), &st) == 0 && st.st_mode & 0o777 == 0o600)
    }
    let leftovers = try FileManager.default.contentsOfDirectory(atPath: dir.path).filter { $0.contains("subdash-tmp") }
    #expect(leftovers.isEmpty)
  }

  @Test func aCreatorFindingTheLockHeldWritesNothingAndSaysBusy() throws {
    let dir = TempDir()
    let store = DirectorySubscriberStore(directory: dir.path)
    let holder = try HeldLock.hold(dir.file("new.json"))
    defer { holder.release() }
    let r = store.update("new.json", wait: .tryOnce) { (_) throws(Never) -> SubscriberEdit in .create(Self.newSubscriber("a")) }
    guard case .busy(let e) = r else { Issue.record("expected busy, got \(r)"); return }
    #expect(e.kind == .busy)
    #expect(!FileManager.default.fileExists(atPath: dir.file("new.json")))
  }

  @Test func aChangeOfAMissingSubscriberFailsAndLeavesNoLockFileBehind() {
    let dir = TempDir()
    let store = DirectorySubscriberStore(directory: dir.path)
    let r = store.update(existing: "missing.json", wait: .bounded) { (s) throws(Never) -> SubscriberEdit in .save(Change(state: s, message: "x")) }
    guard case .failed(let e) = r else { Issue.record("expected failed, got \(r)"); return }
    #expect(e.description == "missing.json: no such state file; nothing was created")
    #expect(!FileManager.default.fileExists(atPath: dir.file(".subdash.lock")))
  }

  @Test func resultsAreTypedLeaveIsUnchangedARefusalWritesNothing() throws {
    let dir = TempDir()
    let path = dir.write("a.json", StorageConcurrencyTests.base)
    let before = dir.bytes("a.json")
    let store = DirectorySubscriberStore(directory: dir.path)
    struct No: Error {}
    let refused = store.update(existing: "a.json", wait: .bounded) { (_) throws(No) -> SubscriberEdit in throw No() }
    guard case .refused = refused else { Issue.record("expected refused, got \(refused)"); return }
    let left = store.update(existing: "a.json", wait: .bounded) { (_) throws(Never) -> SubscriberEdit in .leave }
    guard case .unchanged(let state?) = left else { Issue.record("expected unchanged, got \(left)"); return }
    #expect(state.subscriber.source["x-counter"] == .int(0))
    #expect(dir.bytes("a.json") == before)
    // The same state with no history is no write either (saveIfChanged).
    let same = store.update(existing: "a.json", wait: .bounded) { (s) throws(Never) -> SubscriberEdit in
      .saveIfChanged(Change(state: s, message: "same"), from: s)
    }
    guard case .unchanged = same else { Issue.record("expected unchanged, got \(same)"); return }
    #expect(FileStamp(path: path) != nil && dir.bytes("a.json") == before)
  }

  @Test func namesThatLeaveTheDirectoryAreRefused() {
    let store = DirectorySubscriberStore(directory: TempDir().path)
    for name in ["../x.json", "a/b.json", "..", ".", "", "a\u{1B}.json"] {
      let r = store.update(name, wait: .bounded) { (_) throws(Never) -> SubscriberEdit in .create(Self.newSubscriber("x")) }
      guard case .failed = r else { Issue.record("\(name): expected failed, got \(r)"); continue }
    }
  }

  @Test func listGetAndHistoryReadWhatIsStored() throws {
    let dir = TempDir()
    // Journaling from its first entry: `history()` is the journal's (the inline history is in `state`).
    dir.write("b.json", StorageConcurrencyTests.journaling("b.json"))
    dir.write(".hidden.json", StorageConcurrencyTests.base)
    dir.write("notes.txt", "x")
    let store = DirectorySubscriberStore(directory: dir.path)
    try StorageConcurrencyTests.bump(dir.file("b.json"), summary: "one")
    #expect(try store.list() == ["b.json"])
    let b = try #require(try store.get("b.json"))
    #expect(b.state.subscriber.source["x-counter"] == .int(1))
    #expect(try b.history().count == 1)
    #expect(try store.get("none.json") == nil)
  }

  @Test func followSeesAWriteAndARemoval() async throws {
    let dir = TempDir()
    dir.write("f.json", StorageConcurrencyTests.base)
    let store = DirectorySubscriberStore(directory: dir.path, followInterval: .milliseconds(20))
    var events = store.follow().makeAsyncIterator()
    try await Task.sleep(for: .milliseconds(60))
    try StorageConcurrencyTests.bump(dir.file("f.json"), summary: "seen")
    #expect(await events.next() == .changed("f.json"))
    try FileManager.default.removeItem(atPath: dir.file("f.json"))
    #expect(await events.next() == .removed("f.json"))
  }

  @Test func theAsyncUpdateWaitsForAHeldLockWithoutWriting() async throws {
    let dir = TempDir()
    let path = dir.write("s.json", StorageConcurrencyTests.base)
    let before = HeldLock.bytes(path)
    let dirPath = dir.path
    let result = try await HeldLock.asyncWriterWaits(for: path, unchanged: { HeldLock.bytes(path) == before }) {
      await DirectorySubscriberStore(directory: dirPath).update(existing: "s.json") { (s) throws(Never) -> SubscriberEdit in
        var n = s
        n.document.subscriber.source["x-counter"] = .int(9)
        return .save(Change(state: n, message: "nine"))
      }
    }
    guard case .applied(let c) = result else { Issue.record("expected applied, got \(result)"); return }
    #expect(c.state.subscriber.source["x-counter"] == .int(9))
  }
}

/// A lock around a mutation of shared test state (Foundation's NSLock, keyed by object).
private let syncLock = NSLock()
func objc_sync<T>(_: AnyObject, _ body: () -> T) -> T { syncLock.withLock(body) }
