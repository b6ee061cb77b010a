import DashModel
import DashRuntime
import DashView
import FoundationEssentials
import CoreValues
import SubscriberStorage
import SimulationRuns

/// `--scenario SCRIPT FILE` and `--check SCRIPT [FILE]`. A script with a `catalog` or `state`
/// line builds its own starting file: in a scratch directory, or at FILE when FILE does not exist
/// yet (an existing FILE is never replaced). Without such a line the script runs on FILE as it is.
struct SimulateScenario {
  var script: String
  var file: String?
  var checkOnly: Bool
  var output: SimulateOutput

  /// Returns the exit code: 0 passed, 1 a mismatch or a refused step, 2 bad input.
  func run(_ signals: inout SimStopSignals) -> Int32 {
    let scenario: Scenario
    do {
      let text = try ScenarioFile.read(path: script)
      scenario = try ScenarioParser.parse(text, fileName: PathName.fileName(of: script))
    } catch let e as ScenarioSyntaxError {
      LineOut.stderr("subdash: " + e.description)
      return 2
    } catch let e as StateFileError {
      LineOut.stderr("subdash: " + e.description)
      return 2
    } catch {
      LineOut.stderr("subdash: \(script): cannot read the script: \(oneLine(error))")
      return 2
    }
    var scratch: String?
    let statePath: String
    if let file {
      if scenario.createsFile, FileManager.default.fileExists(atPath: file) {
        LineOut.stderr("subdash: \(file) already exists and the script builds its own starting file (catalog/state line); remove the file, or check the script on a scratch copy with --check SCRIPT (no FILE)")
        return 2
      }
      statePath = file
    } else {
      guard scenario.createsFile else {
        LineOut.stderr("subdash: \(scenario.fileName): the script has no catalog or state line, so it needs a FILE to run on")
        return 2
      }
      // Private and unguessable (mkdtemp, 0700, checked ours), as every scratch directory.
      let dir: String
      do { dir = try PrivateDirectory.makeTemporary("subdash-scenario") } catch {
        LineOut.stderr("subdash: " + error.description)
        return 2
      }
      scratch = dir
      statePath = dir + "/" + ScenarioWorkspace.stateFileName
    }
    let scriptDir = PathName.directory(of: script)
    let out = output
    let quiet = checkOnly
    var runner = ScenarioRunner(
      scenario: scenario, scriptDirectory: scriptDir, statePath: statePath,
      onNotification: { n in if !quiet { out.print(n) } })
    runner.retentionAsker = ScenarioRetentionAsker.ask
    // A purchaser's extension moves the family members beside the file: each one's new renewal
    // date (or why it did not follow), as `subdash extend` reports them.
    runner.onFamilyMember = { m in
      guard !quiet else { return }
      // A member's name is a directory entry: cleaned of terminal escapes before it is printed.
      let line = Sanitizer.clean(m.line.hasSuffix(".") ? String(m.line.dropLast()) : m.line)
      LineOut.stdout(line + (m.renewalDate.map { "; renews \(Format.date($0))" } ?? ""))
    }
    do throws(ScenarioFailure) {
      let report = try runner.run()
      if let scratch { try? FileManager.default.removeItem(atPath: scratch) }
      LineOut.stderr("\(scenario.fileName): ok (\(counted(report.steps, "step")), \(counted(report.expectations, "expectation")), \(counted(report.notifications, "notification")))")
      return 0
    } catch {
      LineOut.stderr("subdash: " + error.description + (scratch != nil ? " (scratch state kept at \(statePath))" : ""))
      return error.exitCode
    }
  }
}
