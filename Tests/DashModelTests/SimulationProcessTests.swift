import Foundation
import Testing

@testable import DashModel

/// `subdash simulate` as a separate process: exit codes, output, Ctrl-C, and a simulator and a
/// "dashboard" (this test) writing the same file at the same time. Serialized: each test spawns
/// processes and measures overlap, which parallel siblings on two cores would distort.
@Suite(.serialized) struct SimulationProcessTests {
  /// The `subdash` executable built beside this test bundle.
  static let binary: String = {
    let exe = (try? FileManager.default.destinationOfSymbolicLink(atPath: "/proc/self/exe")) ?? CommandLine.arguments[0]
    return URL(fileURLWithPath: exe).deletingLastPathComponent().appendingPathComponent("subdash").path
  }()

  struct Run {
    var status: Int32
    var stdout: String
    var stderr: String
  }

  static func start(_ args: [String]) throws -> (Process, Pipe, Pipe) {
    let p = Process()
    p.executableURL = URL(fileURLWithPath: binary)
    p.arguments = args
    let out = Pipe(), err = Pipe()
    p.standardOutput = out
    p.standardError = err
    try p.run()
    return (p, out, err)
  }

  static func run(_ args: [String]) throws -> Run {
    let (p, out, err) = try start(args)
    let o = out.fileHandleForReading.readDataToEndOfFile()
    let e = err.fileHandleForReading.readDataToEndOfFile()
    p.waitUntilExit()
    return Run(status: p.terminationStatus, stdout: String(decoding: o, as: UTF8.self), stderr: String(decoding: e, as: UTF8.self))
  }

  /// A state file with a monthly subscription bought at `start`, built by a scenario.
  static func subscribedFile(in dir: TempDir, start: String = "2026-01-01T00:00:00Z", extra: String = "") throws -> String {
    let path = dir.file("state.json")
    let scenario = try ScenarioParser.parse("catalog pass.storekit\nstart \(start)\n\(extra)buy pass.premium.monthly no intro\n", fileName: "setup")
    _ = try ScenarioRunner(scenario: scenario, scriptDirectory: Sim.scenariosDir, statePath: path).run()
    return path
  }

  static func journal(_ path: String) throws -> [Journal.Entry] {
    let s = try StateFile.load(path: path)
    let j = s.document.journal!
    return try Journal.readAll(path: PathName.directory(of: path) + "/" + j.file, committedBytes: j.committedBytes)
  }

  static func notifications(_ path: String) throws -> [NotificationRecord] {
    try journal(path).compactMap { if case .notification(let n) = $0 { return n } else { return nil } }
  }

  @Test func everyShippedScenarioPassesCheck() throws {
    for name in ScenarioTests.examples {
      let r = try Self.run(["simulate", "--check", Sim.scenariosDir + "/" + name])
      #expect(r.status == 0, "\(name): \(r.stderr)")
      #expect(r.stdout.isEmpty)
      #expect(r.stderr.hasPrefix("\(name): ok ("))
    }
  }

  @Test func checkExitsOneOnTheFirstMismatchAndTwoOnBadInput() throws {
    let dir = TempDir()
    let bad = dir.write("bad.scenario", "catalog \(Sim.catalogPath)\nstart 2026-01-01T00:00:00Z\nbuy pass.premium.monthly\nexpect status expired\nexpect status active\n")
    let r = try Self.run(["simulate", "--check", bad])
    #expect(r.status == 1)
    #expect(r.stderr.hasPrefix("bad.scenario:4: mismatch in \"expect status expired\": expected 2 (expired), found 1 (active)\n"))

    let syntax = dir.write("syntax.scenario", "catalog \(Sim.catalogPath)\nbuy\n")
    let s = try Self.run(["simulate", "--check", syntax])
    #expect(s.status == 2)
    #expect(s.stderr == "syntax.scenario:2: expected buy <product id> [monthly] [family] [no intro]\n")

    let noFile = try Self.run(["simulate", "--fast", dir.file("missing.json")])
    #expect(noFile.status == 2)
    #expect(noFile.stderr == "subdash: missing.json: no such state file; nothing was created\n")
    #expect(!FileManager.default.fileExists(atPath: dir.file("missing.json.lock")))
  }

