import Foundation
import Testing

@testable import DashModel
@testable import CoreValues
@testable import SubscriberStorage
@testable import SubscriberImport
@testable import SimulationRuns

/// Every writer in the model goes through the subscriber store, so each waits for a lock another
/// process holds (and writes nothing meanwhile), new files included. Before the store, a
/// scenario's starting file was written without any lock.
@Suite("Store: every model writer takes the subscriber's lock", .serialized, .timeLimit(.minutes(1)))
struct StoreWritersTakeTheLockTests {
  let t0: Int64 = 1_767_225_600_000

  @Test func aScenarioStartingFileIsCreatedUnderItsLock() throws {
    let dir = TempDir()
    let path = dir.file(ScenarioWorkspace.stateFileName)
    let made = try HeldLock.writerWaits(for: path, unchanged: { HeldLock.bytes(path) == nil }) {
      Result { () throws(StateFileError) in try ScenarioWorkspace.create(.catalog("pass.storekit"), scriptDirectory: Sim.scenariosDir, statePath: path) }
    }
    try made.get()
    let state = try StateFile.load(path: path)
    #expect(state.document.catalogReference == .file("pass.storekit"))
    #expect(FileManager.default.contentsEqual(atPath: dir.file("pass.storekit"), andPath: Sim.catalogPath))
  }

  @Test func aScenarioRefusesToStartOverAFileThatIsThere() throws {
    let dir = TempDir()
    let path = dir.write(ScenarioWorkspace.stateFileName, StorageConcurrencyTests.base)
    let before = dir.bytes(ScenarioWorkspace.stateFileName)
    #expect(throws: StateFileError.self) { try ScenarioWorkspace.create(.catalog("pass.storekit"), scriptDirectory: Sim.scenariosDir, statePath: path) }
    #expect(dir.bytes(ScenarioWorkspace.stateFileName) == before)
  }

  @Test func aScenarioStepWaitsForTheLock() throws {
    let dir = TempDir()
    let path = dir.write("s.json", StorageConcurrencyTests.base)
    let before = HeldLock.bytes(path)
    let result = try HeldLock.writerWaits(for: path, unchanged: { HeldLock.bytes(path) == before }) {
      Result { () throws(StateFileError) in
        try ScenarioStore(path: path).update { s in
          var n = s
          n.document.subscriber.source["x-counter"] = .int(5)
          return .success(Change(state: n, message: "five"))
        }
      }
    }
    #expect(try result.get().get().state.subscriber.source["x-counter"] == .int(5))
  }

  @Test func anImportOfANewSubscriberIsCreatedUnderItsLock() throws {
    let dir = TempDir()
    let path = dir.file("1000.json")
    let merge = try ImportKit.merge([ImportKit.input("a.json", ImportKit.historyPage([ImportKit.transaction(1, purchase: t0)], hasMore: false))])
    let written = try HeldLock.writerWaits(for: path, unchanged: { HeldLock.bytes(path) == nil }) {
      Result { () throws(StateFileError) in try Importer.write(merge, to: path, catalog: nil) }
    }
    #expect(try written.get().outcome == .created)
  }

  @Test func anImportIntoAnExistingSubscriberWaitsAndAReimportIsAlreadyHeld() throws {
    let dir = TempDir()
    let path = dir.file("1000.json")
    let merge = try ImportKit.merge([ImportKit.input("a.json", ImportKit.historyPage([ImportKit.transaction(1, purchase: t0)], hasMore: false))])
    _ = try Importer.write(merge, to: path, catalog: nil)
    let before = HeldLock.bytes(path)
    let again = try HeldLock.writerWaits(for: path, unchanged: { HeldLock.bytes(path) == before }) {
      Result { () throws(StateFileError) in try Importer.write(merge, to: path, catalog: nil) }
    }
    #expect(try again.get().outcome == .alreadyHeld)
    #expect(HeldLock.bytes(path) == before)
  }

  @Test func anImportFindingTheLockHeldWhenOnlyTryingSaysBusy() throws {
    let dir = TempDir()
    let path = dir.file("1000.json")
    let merge = try ImportKit.merge([ImportKit.input("a.json", ImportKit.historyPage([ImportKit.transaction(1, purchase: t0)], hasMore: false))])
    let holder = try HeldLock.hold(path)
    defer { holder.release() }
    do {
      _ = try Importer.write(merge, to: path, catalog: nil, lockWait: .tryOnce)
      Issue.record("written while locked")
    } catch {
      #expect(error.kind == .busy)
    }
    #expect(HeldLock.bytes(path) == nil)
  }

  @Test func aMassExtensionOfAFileWaitsForItsLock() throws {
    let dir = TempDir()
    let path = dir.write("active.json", try Examples.text("active.json"))
    let before = HeldLock.bytes(path)
    let outcome = try HeldLock.writerWaits(for: path, unchanged: { HeldLock.bytes(path) == before }) {
      MassExtension.apply(toFile: path, days: 7, reason: .customerSatisfaction, wall: Instant(ms: 1_778_770_800_000))
    }
    guard case .extended = outcome else { Issue.record("expected extended, got \(outcome)"); return }
  }

  @Test func aPopulationsNewFilesAreCreatedUnderTheirLocks() throws {
    let dir = TempDir()
    let population = Population(directory: dir.path, count: 2, seed: 3, mix: PopulationMix(), months: 1, template: try Examples.text("active.json"))
    let first = dir.file("4000000000000000.json")
    let made = try HeldLock.writerWaits(for: first, unchanged: { HeldLock.bytes(first) == nil }) {
      Result { () throws(PopulationError) in try population.create() }
    }
    try made.get()
    #expect(try population.subscribers() == ["4000000000000000.json", "4000000000000001.json"])
  }
}
