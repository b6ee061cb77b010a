import Foundation
import Testing

@testable import DashModel
@testable import CoreValues
@testable import SubscriberStorage

/// A change that refuses comes back as its own typed refusal, never dressed as a file error, and
/// writes nothing; file problems come back as file errors.
@Suite("One refusal channel")
struct RefusalChannelTests {
  func activeCopy(in dir: TempDir) -> String {
    let examples = ExamplesTests.directory
    for name in ["active.json", "backyard-birds.storekit"] {
      dir.write(name, Array(FileManager.default.contents(atPath: examples.appendingPathComponent(name).path)!))
    }
    return dir.file("active.json")
  }

  @Test func aSimulatorRefusalIsItsOwnCaseAndWritesNothing() throws {
    let dir = TempDir()
    let path = activeCopy(in: dir)
    let before = dir.bytes("active.json")
    do throws(StateFile.UpdateFailure<ActionError>) {
      try StateFile.update(path: path, refusing: ActionError.self) { (state) throws(ActionError) -> Change in
        try Simulator.apply(.resolveBillingIssue, to: state, at: try Simulator.clock(state)).get()
      }
      Issue.record("resolving a billing issue on an active subscription was not refused")
    } catch {
      guard case .refused(.simulator(.noBillingIssue)) = error else {
        Issue.record("expected the simulator's noBillingIssue refusal, got \(error)")
        return
      }
    }
    #expect(dir.bytes("active.json") == before)
  }

  @Test func aMissingFileIsAFileErrorNamingTheFile() {
    let dir = TempDir()
    do throws(StateFile.UpdateFailure<ActionError>) {
      try StateFile.update(path: dir.file("gone.json"), refusing: ActionError.self) { (state) throws(ActionError) -> Change in
        Change(state: state, message: "")
      }
      Issue.record("a missing file was written")
    } catch {
      guard case .file(let e) = error else {
        Issue.record("expected a file error, got \(error)")
        return
      }
      #expect(e.description.contains("gone.json"))
    }
  }

  @Test func aBadSimulationSettingIsItsOwnCaseWithItsJSONPath() {
    let state = ActionsFixture.state(documentExtras: #""simulation": { "timeRate": "fast please" },"#)
    guard case .failure(.badSetting(let path, _)) = Simulator.apply(.advanceToNextEvent, to: state, at: ActionsFixture.midPeriod) else {
      Issue.record("a bad simulation.rate was not refused as a bad setting")
      return
    }
    #expect(path.hasPrefix("$.simulation"))
  }
}