  @Test func scenarioRefusesToReplaceAnExistingFile() throws {
    let dir = TempDir()
    let path = try Self.subscribedFile(in: dir)
    let before = dir.bytes("state.json")
    let r = try Self.run(["simulate", "--scenario", Sim.scenariosDir + "/refund.scenario", path])
    #expect(r.status == 2)
    #expect(dir.bytes("state.json") == before)
  }

  @Test func fastRunsEventToEventAndPrintsOneLineEach() throws {
    let dir = TempDir()
    let path = try Self.subscribedFile(in: dir, start: "2026-01-31T12:00:00Z", extra: "set grace 16d\nset outcomes ok, fail\n")
    let r = try Self.run(["simulate", "--fast", path])
    #expect(r.status == 0, "\(r.stderr)")
    let lines = r.stdout.split(separator: "\n").map(String.init)
    #expect(lines == [
      "2026-02-28 12:00:00  DID_RENEW                           status=1  pass.premium.monthly  renewed Premium Monthly for 9.99 USD until 2026-03-31 12:00 UTC",
      "2026-03-31 12:00:00  DID_FAIL_TO_RENEW / GRACE_PERIOD    status=4  pass.premium.monthly  billing failed for Premium Monthly; grace period until 2026-04-16 12:00 UTC",
      "2026-04-16 12:00:00  GRACE_PERIOD_EXPIRED                status=3  pass.premium.monthly  grace period ended; billing retry continues until 2026-05-30 12:00 UTC",
      "2026-05-30 12:00:00  EXPIRED / BILLING_RETRY             status=2  pass.premium.monthly  expired: billing retry ended without a successful charge",
    ])
    #expect(r.stderr.contains("4 events; 4 notifications"))
  }

  @Test func untilAndStepsStopWhereTold() throws {
    let dir = TempDir()
    let path = try Self.subscribedFile(in: dir)
    let r = try Self.run(["simulate", "--until", "2026-04-15", "--jsonl", path])
    #expect(r.status == 0, "\(r.stderr)")
    let lines = r.stdout.split(separator: "\n")
    #expect(lines.count == 3)
    for line in lines {
      let n = try NotificationRecord(ObjectReader(JSONParser.parse(Array(line.utf8)), at: .root))
      #expect(n.notificationType == .didRenew)
    }
    #expect(try Simulator.clock(StateFile.load(path: path)) == Sim.at("2026-04-15T00:00:00Z"))

    let s = try Self.run(["simulate", "--steps", "2", path])
    #expect(s.stdout.split(separator: "\n").count == 2)
    #expect(try Simulator.clock(StateFile.load(path: path)) == Sim.at("2026-06-01T00:00:00Z"))
  }

  @Test func flagsAreWrittenToTheFile() throws {
    let dir = TempDir()
    let path = try Self.subscribedFile(in: dir)
    let r = try Self.run(["simulate", "--steps", "1", "--fail-renewals", "--grace", "28d", "--seed", "5", "--rate", "monthlyRenewalEveryHour", path])
    #expect(r.status == 0, "\(r.stderr)")
    #expect(r.stdout.contains("DID_FAIL_TO_RENEW / GRACE_PERIOD"))
    let settings = try Simulator.settings(StateFile.load(path: path))
    #expect(settings.failRenewals == true)
    #expect(settings.gracePeriod == .length(.days(28)))
    #expect(settings.seed == 5)
    #expect(settings.timeRate == "monthlyRenewalEveryHour")
    #expect(try Self.run(["simulate", "--rate", "warp", path]).status == 64)  // a bad command-line value is a usage error, like show --now
  }

  @Test func productionDataIsRefused() throws {
    let dir = TempDir()
    let path = try Self.subscribedFile(in: dir)
    var text = dir.text("state.json")
    text = text.replacingOccurrences(of: "\"environment\": \"Xcode\"", with: "\"environment\": \"Production\"")
    dir.write("state.json", text)
    let before = dir.bytes("state.json")
    let r = try Self.run(["simulate", "--fast", path])
    #expect(r.status == 2)
    #expect(r.stderr == "subdash: Simulation is refused on Production data.\n")
    #expect(dir.bytes("state.json") == before)
  }

  /// Every mode refuses Production up front, with one line and exit 2, also when nothing is due
  /// (refunded.json: revoked, so no event is scheduled; it used to end "nothing was due", exit 0).
  @Test func everySimulateModeRefusesProductionDataEvenWithNothingDue() throws {
    let dir = TempDir()
    let example = try String(contentsOf: ExamplesTests.directory.appendingPathComponent("refunded.json"), encoding: .utf8)
    #expect(example.contains(#""environment": "Production""#))
    let path = dir.write("refunded.json", example)
    let before = dir.bytes("refunded.json")
    let script = dir.write("look.scenario", "expect status 5\n")
    for args in [["--steps", "1"], ["--fast"], ["--until", "2026-12-31"], ["--scenario", script], ["--check", script]] {
      let r = try Self.run(["simulate"] + args + [path])
      #expect(r.status == 2, "\(args): \(r.stderr)")
      #expect(r.stderr.hasSuffix("Simulation is refused on Production data.\n"), "\(args): \(r.stderr)")
      #expect(r.stderr.split(separator: "\n").count == 1, "\(args): \(r.stderr)")
      #expect(r.stdout.isEmpty)
      #expect(dir.bytes("refunded.json") == before, "\(args) changed the file")
    }
    // Wall-clock mode too, at once (it would otherwise run until interrupted).
    let (child, _, err) = try Self.start(["simulate", path])
    let deadline = Date().addingTimeInterval(10)
    while child.isRunning && Date() < deadline { Thread.sleep(forTimeInterval: 0.05) }
    if child.isRunning { child.terminate() }
    child.waitUntilExit()
    #expect(child.terminationStatus == 2)
    #expect(String(decoding: err.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self) == "subdash: Simulation is refused on Production data.\n")
    #expect(dir.bytes("refunded.json") == before)
  }

  /// The simulator and a dashboard on one file: the simulator applies events as fast as it can
  /// while this test, like a dashboard, presses keys through `StateFile.update`. Nothing either
  /// writes may be lost, and the clock never runs backwards.
  @Test func simulatorAndDashboardShareTheFileWithoutLosingWrites() throws {
    let dir = TempDir()
    let path = try Self.subscribedFile(in: dir)
    // Enough steps that the simulator is still writing while the keys are pressed, on any machine.
    let (child, out, err) = try Self.start(["simulate", "--steps", "1000", "--jsonl", path])
    var keyPresses = 0
    var pressedWhileRunning = 0
    var clocksWritten: [Instant] = []
    var sawSimulatorBetweenPresses = false
    var lastNotificationCount = -1
    while child.isRunning || keyPresses < 40 {
      if keyPresses >= 40 { break }
      let running = child.isRunning
      // A key that changes a setting, and one that moves the clock half a day.
      let saved = try StateFile.update(path: path) { (s) throws(StateFileError) -> Change in
        switch Simulator.configure(s, { $0.seed += 1 }) {
        case .success(let c): return c
        case .failure(let e): throw StateFileError(file: "state.json", message: e.message)
        }
      }
      let count = saved.state.historySummary.notificationCount
      if lastNotificationCount >= 0 && count > lastNotificationCount && running { sawSimulatorBetweenPresses = true }
      lastNotificationCount = count
      let moved = try StateFile.update(path: path) { (s) throws(StateFileError) -> Change in
        switch Simulator.apply(.advance(.hours(12)), to: s, at: (try? Simulator.clock(s)) ?? .epoch) {
        case .success(let c): return c
        case .failure(let e): throw StateFileError(file: "state.json", message: e.message)
        }
      }
      clocksWritten.append(try Simulator.clock(moved.state))
      keyPresses += 1
      if running { pressedWhileRunning += 1 }
      usleep(3_000)
    }
    _ = out.fileHandleForReading.readDataToEndOfFile()
    let errText = String(decoding: err.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)
    child.waitUntilExit()
    #expect(child.terminationStatus == 0, "\(errText)")
    #expect(pressedWhileRunning >= 2, "the simulator finished before the test could overlap with it")
    #expect(sawSimulatorBetweenPresses)

    let final = try StateFile.load(path: path)
    let settings = try Simulator.settings(final)
    #expect(settings.seed == UInt64(keyPresses), "a key press was lost")
    let clock = try Simulator.clock(final)
    #expect(clock >= clocksWritten.max()!, "the clock was rewound")
    let notes = try Self.notifications(path)
    let dates = notes.compactMap(\.signedDate)
    #expect(dates == dates.sorted(), "events were applied out of order")
    let ids = try Self.journal(path).compactMap { if case .transaction(let t) = $0 { return t.transactionId } else { return nil } }
    #expect(Set(ids).count == ids.count)
    #expect(final.historySummary.notificationCount == notes.count)
  }

  /// Wall-clock mode at a fixed two-second rate, stopped with Ctrl-C (SIGINT) while this test
  /// writes to the same file.
  @Test func wallClockRunStopsCleanlyOnInterrupt() throws {
    let dir = TempDir()
    let path = try Self.subscribedFile(in: dir, extra: "set rate oneRenewalEveryTwoSeconds\n")
    // Start the subscription "now" so the wall-clock run has renewals due every two seconds.
    let (child, out, err) = try Self.start(["simulate", path])
    var presses = 0
    let deadline = Date().addingTimeInterval(4.5)
    while Date() < deadline {
      _ = try StateFile.update(path: path) { (s) throws(StateFileError) -> Change in try Simulator.configure(s, { $0.seed += 1 }).orStateFileError() }
      presses += 1
      usleep(200_000)
    }
    kill(child.processIdentifier, SIGINT)
    let stdout = String(decoding: out.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)
    let stderr = String(decoding: err.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)
    child.waitUntilExit()
    #expect(child.terminationStatus == 0, "\(stderr)")
    #expect(stderr.contains("stopped by signal"))
    let renewals = stdout.split(separator: "\n").filter { $0.contains("DID_RENEW") }
    #expect(renewals.count >= 1, "\(stdout)")
    let final = try StateFile.load(path: path)
    #expect(try Simulator.settings(final).seed == UInt64(presses))
    #expect(final.historySummary.notificationCount == (try Self.notifications(path)).count)
  }

  /// `--until` a date before the file's clock cannot move the clock back; the run says so instead
  /// of a bare "nothing was due" that reads as if the date was reached.
  @Test func untilADateBeforeTheClockSaysTheClockNeverMovesBack() throws {
    let dir = TempDir()
    let path = try Self.subscribedFile(in: dir)
    let r = try Self.run(["simulate", "--until", "2025-06-01", path])
    #expect(r.status == 0)
    #expect(r.stderr.hasPrefix("subdash simulate: --until 2025-06-01 00:00 UTC is before the file's clock (2026-01-01 00:00 UTC); the clock never moves back\n"), "\(r.stderr)")
  }
}

extension Result where Failure == ActionError {
  /// For tests: a refusal becomes a StateFileError so it can abort a `StateFile.update`.
  func orStateFileError() throws(StateFileError) -> Success {
    switch self {
    case .success(let v): return v
    case .failure(let e): throw StateFileError(file: "test", message: e.message)
    }
  }
}
