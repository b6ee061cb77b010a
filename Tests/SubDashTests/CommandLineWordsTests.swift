import CommandLineStyle
import Foundation
import Testing

/// What a person who mistypes meets (issue 22 §4, §6): a mistyped command is suggested, every
/// executable reports a command-line mistake as one `subdash:` line and a usage hint, and
/// `subdash list` sorts and prints for scripts as docs/list.md says.
@Suite struct CommandLineWordsTests {
  typealias Run = CommandLineTests.Run

  func run(_ args: [String], binary: String = "subdash", in cwd: URL? = nil) throws -> Run {
    try CommandLineTests.run(args, binary: binary, in: cwd)
  }

  var examples: URL { DemoStateTests.repoRoot.appendingPathComponent("Examples") }

  /// A private copy of a few examples: two files of one subscriber, one in billing retry.
  func listDirectory() throws -> URL {
    let dir = FileManager.default.temporaryDirectory.appendingPathComponent("subdash-words-\(UUID().uuidString)")
    try FileManager.default.createDirectory(at: dir, withIntermediateDirectories: true)
    for name in ["active", "grace-period", "billing-retry", "expired-voluntary", "pending-downgrade"] {
      try FileManager.default.copyItem(at: examples.appendingPathComponent("\(name).json"), to: dir.appendingPathComponent("\(name).json"))
    }
    try FileManager.default.copyItem(at: examples.appendingPathComponent("grace-period.json"), to: dir.appendingPathComponent("grace-copy.json"))
    return dir
  }

  @Test func aMistypedCommandIsSuggested() throws {
    let r = try run(["shwo", "a.json"], in: examples)
    #expect(r.status == 64)
    #expect(r.errorLines.first == "subdash: shwo: no such command or file; did you mean show?")
    #expect(r.errorLines.count == 2)
    #expect(r.errorLines.last?.hasPrefix("usage: ") == true)
    #expect(!r.stderr.contains("Unexpected argument"))
  }

  @Test func aWordThatIsNeitherACommandNorAFileNamesTheCommands() throws {
    let r = try run(["nosuchcmd"], in: examples)
    #expect(r.status == 64)
    #expect(r.errorLines.first?.hasPrefix("subdash: nosuchcmd: no such command or file (commands: open, show, list,") == true)
    #expect(!r.stderr.contains("No such file"))
  }

  @Test func anExistingFileNamedLikeACommandStillOpensAsAFile() throws {
    // `subdash FILE` is the dashboard: a file that exists is never taken for a mistyped command.
    let dir = try listDirectory()
    defer { try? FileManager.default.removeItem(at: dir) }
    try FileManager.default.moveItem(at: dir.appendingPathComponent("active.json"), to: dir.appendingPathComponent("shwo"))
    let r = try run(["shwo"], in: dir)
    // No terminal here, so the dashboard cannot start; but it was the file it tried to open.
    #expect(r.status != 64)
    #expect(!r.stderr.contains("no such command"))
  }

  @Test func anUnknownOptionIsOneLineAndAUsageHintInEveryExecutable() throws {
    let r = try run(["show", "--frobnicate", "x.json"])
    #expect(r.status == 64)
    #expect(r.errorLines.first == "subdash: unknown option '--frobnicate'")
    #expect(r.errorLines.count == 2)
    #expect(r.errorLines[1].hasPrefix("usage: subdash show "))
    #expect(r.errorLines[1].hasSuffix("(subdash show --help)"))
    // Each as `subdash X` runs it, the required options given (ArgumentParser names a missing
    // one before an unknown one).
    let invocations: [(String, [String])] = [
      ("subdash-list", ["print", "/tmp", "--frobnicate"]), ("subdash-listen", ["--port", "0", "--frobnicate", "/tmp/none"]),
      ("subdash-fetch", ["-o", "/tmp/none.json", "--frobnicate", "1"]), ("subdash-db", ["export", "--frobnicate", "/tmp/none"]),
      ("subdash-deliver", ["--to", "http://127.0.0.1:9/", "--frobnicate", "/tmp/none.json"]),
    ]
    for (binary, args) in invocations {
      let r = try run(args, binary: binary)
      #expect(r.status == 64, "\(binary)")
      #expect(r.errorLines.first == "subdash: unknown option '--frobnicate'", "\(binary): \(r.stderr)")
      #expect(r.errorLines.count == 2, "\(binary): \(r.stderr)")
      #expect(r.errorLines.last?.hasPrefix("usage: subdash") == true, "\(binary): \(r.stderr)")
      #expect(!r.stderr.contains("Error:"), "\(binary)")
    }
    // serve runs subdash-listen: its mistakes name serve's usage.
    let serve = try run(["serve", "--port", "0", "--frobnicate", "/tmp/none"])
    #expect(serve.errorLines.first?.hasPrefix("subdash: ") == true)
    #expect(serve.errorLines.count == 2)
    #expect(serve.errorLines.last?.hasSuffix("(subdash serve --help)") == true)
  }

