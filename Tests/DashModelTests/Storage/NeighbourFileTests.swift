import Foundation
import Testing

@testable import DashModel

#if canImport(Glibc)
import Glibc
#endif
@testable import CoreValues
@testable import SubscriberStorage

/// Issue 37 §2: a state directory another local user can write (`/tmp`, a 0777 shared folder).
/// The neighbour plants a file at a name SubDash is about to use (a subscriber's journal, state
/// file, lock, temporary name); SubDash must refuse it with one line naming it, never write
/// customer data into it, and leave the planted bytes and the real state as they were.
///
/// Tests run as one user: "another user's file" is a file given to uid 65534 (as root, which CI
/// runs as) or, for the cases where the link count is what betrays it, a hard link to a file of
/// the neighbour's choosing.
@Suite("Files a neighbour planted in a directory others can write")
struct NeighbourFileTests {
  static let nobody: uid_t = 65534

  /// A directory everyone can write, as `/tmp` (1777) or a careless shared folder (0777).
  final class SharedDir {
    let dir = TempDir()
    init(mode: mode_t = 0o1777) {
      chmod(dir.path, mode)
      dir.write("valid.storekit", Fixture.bytes("hostile/valid.storekit"))
    }
    func file(_ name: String) -> String { dir.file(name) }
    func bytes(_ name: String) -> [UInt8] { dir.bytes(name) }
    func text(_ name: String) -> String { dir.text(name) }

    /// A state file of ours, with `extra` members.
    @discardableResult
    func state(_ name: String, _ extra: String = "") -> String {
      dir.write(name, #"{ "format": "subdash-state/1", "catalogFile": "valid.storekit", "subscriber": {}\#(extra) }"#)
    }

    /// A file the neighbour made at `name`: readable and writable by everyone, theirs.
    @discardableResult
    func plant(_ name: String, _ text: String) -> String {
      let path = dir.write(name, text)
      chmod(path, 0o666)
      #expect(chown(path, NeighbourFileTests.nobody, NeighbourFileTests.nobody) == 0)
      return path
    }
  }

  static func mode(_ path: String) -> mode_t {
    var st = stat()
    return lstat(path, &st) == 0 ? st.st_mode & 0o7777 : 0
  }

  /// One notification saved through the real write path (the one `listen` and `import` take).
  static func receive(_ path: String) throws(StateFileError) {
    try StateFile.update(path: path) { (state) throws(StateFileError) in
      Change(state: state, notifications: [NotificationRecord(type: .test, uuid: "neighbour", signedDate: Instant(ms: 1_778_770_800_000), status: nil)],
             message: "test")
    }
  }

  static func error(_ body: () throws -> Void) -> String? {
    do { try body(); return nil } catch { return "\(error)" }
  }

  // MARK: - Files SubDash writes into

