import Foundation

@testable import DashModel
@testable import CoreValues
@testable import SimulationRuns

extension Sim {
  /// A state file with a monthly subscription bought at `start`, built by a scenario.
  static func subscribedFile(in dir: TempDir, start: String = "2026-01-01T00:00:00Z", extra: String = "") throws -> String {
    let path = dir.file("state.json")
    let scenario = try ScenarioParser.parse("catalog pass.storekit\nstart \(start)\n\(extra)buy pass.premium.monthly no intro\n", fileName: "setup")
    _ = try ScenarioRunner(scenario: scenario, scriptDirectory: Sim.scenariosDir, statePath: path).run()
    return path
  }
}
