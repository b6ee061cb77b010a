import Foundation
import Testing

/// One bad file, one set of words: `show` says what the list says of the same file (an
/// executable copied by mistake, an empty file), names the file as it was typed (not shortened
/// to its last component), and a wrong `--events` value is one line about that value.
@Suite struct BadFileWordsTests {
  typealias Run = CommandLineTests.Run

  /// A directory "tickets" under a scratch directory, with an ELF executable and an empty file
  /// named like state files.
  func ticketsWithBadFiles() throws -> URL {
    let root = FileManager.default.temporaryDirectory.appendingPathComponent("subdash-badwords-\(UUID().uuidString)")
    let tickets = root.appendingPathComponent("tickets")
    try FileManager.default.createDirectory(at: tickets, withIntermediateDirectories: true)
    try FileManager.default.copyItem(atPath: "/bin/true", toPath: tickets.appendingPathComponent("program.json").path)
    try Data().write(to: tickets.appendingPathComponent("empty.json"))
    try Data("{\n  \"format\": 1,\n  \"subscriber\": {,\n}\n".utf8).write(to: tickets.appendingPathComponent("broken.json"))
    return root
  }

  /// The list's error column (TSV) for each file, keyed by file name.
  func listErrors(_ root: URL) throws -> [String: String] {
    let r = try CommandLineTests.run(["list", "--no-index", "--format", "tsv", "tickets"], in: root)
    #expect(r.status == 0, "\(r.stderr)")
    var errors: [String: String] = [:]
    for line in r.stdout.split(separator: "\n").dropFirst() {
      let fields = line.split(separator: "\t", omittingEmptySubsequences: false)
      if let name = fields.dropFirst().first, let error = fields.last { errors[String(name)] = String(error) }
    }
    return errors
  }

  @Test(arguments: ["program.json", "empty.json", "broken.json"])
  func showSaysWhatTheListSaysNamingTheFileAsTyped(_ name: String) throws {
    let root = try ticketsWithBadFiles()
    defer { try? FileManager.default.removeItem(at: root) }
    let listed = try #require(try listErrors(root)[name])
    #expect(listed.hasPrefix(name + ":1:") || listed.hasPrefix(name + ":3:"), "\(listed)")

    for typed in ["tickets/\(name)", "./tickets/\(name)", "../\(root.lastPathComponent)/tickets/\(name)"] {
      let shown = try CommandLineTests.run(["show", typed], in: root)
      #expect(shown.status == 2)
      // The list names the file in its directory; show names it as it was typed.
      #expect(shown.stderr == "subdash: \(typed)\(listed.dropFirst(name.count))\n", "show \(typed)")
    }
  }

  @Test func aNegativeEventCountIsOneLineAboutTheValue() throws {
    let file = DemoStateTests.repoRoot.appendingPathComponent("Examples/active.json").path
    for arguments in [["show", "--events", "-1", file], ["show", "--events=-1", file], ["show", file, "--events", "-1"]] {
      let r = try CommandLineTests.run(arguments)
      #expect(r.status == 64, "\(arguments)")
      #expect(r.stdout.isEmpty)
      #expect(r.errorLines.first == "subdash: --events -1: a count of recent notifications is 0 or more", "\(arguments)")
      #expect(r.errorLines.dropFirst().allSatisfy { $0.hasPrefix("usage: subdash show") })
    }
  }
}
