import DashModel
import CoreValues
import Foundation
import Testing
import SubscriberStorage

/// `subdash lock FILE -- COMMAND`: a user's script runs holding the lock every SubDash writer takes,
/// so nothing SubDash writes can land between the script's read and its write.
@Suite(.timeLimit(.minutes(1))) struct LockCommandTests {
  static func directory() throws -> URL {
    let dir = FileManager.default.temporaryDirectory.appendingPathComponent("subdash-lock-\(UUID().uuidString)")
    try FileManager.default.createDirectory(at: dir, withIntermediateDirectories: true)
    return dir
  }

  /// True while someone else holds `path`'s lock.
  static func isHeld(_ path: String) -> Bool {
    do {
      _ = try FileLock(for: path, wait: .tryOnce)
      return false
    } catch {
      return error.kind == .busy
    }
  }

  @Test func aCommandRunsHoldingTheFilesLockAndLetsGoWhenItEnds() throws {
    let dir = try Self.directory()
    defer { try? FileManager.default.removeItem(at: dir) }
    let path = dir.appendingPathComponent("s.json").path
    try Data(StorageFixture.base.utf8).write(to: URL(fileURLWithPath: path))
    let before = try Data(contentsOf: URL(fileURLWithPath: path))

    // The command waits for a line on its standard input: the lock is held until we say.
    let p = Process()
    p.executableURL = CommandLineTests.binary
    p.arguments = ["lock", path, "--", "sh", "-c", "read line"]
    let input = Pipe()
    p.standardInput = input
    try p.run()
    let deadline = Date().addingTimeInterval(10)
    while !Self.isHeld(path) && Date() < deadline { usleep(10_000) }
    #expect(Self.isHeld(path), "the command does not hold the lock")

    // A SubDash writer meanwhile: refused as busy, nothing written.
    #expect(throws: StateFileError.self) {
      try StateFile.update(path: path, lockWait: .tryOnce) { (s) throws(StateFileError) -> Change in Change(state: s, message: "meanwhile") }
    }
    #expect(try Data(contentsOf: URL(fileURLWithPath: path)) == before)

    try input.fileHandleForWriting.write(contentsOf: Data("go\n".utf8))
    p.waitUntilExit()
    #expect(p.terminationStatus == 0)
    #expect(!Self.isHeld(path), "the lock outlived the command")
  }

  @Test func theExitStatusIsTheCommandsAndAMissingCommandIs127() throws {
    let dir = try Self.directory()
    defer { try? FileManager.default.removeItem(at: dir) }
    let path = dir.appendingPathComponent("s.json").path
    #expect(try CommandLineTests.run(["lock", path, "--", "sh", "-c", "exit 7"]).status == 7)
    let missing = try CommandLineTests.run(["lock", path, "--", dir.appendingPathComponent("no-such-program").path])
    #expect(missing.status == 127)
    #expect(missing.stderr.contains("cannot run"))
    #expect(try CommandLineTests.run(["lock", path]).status == 64)
  }

  @Test func aFileSomeoneElseHoldsRunsNothingAndSaysSoAfterTheBound() throws {
    let dir = try Self.directory()
    defer { try? FileManager.default.removeItem(at: dir) }
    let path = dir.appendingPathComponent("s.json").path
    let marker = dir.appendingPathComponent("ran").path
    let held = try FileLock(for: path, wait: .tryOnce)
    let r = try CommandLineTests.run(["lock", path, "--", "touch", marker])
    withExtendedLifetime(held) {}
    #expect(r.status == 1)
    #expect(r.stderr == "subdash: s.json: locked by another process for more than 5 s (.subdash.lock); nothing was changed\n")
    #expect(!FileManager.default.fileExists(atPath: marker))
  }
}

/// The smallest state file a writer accepts.
enum StorageFixture {
  static let base = #"{ "format": "subdash-state/1", "catalog": { "subscriptionGroups": [] }, "subscriber": {} }"#
}