  @Test func aMistypedSubcommandOfDbIsSuggested() throws {
    let r = try run(["db", "improt"])
    #expect(r.status == 64)
    #expect(r.errorLines.first?.hasSuffix("did you mean import?") == true, "\(r.stderr)")
  }

  @Test func sortMinusDueWorksAsWrittenWithAndWithoutTheIndex() throws {
    let dir = try listDirectory()
    defer { try? FileManager.default.removeItem(at: dir) }
    var outputs: [String] = []
    for args in [["--sort", "-due"], ["--sort=-due"], ["--sort", "-due", "--no-index"], ["--sort=-due", "--no-index"]] {
      let r = try run(["list", dir.path, "--format", "tsv"] + args)
      #expect(r.status == 0, "\(args): \(r.stderr)")
      outputs.append(r.stdout)
    }
    #expect(Set(outputs).count == 1)
    let files = outputs[0].split(separator: "\n").dropFirst().map { $0.split(separator: "\t", omittingEmptySubsequences: false)[1] }
    // Latest due first; the expired row (nothing due) sorts as "never", first when reversed.
    #expect(files == ["expired-voluntary.json", "billing-retry.json", "grace-copy.json", "grace-period.json", "active.json", "pending-downgrade.json"])
  }

  @Test func aBadSortKeyIsOneLineNamingTheChoices() throws {
    let dir = try listDirectory()
    defer { try? FileManager.default.removeItem(at: dir) }
    for extra in [[], ["--no-index"]] {
      let r = try run(["list", dir.path, "--sort", "bogus"] + extra)
      #expect(r.status == 64)
      #expect(r.errorLines.first == "subdash: --sort bogus: no such column; choose id, status, product, due, flags, event, token (- in front reverses: -due)")
      #expect(!r.stderr.contains("subdash-list"))
      #expect(!r.stderr.contains("Error:"))
    }
  }

  @Test func listPrintsAHeaderRowAndTabSeparatedFields() throws {
    let dir = try listDirectory()
    defer { try? FileManager.default.removeItem(at: dir) }
    let tsv = try run(["list", dir.path, "--format", "tsv"])
    let lines = tsv.stdout.split(separator: "\n", omittingEmptySubsequences: false).dropLast()
    #expect(lines.first == "originalTransactionId\tfile\tstatus\tstatusName\tproductId\tproductName\tdue\tdueDate\tflags\tlastEvent\tlastEventDate\tappAccountToken\terror")
    #expect(lines.count == 7)
    for line in lines { #expect(line.split(separator: "\t", omittingEmptySubsequences: false).count == 13) }
    #expect(lines.contains { $0.hasPrefix("2000000777260918\tbilling-retry.json\t3\tbilling retry\t") && $0.contains("\tretry-ends\t2026-06-24T16:30:00Z\t") })
    let text = try run(["list", dir.path])
    let textLines = text.stdout.split(separator: "\n")
    #expect(textLines[1].hasPrefix("originalTransactionId "))
    #expect(textLines[1].contains("renews/expires in"))
    // Two files of one subscriber: each row says which file it is.
    #expect(textLines.contains { $0.hasPrefix("2000000820915733 grace-copy.json ") })
    #expect(textLines.contains { $0.hasPrefix("2000000820915733 grace-period.json ") })
    #expect(textLines.contains { $0.contains("retry ends in") })
  }

  @Test func listJSONNamesStatusesAsShowJSONDoes() throws {
    let dir = try listDirectory()
    defer { try? FileManager.default.removeItem(at: dir) }
    let list = try run(["list", dir.path, "--json"])
    let doc = try #require(try JSONSerialization.jsonObject(with: Data(list.stdout.utf8)) as? [String: Any])
    let rows = try #require(doc["subscribers"] as? [[String: Any]])
    #expect(rows.count == 6)
    for row in rows {
      let file = try #require(row["file"] as? String)
      let show = try run(["show", "--json", dir.appendingPathComponent(file).path])
      let shown = try #require(try JSONSerialization.jsonObject(with: Data(show.stdout.utf8)) as? [String: Any])
      #expect((row["status"] as? Int) == (shown["status"] as? Int), "\(file)")
      #expect((row["statusName"] as? String) == (shown["statusName"] as? String), "\(file)")
    }
    let counts = try #require(doc["counts"] as? [String: Int])
    #expect(counts["billing grace period"] == 2)
    #expect(counts["billing retry"] == 1)
  }

  @Test func suggestionsAreTyposNotGuesses() {
    let names = ["open", "show", "list", "simulate", "extend", "import", "fetch", "verify", "listen", "serve", "deliver", "ca", "db"]
    #expect(CommandLineStyle.suggestion(for: "shwo", among: names) == "show")
    #expect(CommandLineStyle.suggestion(for: "lsit", among: names) == "list")
    #expect(CommandLineStyle.suggestion(for: "simualte", among: names) == "simulate")
    #expect(CommandLineStyle.suggestion(for: "serv", among: names) == "serve")
    #expect(CommandLineStyle.suggestion(for: "nosuchcmd", among: names) == nil)
    #expect(CommandLineStyle.suggestion(for: "xyz", among: names) == nil)
  }
}