  @Test("A journal another user planted at a subscriber's journal name is refused, not appended to", .enabled(if: geteuid() == 0, "needs root to chown"))
  func plantedJournal() throws {
    let d = SharedDir()
    let path = d.state("s.json", #", "journal": { "file": "s.journal.jsonl", "committedBytes": 0 }"#)
    let stateBefore = d.bytes("s.json")
    d.plant("s.journal.jsonl", "the neighbour's file\n")
    let failure = Self.error { try Self.receive(path) }
    #expect(failure == "s.journal.jsonl: cannot open the history journal: belongs to another user (uid 65534); SubDash writes only its own files; nothing was saved")
    #expect(d.text("s.journal.jsonl") == "the neighbour's file\n")
    #expect(d.bytes("s.json") == stateBefore)
  }

  @Test("A journal that is a hard link to another file is refused, and the file it names keeps its bytes")
  func hardLinkedJournal() throws {
    let d = SharedDir()
    let path = d.state("s.json", #", "journal": { "file": "s.journal.jsonl", "committedBytes": 0 }"#)
    let stateBefore = d.bytes("s.json")
    // A file the neighbour can read (theirs, or one they were given), linked at the journal's name.
    let victim = d.dir.write("readable-by-the-neighbour.txt", "kept\n")
    #expect(link(victim, d.file("s.journal.jsonl")) == 0)
    let failure = Self.error { try Self.receive(path) }
    #expect(failure == "s.journal.jsonl: cannot open the history journal: has 2 names (hard links); SubDash writes only its own files, never through another name; nothing was saved")
    #expect(d.text("readable-by-the-neighbour.txt") == "kept\n")
    #expect(d.bytes("s.json") == stateBefore)
  }

  @Test("A lock file another user planted is refused: nothing is saved through a lock they can hold", .enabled(if: geteuid() == 0, "needs root to chown"))
  func plantedLock() throws {
    let d = SharedDir()
    let path = d.state("s.json")
    let stateBefore = d.bytes("s.json")
    d.plant(FileLock.directoryLockName, "")
    let failure = Self.error { try Self.receive(path) }
    #expect(failure == "s.json: cannot use the lock file .subdash.lock: belongs to another user (uid 65534); SubDash writes only its own files; nothing was saved")
    #expect(d.bytes("s.json") == stateBefore)
    #expect(d.bytes(FileLock.directoryLockName).isEmpty)
  }

  @Test("A lock file with a second name is refused")
  func hardLinkedLock() throws {
    let d = SharedDir()
    let path = d.state("s.json")
    let other = d.dir.write("elsewhere", "")
    #expect(link(other, d.file(FileLock.directoryLockName)) == 0)
    let failure = Self.error { _ = try FileLock(for: path) }
    #expect(failure == "s.json: cannot use the lock file .subdash.lock: has 2 names (hard links); SubDash writes only its own files, never through another name; nothing was saved")
  }

  // MARK: - Files SubDash reads and answers from

  @Test("A state file another user planted in a shared directory is neither merged into nor answered from; show still reads it",
        .enabled(if: geteuid() == 0, "needs root to chown"))
  func plantedStateFile() throws {
    let d = SharedDir(mode: 0o777)
    let forged = #"{ "format": "subdash-state/1", "catalogFile": "valid.storekit", "subscriber": { "x-forged": true } }"#
    let path = d.plant("2000.json", forged)
    let expected = "2000.json: cannot read: belongs to another user (uid 65534) in a directory others can write; SubDash uses only its own and the directory owner's files there"
    #expect(Self.error { _ = try StateFile.load(path: path) } == expected)
    #expect(Self.error { try Self.receive(path) } == expected)
    #expect(d.text("2000.json") == forged)
    #expect(Self.mode(path) == 0o666)
    // Support staff looking at it, as `subdash show` does: allowed, nothing written.
    _ = try StateFile.loadForViewing(path: path)
    // The same file in a directory only we can write is ours to read (root looking at a file it
    // gave away, a colleague's file copied in): nobody else could have put it there.
    chmod(d.dir.path, 0o755)
    _ = try StateFile.load(path: path)
  }

  @Test("A journal another user swapped in beside our state file is not read as our history", .enabled(if: geteuid() == 0, "needs root to chown"))
  func plantedJournalIsNotRead() throws {
    let d = SharedDir(mode: 0o777)
    let line = #"{"notification":{"notificationType":"TEST","notificationUUID":"forged","signedDate":1778770800000}}"# + "\n"
    let path = d.state("s.json", #", "journal": { "file": "s.journal.jsonl", "committedBytes": \#(line.utf8.count) }"#)
    d.plant("s.journal.jsonl", line)
    let state = try StateFile.load(path: path)
    let failure = Self.error { _ = try StateFile.historyEntries(state, statePath: path) }
    #expect(failure == "s.journal.jsonl: cannot read the history journal: belongs to another user (uid 65534) in a directory others can write; SubDash uses only its own and the directory owner's files there")
    // Nor decided from, nor appended to, by a receiver.
    let received = Self.error { try Self.receive(path) } ?? ""
    #expect(received.hasPrefix("s.journal.jsonl: cannot") && received.contains("belongs to another user (uid 65534)"), "\(received)")
    #expect(d.text("s.journal.jsonl") == line)
  }

  // MARK: - New files

  @Test("A save over a file another user planted at the name keeps nothing of it: our file is 0600, not their 0666",
        .enabled(if: geteuid() == 0, "needs root to chown"))
  func plantedTargetLendsNoMode() throws {
    let d = SharedDir(mode: 0o777)
    let path = d.plant("export.json", "{}")
    try AtomicWriter.write(Array("customer data".utf8), to: path)
    #expect(Self.mode(path) == 0o600)
    var st = stat()
    #expect(lstat(path, &st) == 0 && st.st_uid == geteuid())
  }

  @Test("A temporary name taken by something a save cannot remove gives way to the process's own name; both taken, one line names it")
  func takenTemporaryName() throws {
    let d = SharedDir()
    let path = d.state("s.json")
    let lock = try FileLock(for: path)
    defer { withExtendedLifetime(lock) {} }
    // In a sticky directory another user's file cannot be removed; a directory cannot be
    // unlinked even by root, so it stands in for it here.
    #expect(mkdir(d.file(".s.json.subdash-tmp"), 0o700) == 0)
    try AtomicWriter.write(Array("saved".utf8), to: path, sweep: .callerHoldsTheLock)
    #expect(d.text("s.json") == "saved")
    var st = stat()
    #expect(lstat(d.file(".s.json.subdash-tmp-\(getpid())"), &st) != 0, "renamed into place, nothing left")
    #expect(mkdir(d.file(".s.json.subdash-tmp-\(getpid())"), 0o700) == 0)
    let failure = Self.error { try AtomicWriter.write(Array("again".utf8), to: path, sweep: .callerHoldsTheLock) }
    #expect(failure == "s.json: could not save: the temporary file .s.json.subdash-tmp-\(getpid()) is taken by something that cannot be removed (is a directory, not a file); the file on disk is unchanged")
    #expect(d.text("s.json") == "saved")
  }
}
