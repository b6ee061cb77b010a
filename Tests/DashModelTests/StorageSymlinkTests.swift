import Foundation
import Testing

@testable import DashModel
@testable import CoreValues

#if canImport(Glibc)
import Glibc
#endif
@testable import SubscriberStorage

/// Links planted in a directory SubDash writes (`listen`'s, `serve`'s) never redirect a write:
/// the lock, the journal and the state file are opened without following a link, and a save
/// through one is refused with a reason, the link's target untouched.
@Suite("Storage: a symlink never leads a write outside")
struct StorageSymlinkTests {
  /// A file outside the state directory that the link points at.
  static func victim(_ outside: TempDir, _ name: String = "victim.txt") -> (path: String, bytes: [UInt8]) {
    let path = outside.write(name, "precious\n")
    return (path, outside.bytes(name))
  }

  @Test func aPlantedLockSymlinkIsNotFollowedAndTheSaveIsRefused() throws {
    let dir = TempDir(), outside = TempDir()
    let path = dir.write("2000.json", StorageConcurrencyTests.base)
    let v = Self.victim(outside)
    #expect(symlink(v.path, dir.file(".subdash.lock")) == 0)
    #expect {
      try StorageConcurrencyTests.bump(path, summary: "through the link")
    } throws: { "\($0)" == "2000.json: cannot open the lock file .subdash.lock: it is a symbolic link; SubDash locks only through a plain file; nothing was saved" }
    #expect(outside.bytes("victim.txt") == v.bytes)
    #expect(dir.text("2000.json") == StorageConcurrencyTests.base)
  }

  /// A dangling link at the lock file's name (`.subdash.lock`) would have been created (empty, 0644)
  /// wherever it points.
  @Test func aDanglingLockSymlinkCreatesNothingWhereItPoints() throws {
    let dir = TempDir(), outside = TempDir()
    let path = dir.write("2000.json", StorageConcurrencyTests.base)
    let target = outside.file("created-by-subdash")
    #expect(symlink(target, dir.file(".subdash.lock")) == 0)
    #expect(throws: StateFileError.self) { try StorageConcurrencyTests.bump(path, summary: "x") }
    #expect(!FileManager.default.fileExists(atPath: target))
  }

  @Test func aPlantedJournalSymlinkForANewJournalIsNotFollowed() throws {
    let dir = TempDir(), outside = TempDir()
    let path = dir.write("2000.json", StorageConcurrencyTests.base)
    // A full inline history: the next save starts the journal (StateFile.inlineHistoryLimit).
    for k in 0..<StateFile.inlineHistoryLimit { try StorageConcurrencyTests.bump(path, summary: "save \(k)") }
    let full = dir.text("2000.json")
    let target = outside.file("journal-elsewhere")
    #expect(symlink(target, dir.file("2000.journal.jsonl")) == 0)
    #expect(throws: StateFileError.self) { try StorageConcurrencyTests.bump(path, summary: "x") }
    #expect(!FileManager.default.fileExists(atPath: target))
    #expect(dir.text("2000.json") == full)
  }

  /// `<id>.json` planted as a link to another file: a save neither reads through it nor replaces
  /// it; reading it (show, the dashboard) still follows, since reading writes nothing.
  @Test func aStateFileThatIsASymlinkIsReadButNeverSaved() throws {
    let dir = TempDir(), outside = TempDir()
    let real = outside.write("real.json", StorageConcurrencyTests.base)
    let link = dir.file("2000.json")
    #expect(symlink(real, link) == 0)
    _ = try StateFile.load(path: link)
    #expect {
      try StorageConcurrencyTests.bump(link, summary: "x")
    } throws: { "\($0)" == "2000.json: cannot read: is a symbolic link; SubDash saves a state file only where it is, never through a link (open the file it points to)" }
    #expect(outside.text("real.json") == StorageConcurrencyTests.base)
    var st = stat()
    #expect(lstat(link, &st) == 0 && st.st_mode & S_IFMT == S_IFLNK)
  }

  @Test func atomicWriterRefusesToReplaceASymlink() throws {
    let dir = TempDir(), outside = TempDir()
    let v = Self.victim(outside)
    #expect(symlink(v.path, dir.file("export.json")) == 0)
    #expect {
      try AtomicWriter.write(Array("new".utf8), to: dir.file("export.json"))
    } throws: { "\($0)".hasPrefix("export.json: could not save: it is a symbolic link") }
    #expect(outside.bytes("victim.txt") == v.bytes)
  }
}
