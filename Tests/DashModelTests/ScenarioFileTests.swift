import Testing

@testable import DashModel
@testable import CoreValues
@testable import SimulationRuns

/// `simulate --check nonexist.scenario` says in one line which file it could not read.
@Suite("Scenario script files")
struct ScenarioFileTests {
  @Test func aMissingScriptIsOneLineNamingTheFile() {
    let dir = TempDir()
    let path = dir.file("nonexist.scenario")
    #expect(throws: StateFileError.self) { try ScenarioFile.read(path: path) }
    do throws(StateFileError) {
      _ = try ScenarioFile.read(path: path)
    } catch {
      #expect(error.description == "\(path): cannot read the script: No such file or directory")
    }
  }

  @Test func aScriptReadsAsText() throws {
    let dir = TempDir()
    let path = dir.write("a.scenario", "buy pass.premium\n")
    #expect(try ScenarioFile.read(path: path) == "buy pass.premium\n")
  }
}
