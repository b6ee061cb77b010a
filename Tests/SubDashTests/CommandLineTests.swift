import Foundation
import Testing

/// The command line as a support person meets it: the built `subdash` binary, run as a process.
@Suite struct CommandLineTests {
  struct Run {
    var status: Int32
    var stdout: String
    var stderr: String
    var errorLines: [Substring] { stderr.split(separator: "\n") }
  }

  /// Where the binaries built with this test bundle are.
  static var directory: URL {
    Bundle.main.executableURL?.deletingLastPathComponent() ?? URL(fileURLWithPath: CommandLine.arguments[0]).deletingLastPathComponent()
  }

  /// The `subdash` built next to this test bundle.
  static var binary: URL { directory.appendingPathComponent("subdash") }

  /// Runs one of the built binaries to its end, standard input empty, both outputs read at once
  /// (a child that fills one pipe while we wait on the other would never end). Bounded: after
  /// `limit` seconds it is terminated, and its status says so.
  static func run(_ args: [String], binary: String = "subdash", in cwd: URL? = nil, environment: [String: String]? = nil,
                  limit: Double = 120) throws -> Run {
    let p = Process()
    p.executableURL = directory.appendingPathComponent(binary)
    p.arguments = args
    if let cwd { p.currentDirectoryURL = cwd }
    if let environment { p.environment = environment }
    let out = Pipe(), err = Pipe()
    p.standardOutput = out
    p.standardError = err
    p.standardInput = FileHandle.nullDevice
    try p.run()
    let stop = DispatchWorkItem { if p.isRunning { p.terminate() } }
    DispatchQueue.global().asyncAfter(deadline: .now() + limit, execute: stop)
    let errorText = ErrorText()
    let reading = DispatchGroup()
    DispatchQueue.global().async(group: reading) { errorText.data = err.fileHandleForReading.readDataToEndOfFile() }
    let o = out.fileHandleForReading.readDataToEndOfFile()
    reading.wait()
    p.waitUntilExit()
    stop.cancel()
    return Run(status: p.terminationStatus, stdout: String(decoding: o, as: UTF8.self), stderr: String(decoding: errorText.data, as: UTF8.self))
  }

  /// Standard error as the reading thread left it (read only after the group is waited on).
  private final class ErrorText: @unchecked Sendable { var data = Data() }

  func run(_ args: [String]) throws -> Run { try Self.run(args) }

  var example: String { DemoStateTests.repoRoot.appendingPathComponent("Examples/active.json").path }

  /// The refresh key runs `subdash-fetch … --refresh` with the dashboard's environment. With no
  /// credentials there (they were typed as flags for the first fetch and are never kept), the
  /// status line must say where a refresh looks for them, and nothing is written.
  @Test func aRefreshWithoutCredentialsSaysWhereTheyAreRead() throws {
    let home = FileManager.default.temporaryDirectory.appendingPathComponent("subdash-refresh-\(UUID().uuidString)")
    try FileManager.default.createDirectory(at: home, withIntermediateDirectories: true)
    defer { try? FileManager.default.removeItem(at: home) }
    let p = Process()
    p.executableURL = Self.binary
    p.arguments = ["fetch", "2000000500", "-o", home.appendingPathComponent("state.json").path, "--quiet", "--refresh",
                   "--base-url", "http://127.0.0.1:9"]
    p.environment = ["HOME": home.path, "PATH": "/usr/bin:/bin"]
    let err = Pipe()
    p.standardError = err
    p.standardOutput = FileHandle.nullDevice
    try p.run()
    let text = String(decoding: err.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)
    p.waitUntilExit()
    #expect(p.terminationStatus == 2)
    #expect(text.contains("missing --key-file"))
    #expect(text.contains("the dashboard's refresh key (l) reads credentials from SUBDASH_APPSTORE_KEY_FILE"))
    #expect(text.split(separator: "\n").count == 1)
    #expect(try FileManager.default.contentsOfDirectory(atPath: home.path).isEmpty)
  }

  @Test func versionPrintsTheReleaseAndTheBuild() throws {
    let r = try run(["--version"])
    #expect(r.status == 0)
    #expect(r.stdout.hasPrefix("subdash 0.9.0 ("))
    #expect(r.stdout.contains("build"))
  }

  /// One exit code for a bad date on the command line, whichever command reads it: 64 (usage).
  @Test func aBadDateIsAUsageErrorInShowAndSimulate() throws {
    let show = try run(["show", "--now", "not-a-date", example])
    let simulate = try run(["simulate", "--until", "not-a-date", example])
    #expect(show.status == 64)
    #expect(simulate.status == 64)
    #expect(simulate.stderr.contains("--until"))
  }

  @Test func aMissingScenarioScriptIsOneLineNamingIt() throws {
    let r = try run(["simulate", "--check", "/nonexistent/nonexist.scenario"])
    #expect(r.status == 2)
    #expect(r.stderr.contains("/nonexistent/nonexist.scenario: cannot read the script: No such file or directory"))
    #expect(r.stderr.split(separator: "\n").count == 1)
    #expect(!r.stderr.contains("CocoaError"))
  }

  @Test func topLevelHelpNamesTheDashboardOptions() throws {
    let r = try run(["--help"])
    for option in ["--read-only", "--no-color", "--ascii", "--now", "--retry-access", "subdash show"] {
      #expect(r.stdout.contains(option), "subdash --help does not mention \(option)")
    }
  }

  @Test func withoutATerminalTheErrorSuggestsShow() throws {
    let r = try run(["--read-only", example])
    #expect(r.status != 0)
    #expect(r.stderr.contains("is not a terminal"))
    #expect(r.stderr.contains("subdash show FILE"))
  }

  /// auto-renew-off.json expires in 2026; --fast used to walk on through win-back eligibility
  /// changes to 2028. It stops at the expiry and says what it did not run.
  @Test func fastStopsAtTheLastLifecycleEvent() throws {
    let dir = FileManager.default.temporaryDirectory.appendingPathComponent("subdash-cli-\(UUID().uuidString)")
    try FileManager.default.createDirectory(at: dir, withIntermediateDirectories: true)
    defer { try? FileManager.default.removeItem(at: dir) }
    let copy = dir.appendingPathComponent("auto-renew-off.json")
    try FileManager.default.copyItem(at: DemoStateTests.repoRoot.appendingPathComponent("Examples/auto-renew-off.json"), to: copy)
    let r = try run(["simulate", "--fast", copy.path])
    #expect(r.status == 0)
    #expect(r.stdout.contains("EXPIRED"))
    #expect(r.stderr.contains("win-back eligibility change"))
    #expect(!r.stderr.contains("clock 2028"))
  }
}
