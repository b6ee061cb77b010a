import Foundation
import Testing

@testable import DashModel
@testable import CoreValues

#if canImport(Glibc)
import Glibc
#endif
@testable import SubscriberStorage

/// Files SubDash creates hold customer data: 0600, directories 0700, whatever the umask; a file
/// that exists keeps the mode its owner gave it.
@Suite("Storage: files SubDash creates are private", .serialized)
struct StoragePermissionsTests {
  static func mode(_ path: String) -> mode_t {
    var st = stat()
    return lstat(path, &st) == 0 ? st.st_mode & 0o7777 : 0
  }

  /// Runs `body` with the process umask set to `mask` (the suite is serialized; the umask is
  /// restored before anything else of this suite runs).
  static func withUmask<T>(_ mask: mode_t, _ body: () throws -> T) rethrows -> T {
    let old = umask(mask)
    defer { umask(old) }
    return try body()
  }

  @Test(arguments: [mode_t(0o022), 0o077, 0o002])
  func aNewStateFileItsJournalAndItsLockAre0600WhateverTheUmask(mask: mode_t) throws {
    let dir = TempDir()
    let path = dir.file("new.json")
    try Self.withUmask(mask) {
      try AtomicWriter.write(Array(StorageConcurrencyTests.base.utf8), to: path)
      // The save past the inline history's limit makes the journal (StateFile.inlineHistoryLimit).
      for k in 0...StateFile.inlineHistoryLimit { try StorageConcurrencyTests.bump(path, summary: "save \(k)") }
    }
    #expect(try StateFile.load(path: path).document.journal?.file == "new.journal.jsonl")
    #expect(Self.mode(path) == 0o600)
    #expect(Self.mode(dir.file("new.journal.jsonl")) == 0o600)
    #expect(Self.mode(dir.file(".subdash.lock")) == 0o600)
  }

  @Test func anExistingFileKeepsItsModeAfterASave() throws {
    let dir = TempDir()
    let path = dir.write("shared.json", StorageConcurrencyTests.base)
    #expect(chmod(path, 0o640) == 0)
    try StorageConcurrencyTests.bump(path, summary: "kept")
    #expect(Self.mode(path) == 0o640)
    #expect(try StateFile.load(path: path).subscriber.source["x-counter"] == .int(1))
  }

  @Test func newDirectoriesAre0700AndExistingOnesAreLeftAlone() throws {
    let dir = TempDir()
    let nested = dir.file("a/b/c")
    #expect(chmod(dir.path, 0o755) == 0)
    #expect(PrivateDirectory.create(nested) == nil)
    #expect(Self.mode(dir.file("a")) == 0o700)
    #expect(Self.mode(dir.file("a/b")) == 0o700)
    #expect(Self.mode(nested) == 0o700)
    #expect(Self.mode(dir.path) == 0o755)
    dir.write("plain", "x")
    #expect(PrivateDirectory.create(dir.file("plain")) == "\(dir.file("plain")) exists and is not a directory")
  }

  @Test func aScratchDirectoryIsUnpredictablePrivateAndRemovedWithItsFiles() throws {
    let first = try PrivateDirectory.makeTemporary("subdash-test-scratch")
    let second = try PrivateDirectory.makeTemporary("subdash-test-scratch")
    #expect(first != second)
    #expect(Self.mode(first) == 0o700)
    var st = stat()
    #expect(lstat(first, &st) == 0 && st.st_uid == geteuid())
    // A link inside is removed, not followed.
    let outside = TempDir()
    let keep = outside.write("keep.txt", "precious")
    #expect(symlink(outside.path, first + "/link") == 0)
    #expect(PrivateDirectory.create(first + "/inner") == nil)
    FileManager.default.createFile(atPath: first + "/inner/file.json", contents: Data("x".utf8))
    PrivateDirectory.remove(first)
    PrivateDirectory.remove(second)
    #expect(!FileManager.default.fileExists(atPath: first))
    #expect(!FileManager.default.fileExists(atPath: second))
    #expect(FileManager.default.contents(atPath: keep) == Data("precious".utf8))
  }
}

extension StoragePermissionsTests {
  /// A shared state file's history is as readable as the document, and never more.
  @Test func aNewJournalTakesItsStateFilesMode() throws {
    let dir = TempDir()
    let path = dir.write("team.json", StorageConcurrencyTests.base)
    #expect(chmod(path, 0o640) == 0)
    // The save past the inline history's limit makes the journal (StateFile.inlineHistoryLimit).
    for k in 0...StateFile.inlineHistoryLimit { try StorageConcurrencyTests.bump(path, summary: "save \(k)") }
    #expect(Self.mode(dir.file("team.journal.jsonl")) == 0o640)
  }
}
