import Foundation
import Testing

@testable import DashModel
@testable import CoreValues
@testable import SubscriberStorage

/// The directory store's follow as the dashboard and the list wait on it: a watch wakes it and
/// says where to look, the follower decides what changed.
@Suite("Store: following a directory")
struct DirectoryFollowerTests {
  /// A watch that reports what the test tells it to, once.
  final class ScriptedWatch: DirectoryWatch {
    var next: WatchReport = .nothing
    var descriptor: Int32? { nil }
    var pollIntervalMs: Int32 { 10 }
    func take() -> WatchReport {
      defer { next = .nothing }
      return next
    }
  }

  @Test func aComparisonReportsWhatWasWrittenCreatedAndRemovedOnce() throws {
    let dir = TempDir()
    dir.write("a.json", "{}")
    dir.write("gone.json", "{}")
    let watch = ScriptedWatch()
    let follower = DirectorySubscriberStore(directory: dir.path).follower(watch: watch)
    watch.next = .unknown
    #expect(follower.take().isEmpty, "nothing changed since following began")

    dir.write("tmp", "{\"x\":1}")
    try FileManager.default.moveItem(atPath: dir.file("tmp"), toPath: dir.file("b.json"))
    try FileManager.default.removeItem(atPath: dir.file("gone.json"))
    dir.write(".a.json.tmp", "hidden: SubDash's own temporary file")
    watch.next = .unknown
    #expect(follower.take() == [.changed("b.json"), .removed("gone.json")])
    watch.next = .unknown
    #expect(follower.take().isEmpty, "each change is reported once")
  }

  @Test func aNameTheKernelReportedWrittenIsReadAgainEvenWithTheSameStamp() {
    let dir = TempDir()
    dir.write("a.json", "{}")
    let watch = ScriptedWatch()
    let follower = DirectorySubscriberStore(directory: dir.path).follower(watch: watch)
    // Two same-size writes within one clock tick can leave the stamp as it was; the event cannot.
    watch.next = .written(["a.json"])
    #expect(follower.take() == [.changed("a.json")])
    watch.next = .nothing
    #expect(follower.take().isEmpty)
  }

  @Test func aDashboardsFollowSeesOnlyItsSubscriber() throws {
    let dir = TempDir()
    dir.write("mine.json", "{}")
    dir.write("other.json", "{}")
    let watch = ScriptedWatch()
    let follower = DirectorySubscriberStore(directory: dir.path).follower(watch: watch, only: "mine.json")
    dir.write("other.json", "{\"changed\":true}")
    watch.next = .written(["other.json"])
    #expect(follower.take().isEmpty)
    watch.next = .unknown
    #expect(follower.take().isEmpty, "a comparison looks at its own file only")
    try FileManager.default.removeItem(atPath: dir.file("mine.json"))
    watch.next = .unknown
    #expect(follower.take() == [.removed("mine.json")])
  }

  @Test func stampsAReaderTookBeforeReadingReportWhatWasWrittenAfter() throws {
    let dir = TempDir()
    dir.write("a.json", "{}")
    let before = try #require(FileStamp(path: dir.file("a.json")))
    dir.write("tmp", "{\"after\":1}")
    rename(dir.file("tmp"), dir.file("a.json"))
    let watch = ScriptedWatch()
    let follower = DirectorySubscriberStore(directory: dir.path).follower(watch: watch, known: ["a.json": before])
    watch.next = .unknown
    #expect(follower.take() == [.changed("a.json")])
  }
}
