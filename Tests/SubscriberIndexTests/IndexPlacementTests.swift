import Foundation
import Testing
@testable import SubscriberIndex

#if canImport(Glibc)
import Glibc
#endif

/// Issue 37 §2: `list DIR` keeps its index (`.subdash-index.sqlite`, every subscriber's summary)
/// beside the files only in a directory of the user's own that nobody else can write; anywhere a
/// neighbour could put a file of theirs at that name first, it goes to the cache, as under
/// `--read-only`.
@Suite struct IndexPlacementTests {
  func directory(mode: mode_t) throws -> String {
    let dir = FileManager.default.temporaryDirectory.appendingPathComponent("placement-\(UUID().uuidString)").path
    try FileManager.default.createDirectory(atPath: dir, withIntermediateDirectories: false)
    #expect(chmod(dir, mode) == 0)
    return dir
  }

  @Test func ourOwnPrivateDirectoryKeepsItsIndexBesideTheFiles() throws {
    for mode: mode_t in [0o700, 0o755] {
      let dir = try directory(mode: mode)
      defer { try? FileManager.default.removeItem(atPath: dir) }
      #expect(DirectoryStore.keepsIndexBeside(directory: dir), "mode \(String(mode, radix: 8))")
    }
  }

  @Test func aDirectoryOthersCanWriteKeepsItInTheCache() throws {
    for mode: mode_t in [0o1777, 0o777, 0o775, 0o2770] {
      let dir = try directory(mode: mode)
      defer { try? FileManager.default.removeItem(atPath: dir) }
      #expect(!DirectoryStore.keepsIndexBeside(directory: dir), "mode \(String(mode, radix: 8))")
    }
    #expect(!DirectoryStore.keepsIndexBeside(directory: "/tmp"))
  }

  @Test("Another user's directory, even one only they can write", .enabled(if: geteuid() == 0, "needs root to chown"))
  func anotherUsersDirectory() throws {
    let dir = try directory(mode: 0o755)
    defer { try? FileManager.default.removeItem(atPath: dir) }
    #expect(chown(dir, 65534, 65534) == 0)
    #expect(!DirectoryStore.keepsIndexBeside(directory: dir))
  }

  @Test func aMissingDirectoryIsNotOurs() {
    #expect(!DirectoryStore.keepsIndexBeside(directory: "/nonexistent-subdash-dir"))
  }
}
