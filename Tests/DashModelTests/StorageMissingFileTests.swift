import Foundation
import Testing

@testable import DashModel
@testable import CoreValues
@testable import SubscriberStorage

/// `subdash simulate missing.json` (or `extend`, or a key on a file someone removed) says the state
/// file is missing and creates nothing: it used to leave `missing.json.lock` behind and blame it
/// (and it makes no `.subdash.lock` either: nothing is locked for a file that is not there).
@Suite struct StorageMissingFileTests {
  @Test func updatingAMissingFileSaysSoAndCreatesNoLockFile() throws {
    let dir = TempDir()
    let path = dir.file("missing.json")
    #expect(throws: StateFileError(file: "missing.json", message: "no such state file; nothing was created")) {
      try StateFile.update(path: path) { state in Change(state: state, message: "never") }
    }
    #expect(try FileManager.default.contentsOfDirectory(atPath: dir.path).isEmpty)
  }

  @Test func updatingADirectorySaysItIsNotAStateFile() throws {
    let dir = TempDir()
    let path = dir.file("folder.json")
    try FileManager.default.createDirectory(atPath: path, withIntermediateDirectories: false)
    #expect(throws: StateFileError(file: "folder.json", message: "is a directory, not a state file; nothing was changed")) {
      try StateFile.update(path: path) { state in Change(state: state, message: "never") }
    }
    #expect(try FileManager.default.contentsOfDirectory(atPath: dir.path) == ["folder.json"])
  }
}
