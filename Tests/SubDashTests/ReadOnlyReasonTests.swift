import DashModel
import DashView
import Foundation
import Testing
@testable import DashRuntime
@testable import SubDash

#if canImport(Glibc)
import Glibc
#endif
import CoreValues

/// A dashboard that changes nothing says the true reason: an App Store input opened with
/// `subdash INPUT` is imported in memory (not "started with --read-only", which nobody typed),
/// and a file this user may not write opens read-only and says so, instead of offering keys that
/// each fail at the write.
@Suite(.serialized) struct ReadOnlyReasonTests {
  let wall = Instant(ms: 1_800_000_000_000)

  func scratchDirectory() throws -> URL {
    let dir = FileManager.default.temporaryDirectory.appendingPathComponent("subdash-readonly-\(UUID().uuidString)")
    try FileManager.default.createDirectory(at: dir, withIntermediateDirectories: true)
    return dir
  }

  /// Opens PATH as `subdash PATH` would (no --read-only), types KEYS then q, and reads the last
  /// screen drawn (q draws none) as one text: the status line wraps onto spare rows.
  func screenAfter(_ keys: String, opening path: String) throws -> String {
    let session = try Open.session(path, displayName: PathName.fileName(of: path), options: DisplayOptions(), nowOverride: nil,
                                   retryAccess: nil, subscriber: try SubscriberChoice.parse([]))
    let screen = FakeScreen(keys: keys + "q")
    screen.size = (160, 40)
    _ = DashboardApp(session: session, colorWanted: false)
      .loop(on: screen, signals: nil, follower: nil, ttyFD: screen.pipe.readFD, clock: { wall })
    return try #require(screen.frames.last).textDump.replacingOccurrences(of: "\n  ", with: " ")
  }

  @Test func anInputOpenedImportedInMemorySaysSoAndHowToSaveIt() throws {
    let dir = try scratchDirectory()
    defer { try? FileManager.default.removeItem(at: dir) }
    let path = dir.appendingPathComponent("t.jws").path
    try FileManager.default.copyItem(atPath: DemoStateTests.repoRoot.appendingPathComponent("Tests/DashModelTests/Fixtures/appstore/xcode_xcode-signed-transaction.jws").path, toPath: path)

    let screen = try screenAfter("u", opening: path)
    #expect(screen.contains("read-only: upgrade disabled (imported in memory, a read-only view; to make a state file: subdash import \(path) -o FILE)"))
    #expect(!screen.contains("--read-only"))
  }

  @Test func aFileThisUserCannotWriteOpensReadOnlyAndSaysWhy() throws {
    let dir = try scratchDirectory()
    defer { try? FileManager.default.removeItem(at: dir) }
    let path = dir.appendingPathComponent("state.json").path
    try FileManager.default.copyItem(atPath: DemoStateTests.repoRoot.appendingPathComponent("Examples/active.json").path, toPath: path)
    let before = try Data(contentsOf: URL(fileURLWithPath: path))

    try withoutWrite(path) {
      let opened = try screenAfter("", opening: path)
      #expect(opened.contains("[read-only]"))
      #expect(opened.contains("read-only: cannot write \(path) (permission)"))
      let refused = try screenAfter("u", opening: path)
      #expect(refused.contains("read-only: upgrade disabled (cannot write \(path) (permission))"))
    }
    #expect(try Data(contentsOf: URL(fileURLWithPath: path)) == before)
  }

  @Test func aFileInADirectoryThisUserCannotWriteOpensReadOnlyAndSaysWhy() throws {
    let dir = try scratchDirectory()
    defer { try? FileManager.default.removeItem(at: dir) }
    let path = dir.appendingPathComponent("state.json").path
    try FileManager.default.copyItem(atPath: DemoStateTests.repoRoot.appendingPathComponent("Examples/active.json").path, toPath: path)

    // Every save is a new file renamed over the old one, in this directory.
    try withoutWrite(dir.path) {
      let refused = try screenAfter("a", opening: path)
      #expect(refused.contains("read-only: auto-renew disabled (cannot write \(path): its directory \(dir.path) is not writable (permission))"))
    }
    #expect(try FileManager.default.contentsOfDirectory(atPath: dir.path) == ["state.json"])
  }

  /// Runs BODY while this user may not write PATH. Tests run as root (CI does), which permission
  /// bits do not stop, so root makes PATH immutable (`chattr +i`: no user may write it, and
  /// `access` says so); any other user takes away its write bits.
  func withoutWrite(_ path: String, _ body: () throws -> Void) throws {
    if geteuid() == 0 {
      try chattr("+i", path)
      defer { try? chattr("-i", path) }
      try body()
    } else {
      var info = stat()
      #expect(stat(path, &info) == 0)
      #expect(chmod(path, info.st_mode & ~mode_t(0o222)) == 0)
      defer { chmod(path, info.st_mode) }
      try body()
    }
  }

  func chattr(_ flag: String, _ path: String) throws {
    let p = Process()
    p.executableURL = URL(fileURLWithPath: "/usr/bin/chattr")
    p.arguments = [flag, path]
    try p.run()
    p.waitUntilExit()
    try #require(p.terminationStatus == 0, "chattr \(flag) \(path) failed")
  }
}
