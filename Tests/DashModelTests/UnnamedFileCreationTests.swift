#if os(Linux)
import Foundation
import Glibc
import Testing


/// A new subscriber's files (its state file, holding its young history inline; the directory's
/// lock file `.subdash.lock` when it is the first; the spare of its second save; its journal, once
/// the history outgrows the document) are
/// made unnamed and named only once whole, so their inodes are not allocated under the
/// directory's lock; where no unnamed file can be made they are made by name as before. Either
/// way: 0600, never seen half written, never written over something that has the name.
@Suite("Store: a new subscriber's files are named only once whole", .serialized)
struct UnnamedFileCreationTests {
  /// The store `listen` writes through.
  static func receiverStore(_ dir: TempDir) -> DirectorySubscriberStore {
    var store = DirectorySubscriberStore(directory: dir.path)
    store.keepsSpareFiles = true
    return store
  }

  static func newSubscriber(_ owner: String) -> NewSubscriber {
    let doc = try! JSONParser.parse(Array(#"{"format":"subdash-state/1","catalog":{"subscriptionGroups":[]},"subscriber":{"x-owner":"\#(owner)"}}"#.utf8)).objectValue!
    let note = NotificationRecord(type: .test, uuid: "first-\(owner)", signedDate: Instant(ms: 1), status: nil, summary: "first")
    return NewSubscriber(document: doc, history: [.notification(note)], message: "made by \(owner)")
  }

  static func create(_ store: DirectorySubscriberStore, _ name: String) -> UpdateResult<Never> {
    store.update(name, wait: .bounded) { (current) throws(Never) -> SubscriberEdit in
      current == nil ? .create(Self.newSubscriber(name)) : .leave
    }
  }

  /// One more notification for an existing subscriber (its first save makes the spare).
  static func save(_ store: DirectorySubscriberStore, _ name: String, _ uuid: String) -> UpdateResult<Never> {
    store.update(name, wait: .bounded) { (current) throws(Never) -> SubscriberEdit in
      guard let current else { return .leave }
      let note = NotificationRecord(type: .test, uuid: uuid, signedDate: Instant(ms: 2), status: nil, summary: uuid)
      return .save(Change(state: current.state, notifications: [note], message: uuid))
    }
  }

  /// What the directory announced (inotify): each entry is "created NAME", "moved away NAME" or
  /// "moved in NAME", in order.
  final class DirectoryEvents {
    let fd: Int32
    init(_ directory: String) throws {
      fd = inotify_init1(Int32(IN_NONBLOCK | IN_CLOEXEC))
      try #require(fd >= 0)
      try #require(inotify_add_watch(fd, directory, UInt32(IN_CREATE | IN_MOVED_FROM | IN_MOVED_TO)) >= 0)
    }
    deinit { close(fd) }

    func take() -> [String] {
      var out: [String] = []
      var buffer = [UInt8](repeating: 0, count: 65536)
      while true {
        let n = read(fd, &buffer, buffer.count)
        guard n > 0 else { return out }
        var at = 0
        while at + MemoryLayout<inotify_event>.size <= n {
          let (mask, length) = buffer.withUnsafeBytes { raw in
            let e = raw.loadUnaligned(fromByteOffset: at, as: inotify_event.self)
            return (e.mask, Int(e.len))
          }
          let start = at + MemoryLayout<inotify_event>.size
          let name = String(decoding: buffer[start..<(start + length)].prefix { $0 != 0 }, as: UTF8.self)
          let what = mask & UInt32(IN_CREATE) != 0 ? "created" : mask & UInt32(IN_MOVED_FROM) != 0 ? "moved away" : "moved in"
          out.append("\(what) \(name)")
          at = start + length
        }
      }
    }
  }

  static func mode(_ path: String) -> mode_t? {
    var st = stat()
    return lstat(path, &st) == 0 && st.st_mode & S_IFMT == S_IFREG && st.st_nlink == 1 ? st.st_mode & 0o7777 : nil
  }

  @Test func aNewSubscribersFilesAppearOnceEachUnderTheirOwnNamesWhole() throws {
    let dir = TempDir()
    let store = Self.receiverStore(dir)
    let events = try DirectoryEvents(dir.path)
    guard case .created = Self.create(store, "n.json") else { Issue.record("not created"); return }
    // No temporary name and no rename: each file got its name once, after it was written. A new
    // subscriber is one new file: its history is inline.
    #expect(Set(events.take()) == ["created .subdash.lock", "created n.json"])
    guard case .applied = Self.save(store, "n.json", "second") else { Issue.record("not saved"); return }
    // The directory's first spare is named once written, then swapped with the file in one step.
    #expect(events.take() == ["created .subdash-spare-0", "moved away .subdash-spare-0", "moved in n.json", "moved away n.json", "moved in .subdash-spare-0"])
    for name in ["n.json", ".subdash.lock", ".subdash-spare-0"] {
      #expect(Self.mode(dir.file(name)) == 0o600, "\(name)")
    }
    var state = try StateFile.load(path: dir.file("n.json"))
    #expect(state.subscriber.source["x-owner"] == .string("n.json"))
    #expect(state.document.journal == nil)
    #expect(try historyEntries(dir.file("n.json")).count == 2)

    // The save that outgrows the inline history makes the journal, unnamed and named once whole.
    for k in 2..<StateFile.inlineHistoryLimit {
      guard case .applied = Self.save(store, "n.json", "save \(k)") else { Issue.record("save \(k) failed"); return }
    }
    #expect(!events.take().contains { $0.hasSuffix("journal.jsonl") })
    guard case .applied = Self.save(store, "n.json", "past the limit") else { Issue.record("not saved"); return }
    #expect(events.take().filter { $0.hasSuffix("journal.jsonl") } == ["created n.journal.jsonl"])
    #expect(Self.mode(dir.file("n.journal.jsonl")) == 0o600)
    state = try StateFile.load(path: dir.file("n.json"))
    #expect(state.document.journal?.file == "n.journal.jsonl")
    #expect(try historyEntries(dir.file("n.json")).count == StateFile.inlineHistoryLimit + 1)
  }

  /// Where no unnamed file can be made (a file system without `O_TMPFILE`), the files are made by
  /// name as before: a temporary file renamed into place, the same modes and contents.
  @Test func withoutUnnamedFilesTheyAreMadeByNameAsBefore() throws {
    let dir = TempDir()
    let store = Self.receiverStore(dir)
    let events = try DirectoryEvents(dir.path)
    try UnnamedFile.$unavailable.withValue(true) { () throws in
      guard case .created = Self.create(store, "n.json") else { Issue.record("not created"); return }
      #expect(events.take() == ["created .subdash.lock", "created .n.json.subdash-tmp", "moved away .n.json.subdash-tmp", "moved in n.json"])
      guard case .applied = Self.save(store, "n.json", "second") else { Issue.record("not saved"); return }
      #expect(events.take().first == "created .subdash-spare-0")
      for name in ["n.json", ".subdash.lock", ".subdash-spare-0"] {
        #expect(Self.mode(dir.file(name)) == 0o600, "\(name)")
      }
      #expect(try historyEntries(dir.file("n.json")).count == 2)
    }
    // And unnamed files again once they can be made (the directory's lock file is there already).
    _ = events.take()
    guard case .created = Self.create(store, "m.json") else { Issue.record("not created"); return }
    #expect(Set(events.take()) == ["created m.json"])
  }

  /// A reader looking while subscribers are created only ever finds no file or a whole one.
  @Test func aReaderNeverSeesAHalfWrittenNewFile() throws {
    let dir = TempDir()
    let store = Self.receiverStore(dir)
    let done = ResultBox<Bool>()
    let seen = ResultBox<(whole: Int, broken: [String])>()
    seen.value = (0, [])
    let directory = dir.path
    let reader = Thread {
      var whole = 0
      var broken: [String] = []
      while done.value != true {
        for k in 0..<100 {
          let path = directory + "/r\(k).json"
          guard let bytes = FileManager.default.contents(atPath: path) else { continue }
          if (try? JSONParser.parse(Array(bytes))) != nil {
            whole += 1
          } else {
            broken.append("r\(k).json: \(bytes.count) bytes")
          }
        }
      }
      seen.value = (whole, broken)
    }
    reader.start()
    for k in 0..<100 {
      guard case .created = Self.create(store, "r\(k).json") else { Issue.record("r\(k).json not created"); break }
    }
    done.value = true
    while reader.isExecuting || !reader.isFinished { usleep(1000) }
    let result = try #require(seen.value)
    #expect(result.broken.isEmpty, "\(result.broken.prefix(3))")
    #expect(result.whole > 0)
  }

  /// `linkat` never replaces a name: what has it (a file, a dangling symbolic link) stays as it
  /// is, and nothing is created where a link points.
  @Test func anUnnamedFileIsNeverLinkedOverAName() throws {
    let dir = TempDir()
    _ = dir.write("taken.json", "someone else's")
    #expect(symlink(dir.file("victim.txt"), dir.file("planted.json")) == 0)
    for name in ["taken.json", "planted.json"] {
      let fd = try #require(UnnamedFile.make(in: dir.path, mode: 0o600))
      #expect(write(fd, "ours", 4) == 4)
      #expect(UnnamedFile.link(fd, at: dir.file(name)) == .exists, "\(name)")
      close(fd)
    }
    #expect(dir.text("taken.json") == "someone else's")
    #expect(!FileManager.default.fileExists(atPath: dir.file("victim.txt")))
    // A new state file whose name was taken after the writer looked (by one that does not take
    // the lock): the save fails and the file that has the name is left as it is.
    let fd = try #require(UnnamedFile.make(in: dir.path, mode: 0o600))
    #expect(throws: StateFileError.self) {
      _ = try AtomicWriter.createLinked(Array("{}".utf8), fd: fd, at: dir.file("taken.json"), name: "taken.json", dir: dir.path)
    }
    #expect(dir.text("taken.json") == "someone else's")
  }

  /// What a crashed creator left (a journal nobody vouches for, the directory's lock file) is taken
  /// over as before; what was planted (a symbolic link at the journal's or the lock file's name) is
  /// refused and never written through.
  @Test func leftoversAreTakenOverAndPlantedLinksRefused() throws {
    let dir = TempDir()
    let store = Self.receiverStore(dir)
    _ = dir.write("a.journal.jsonl", "{\"half a line")
    _ = dir.write(".subdash.lock", "")
    guard case .created = Self.create(store, "a.json") else { Issue.record("not created"); return }
    // Young: its history is inline, the leftover neither read nor vouched for...
    #expect(try StateFile.load(path: dir.file("a.json")).document.journal == nil)
    #expect(try historyEntries(dir.file("a.json")).count == 1)
    // ...until the history outgrows the document: then the leftover is cut and the journal starts.
    for k in 1...StateFile.inlineHistoryLimit {
      guard case .applied = Self.save(store, "a.json", "save \(k)") else { Issue.record("save \(k) failed"); return }
    }
    let journal = try #require(try StateFile.load(path: dir.file("a.json")).document.journal)
    #expect(try Journal.readAll(path: dir.file(journal.file), committedBytes: journal.committedBytes).count == 1)
    #expect(journal.committedBytes == Int64(dir.bytes("a.journal.jsonl").count))
    #expect(!dir.text("a.journal.jsonl").contains("half a line"))

    // A link planted at a young subscriber's journal name is refused when its journal starts.
    let victim = dir.write("victim.txt", "precious\n")
    #expect(symlink(victim, dir.file("b.journal.jsonl")) == 0)
    guard case .created = Self.create(store, "b.json") else { Issue.record("b.json not created"); return }
    for k in 1..<StateFile.inlineHistoryLimit {
      guard case .applied = Self.save(store, "b.json", "save \(k)") else { Issue.record("save \(k) failed"); return }
    }
    let full = dir.bytes("b.json")
    guard case .failed = Self.save(store, "b.json", "past the limit") else { Issue.record("b.json's journal was written past a planted link"); return }
    #expect(dir.bytes("b.json") == full)
    #expect(dir.text("victim.txt") == "precious\n")

    // The lock file is one per directory: planted in another directory, where no writer made it yet.
    let planted = TempDir()
    #expect(symlink(planted.file("elsewhere.lock"), planted.file(".subdash.lock")) == 0)
    guard case .failed = Self.create(Self.receiverStore(planted), "c.json") else { Issue.record("c.json was created past a planted link"); return }
    #expect(!FileManager.default.fileExists(atPath: planted.file("c.json")))
    #expect(!FileManager.default.fileExists(atPath: planted.file("elsewhere.lock")))
  }
}
#endif
@testable import DashModel
@testable import CoreValues
@testable import SubscriberStorage
