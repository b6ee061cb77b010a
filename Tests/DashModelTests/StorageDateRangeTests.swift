import Foundation
import Testing

@testable import DashModel
@testable import CoreValues
@testable import SubscriberStorage

/// A file SubDash writes must load again. The loader refuses dates outside 1900–3000, so a change
/// that would write one is refused before anything is written (a reviewer's
/// `simulate --until 3000-12-01` left a file that `show` then refused).
@Suite("Storage: dates a file can hold")
struct StorageDateRangeTests {
  func activeCopy(_ dir: TempDir) throws -> String {
    let source = ExamplesTests.directory.appendingPathComponent("active.json").path
    return dir.write("state.json", Array(try Data(contentsOf: URL(fileURLWithPath: source))))
  }

  @Test func aRenewalEndingAfterTheYear3000IsNotSaved() throws {
    let dir = TempDir()
    let path = try activeCopy(dir)
    let before = dir.bytes("state.json")
    let limit = Instant.fileRange.upperBound
    #expect(throws: StateFileError.self) {
      try StateFile.update(path: path) { (s) throws(StateFileError) -> Change in
        var state = s
        state.subscriber.latestTransaction?.expiresDate = limit + .millisecond
        return Change(state: state, message: "too far")
      }
    }
    #expect(dir.bytes("state.json") == before)
    #expect(!FileManager.default.fileExists(atPath: dir.file("state.journal.jsonl")))
  }

  @Test func theLastDateAFileCanHoldIsSaved() throws {
    let dir = TempDir()
    let path = try activeCopy(dir)
    try StateFile.update(path: path) { (s) throws(StateFileError) -> Change in
      var state = s
      state.subscriber.latestTransaction?.expiresDate = Instant.fileRange.upperBound
      return Change(state: state, message: "at the limit")
    }
    #expect(try StateFile.load(path: path).subscriber.latestTransaction?.expiresDate == Instant.fileRange.upperBound)
  }

  @Test func theSimulatorRefusesToAdvancePastTheLastDate() throws {
    let state = try StateFile.load(path: ExamplesTests.directory.appendingPathComponent("active.json").path)
    #expect(throws: ActionError.self) { try Simulator.advance(state, to: Instant.fileRange.upperBound + .millisecond) }
  }
}
