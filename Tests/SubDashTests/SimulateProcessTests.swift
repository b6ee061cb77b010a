import Foundation
import Testing

@testable import DashModel
@testable import CoreValues
@testable import SubscriberStorage
@testable import SimulationRuns

/// `subdash simulate` as a separate process: exit codes, output, Ctrl-C, and a simulator and a
/// "dashboard" (this test) writing the same file at the same time. Every wait is for something
/// observable (the file, the process's exit) with a deadline, never a fixed time. Serialized: the
/// tests start processes that write for a while.
@Suite(.serialized, .timeLimit(.minutes(2))) struct SimulateProcessTests {
  static let repoRoot = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()
  static let scenariosDir = repoRoot.appendingPathComponent("Examples/scenarios").path
  static let examplesDir = repoRoot.appendingPathComponent("Examples").path

  static func run(_ args: [String]) throws -> CommandLineTests.Run { try CommandLineTests.run(args) }

  static func start(_ args: [String]) throws -> (Process, Pipe, Pipe) {
    let p = Process()
    p.executableURL = CommandLineTests.binary
    p.arguments = args
    let out = Pipe(), err = Pipe()
    p.standardOutput = out
    p.standardError = err
    try p.run()
    return (p, out, err)
  }

  /// Everything a pipe delivers, read on its own thread (a child that fills a pipe never ends).
  final class Drained: @unchecked Sendable {
    private var data = Data()
    private let done = DispatchSemaphore(value: 0)
    init(_ pipe: Pipe) {
      Thread.detachNewThread { [self] in
        self.data = pipe.fileHandleForReading.readDataToEndOfFile()
        self.done.signal()
      }
    }
    var text: String { done.wait(); return String(decoding: data, as: UTF8.self) }
  }

  /// Waits (bounded) for a child to end, ending it if it does not, and returns its outputs.
  static func finish(_ p: Process, _ out: Pipe, _ err: Pipe, within limit: Duration = .seconds(60)) -> (stdout: String, stderr: String) {
    let o = Drained(out), e = Drained(err)
    if !eventually(within: limit, { !p.isRunning }) { p.terminate() }
    p.waitUntilExit()
    return (o.text, e.text)
  }

  static func bytes(_ path: String) -> [UInt8] { Array(FileManager.default.contents(atPath: path) ?? Data()) }

  /// A state file with a monthly subscription bought at `start`, built by a scenario.
  static func subscribedFile(in dir: TempDir, start: String = "2026-01-01T00:00:00Z", extra: String = "") throws -> String {
    let path = dir.file("state.json")
    let scenario = try ScenarioParser.parse("catalog pass.storekit\nstart \(start)\n\(extra)buy pass.premium.monthly no intro\n", fileName: "setup")
    _ = try ScenarioRunner(scenario: scenario, scriptDirectory: scenariosDir, statePath: path).run()
    return path
  }

  /// The file's whole history, wherever it is: inline (a young subscriber's, up to
  /// `StateFile.inlineHistoryLimit` entries), then the committed part of the journal if it has one.
  static func history(_ path: String) throws -> [Journal.Entry] {
    try StateFile.historyEntries(StateFile.load(path: path), statePath: path)
  }

  static func notifications(_ path: String) throws -> [NotificationRecord] {
    try history(path).compactMap { if case .notification(let n) = $0 { return n } else { return nil } }
  }

  static func notificationCount(_ path: String) -> Int {
    (try? StateFile.load(path: path))?.historySummary.notificationCount ?? 0
  }

  /// One key press of a dashboard: a setting changes (the seed goes up by one).
  @discardableResult
  static func pressKey(_ path: String) throws -> StateFile.Saved {
    try StateFile.update(path: path) { (s) throws(StateFileError) -> Change in
      switch Simulator.configure(s, { $0.seed += 1 }) {
      case .success(let c): return c
      case .failure(let e): throw StateFileError(file: "state.json", message: e.message)
      }
    }
  }

  @Test func everyShippedScenarioPassesCheck() throws {
    let names = try FileManager.default.contentsOfDirectory(atPath: Self.scenariosDir).filter { $0.hasSuffix(".scenario") }.sorted()
    #expect(!names.isEmpty)
    for name in names {
      let r = try Self.run(["simulate", "--check", Self.scenariosDir + "/" + name])
      #expect(r.status == 0, "\(name): \(r.stderr)")
      #expect(r.stdout.isEmpty)
      #expect(r.stderr.hasPrefix("\(name): ok ("))
    }
  }

  @Test func checkExitsOneOnTheFirstMismatchAndTwoOnBadInput() throws {
    let dir = TempDir()
    let catalog = Self.scenariosDir + "/pass.storekit"
    dir.write("bad.scenario", "catalog \(catalog)\nstart 2026-01-01T00:00:00Z\nbuy pass.premium.monthly\nexpect status expired\nexpect status active\n")
    let r = try Self.run(["simulate", "--check", dir.file("bad.scenario")])
    #expect(r.status == 1)
    // One line, the one error prefix; where the scratch state was kept is said on it.
    #expect(r.stderr.hasPrefix("subdash: bad.scenario:4: mismatch in \"expect status expired\": expected 2 (expired), found 1 (active) (scratch state kept at "))
    #expect(r.stderr.split(separator: "\n").count == 1)

    dir.write("syntax.scenario", "catalog \(catalog)\nbuy\n")
    let s = try Self.run(["simulate", "--check", dir.file("syntax.scenario")])
    #expect(s.status == 2)
    #expect(s.stderr == "subdash: syntax.scenario:2: expected buy <product id> [monthly] [family] [no intro]\n")

    let noFile = try Self.run(["simulate", "--fast", dir.file("missing.json")])
    #expect(noFile.status == 2)
    #expect(noFile.stderr == "subdash: missing.json: no such state file; nothing was created\n")
    #expect(!FileManager.default.fileExists(atPath: dir.file(".subdash.lock")))
  }

  @Test func scenarioRefusesToReplaceAnExistingFile() throws {
    let dir = TempDir()
    let path = try Self.subscribedFile(in: dir)
    let before = Self.bytes(path)
    let r = try Self.run(["simulate", "--scenario", Self.scenariosDir + "/refund.scenario", path])
    #expect(r.status == 2)
    #expect(Self.bytes(path) == before)
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
    #expect(try Simulator.clock(StateFile.load(path: path)) == (try Format.parseDate("2026-04-15T00:00:00Z")))

    let s = try Self.run(["simulate", "--steps", "2", path])
    #expect(s.stdout.split(separator: "\n").count == 2)
    #expect(try Simulator.clock(StateFile.load(path: path)) == (try Format.parseDate("2026-06-01T00:00:00Z")))
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

  /// --fail-renewals is stored in the file; --no-fail-renewals takes it back, and
  /// --settings-only writes it without running the clock (a simulator already on the file follows).
  @Test func failRenewalsCanBeTurnedOffAgainFromTheCommandLine() throws {
    let dir = TempDir()
    let path = try Self.subscribedFile(in: dir)
    let on = try Self.run(["simulate", "--settings-only", "--fail-renewals", path])
    #expect(on.status == 0, "\(on.stderr)")
    #expect(on.stdout.contains("simulation settings written: failRenewals true"), "\(on.stdout)")
    #expect(try Simulator.settings(StateFile.load(path: path)).failRenewals == true)
    let off = try Self.run(["simulate", "--steps", "1", "--no-fail-renewals", path])
    #expect(off.status == 0, "\(off.stderr)")
    #expect(try Simulator.settings(StateFile.load(path: path)).failRenewals == false)
    #expect(off.stdout.contains("DID_RENEW"), "\(off.stdout)")
    #expect(!off.stdout.contains("DID_FAIL_TO_RENEW"), "\(off.stdout)")
    let nothing = try Self.run(["simulate", "--settings-only", path])
    #expect(nothing.status == 64, "settings-only without a setting is a usage error")
  }

  @Test func productionDataIsRefused() throws {
    let dir = TempDir()
    let path = try Self.subscribedFile(in: dir)
    let text = String(decoding: Self.bytes(path), as: UTF8.self)
    dir.write("state.json", text.replacingOccurrences(of: "\"environment\": \"Xcode\"", with: "\"environment\": \"Production\""))
    let before = Self.bytes(path)
    let r = try Self.run(["simulate", "--fast", path])
    #expect(r.status == 2)
    #expect(r.stderr == "subdash: Simulation is refused on Production data.\n")
    #expect(Self.bytes(path) == before)
  }

  /// Every mode refuses Production up front, with one line and exit 2, also when nothing is due
  /// (refunded.json: revoked, so no event is scheduled; it used to end "nothing was due", exit 0).
  @Test func everySimulateModeRefusesProductionDataEvenWithNothingDue() throws {
    let dir = TempDir()
    let example = try String(contentsOfFile: Self.examplesDir + "/refunded.json", encoding: .utf8)
    #expect(example.contains(#""environment": "Production""#))
    dir.write("refunded.json", example)
    let path = dir.file("refunded.json")
    let before = Self.bytes(path)
    dir.write("look.scenario", "expect status 5\n")
    let script = dir.file("look.scenario")
    for args in [["--steps", "1"], ["--fast"], ["--until", "2026-12-31"], ["--scenario", script], ["--check", script]] {
      let r = try Self.run(["simulate"] + args + [path])
      #expect(r.status == 2, "\(args): \(r.stderr)")
      #expect(r.stderr.hasSuffix("Simulation is refused on Production data.\n"), "\(args): \(r.stderr)")
      #expect(r.stderr.split(separator: "\n").count == 1, "\(args): \(r.stderr)")
      #expect(r.stdout.isEmpty)
      #expect(Self.bytes(path) == before, "\(args) changed the file")
    }
    // Wall-clock mode too, at once (it would otherwise run until interrupted).
    let (child, out, err) = try Self.start(["simulate", path])
    let ended = eventually(within: .seconds(30)) { !child.isRunning }
    let (_, stderr) = Self.finish(child, out, err, within: .zero)
    #expect(ended, "the wall-clock run did not refuse at once")
    #expect(child.terminationStatus == 2)
    #expect(stderr == "subdash: Simulation is refused on Production data.\n")
    #expect(Self.bytes(path) == before)
  }

  /// The simulator and a dashboard on one file: the simulator applies events as fast as it can
  /// while this test, like a dashboard, presses keys through `StateFile.update`. Between two
  /// presses it waits until the simulator has written (the file says so), so the writes
  /// interleave on any machine. Nothing either writes may be lost, and the clock never runs back.
  @Test func simulatorAndDashboardShareTheFileWithoutLosingWrites() throws {
    let dir = TempDir()
    let path = try Self.subscribedFile(in: dir)
    let (child, out, err) = try Self.start(["simulate", "--steps", "1000", "--jsonl", path])
    var keyPresses = 0
    var pressedWhileRunning = 0
    var clocksWritten: [Instant] = []
    var simulatorWroteBetweenPresses = 0
    while keyPresses < 40 {
      let running = child.isRunning
      let saved = try Self.pressKey(path)
      let moved = try StateFile.update(path: path) { (s) throws(StateFileError) -> Change in
        switch Simulator.apply(.advance(.hours(12)), to: s, at: (try? Simulator.clock(s)) ?? .epoch) {
        case .success(let c): return c
        case .failure(let e): throw StateFileError(file: "state.json", message: e.message)
        }
      }
      clocksWritten.append(try Simulator.clock(moved.state))
      keyPresses += 1
      if running { pressedWhileRunning += 1 }
      // The next press once the simulator has written again (or has finished).
      let count = saved.state.historySummary.notificationCount
      if eventually(within: .seconds(10), { !child.isRunning || Self.notificationCount(path) > count }), child.isRunning {
        simulatorWroteBetweenPresses += 1
      }
    }
    let (_, errText) = Self.finish(child, out, err)
    #expect(child.terminationStatus == 0, "\(errText)")
    #expect(pressedWhileRunning >= 2, "the simulator finished before the test could overlap with it")
    #expect(simulatorWroteBetweenPresses >= 2, "the simulator never wrote between two key presses")

    let final = try StateFile.load(path: path)
    let settings = try Simulator.settings(final)
    #expect(settings.seed == UInt64(keyPresses), "a key press was lost")
    let clock = try Simulator.clock(final)
    #expect(clock >= (clocksWritten.max() ?? .epoch), "the clock was rewound")
    let notes = try Self.notifications(path)
    let dates = notes.compactMap(\.signedDate)
    #expect(dates == dates.sorted(), "events were applied out of order")
    let ids = try Self.history(path).compactMap { if case .transaction(let t) = $0 { return t.transactionId } else { return nil } }
    #expect(Set(ids).count == ids.count)
    #expect(final.historySummary.notificationCount == notes.count)
  }

  /// Wall-clock mode at a fixed two-second rate, stopped with Ctrl-C (SIGINT) while this test
  /// writes to the same file: keys are pressed until the simulator has renewed at least once
  /// (seen in the file), however long that takes on a busy machine, then it is interrupted.
  @Test func wallClockRunStopsCleanlyOnInterrupt() throws {
    let dir = TempDir()
    let path = try Self.subscribedFile(in: dir, extra: "set rate oneRenewalEveryTwoSeconds\n")
    let (child, out, err) = try Self.start(["simulate", path])
    let before = Self.notificationCount(path)
    var presses = 0
    let renewed = try eventually(within: .seconds(60), every: .milliseconds(100)) {
      try Self.pressKey(path)
      presses += 1
      return presses >= 3 && Self.notificationCount(path) > before
    }
    #expect(renewed, "no renewal written within 60 s at one every two seconds")
    kill(child.processIdentifier, SIGINT)
    let (stdout, stderr) = Self.finish(child, out, err, within: .seconds(30))
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
    #expect(r.stderr.hasPrefix("subdash: --until 2025-06-01 00:00 UTC is before the file's clock (2026-01-01 00:00 UTC); the clock never moves back\n"), "\(r.stderr)")
  }
}
