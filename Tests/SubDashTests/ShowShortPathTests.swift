import Foundation
import Testing

/// `show FILE [--json] [--ascii]` is parsed without ArgumentParser (issue 23, start-up: its
/// reflective parse was half of a `show` process). The short path must print exactly what the
/// full parse prints for the same request, and every other command line must still meet
/// ArgumentParser's checks, texts and exit codes.
@Suite struct ShowShortPathTests {
  static let examples = DemoStateTests.repoRoot.appendingPathComponent("Examples")

  /// The capture's wall-clock time is the one thing two runs a moment apart may print differently.
  func stable(_ text: String) -> String { text.split(separator: "\n").filter { !$0.contains("wall") }.joined(separator: "\n") }

  @Test(arguments: [[], ["--json"], ["--ascii"], ["--ascii", "--json"]])
  func theShortPathPrintsWhatTheFullParsePrints(_ flags: [String]) throws {
    // Files on a simulated clock, so "now" is the file's and not the wall clock's.
    for name in ["active.json", "grace-period.json", "billing-retry.json", "commitment.json"] {
      let file = Self.examples.appendingPathComponent(name).path
      let short = try CommandLineTests.run(["show"] + flags + [file])
      // `--events 10` is the default: the same request, but only ArgumentParser accepts it.
      let full = try CommandLineTests.run(["show", "--events", "10"] + flags + [file])
      #expect(short.status == 0 && full.status == 0, "\(name) \(flags): \(short.stderr) \(full.stderr)")
      #expect(!short.stdout.isEmpty)
      #expect(stable(short.stdout) == stable(full.stdout), "\(name) \(flags)")
      #expect(short.stderr == full.stderr, "\(name) \(flags)")
    }
  }

  @Test func everyOtherCommandLineMeetsArgumentParserAsBefore() throws {
    let none = try CommandLineTests.run(["show"])
    #expect(none.status == 64)
    #expect(none.stderr.hasPrefix("subdash: missing expected argument '<file>'\nusage: subdash show <file>"))
    let two = try CommandLineTests.run(["show", "a.json", "b.json"])
    #expect(two.status == 64)
    #expect(two.stderr.hasPrefix("subdash: unexpected argument 'b.json'"))
    let help = try CommandLineTests.run(["show", "--help"])
    #expect(help.status == 0)
    #expect(help.stdout.contains("USAGE: subdash show <file>"))
    let badNow = try CommandLineTests.run(["show", "--now", "yesterday-ish", Self.examples.appendingPathComponent("active.json").path])
    #expect(badNow.status == 64)
    #expect(badNow.stderr.hasPrefix("subdash: --now:"))
    // The short path's own failure (the file) is reported as the full parse's would be.
    let missing = try CommandLineTests.run(["show", "/nonexistent/state.json"])
    let missingFull = try CommandLineTests.run(["show", "--events", "10", "/nonexistent/state.json"])
    #expect(missing.status == 2 && missingFull.status == 2)
    #expect(missing.stderr.hasPrefix("subdash: ") && missing.stderr.contains("cannot read"))
    #expect(missing.stderr == missingFull.stderr)
  }
}
