import Foundation
import Testing

/// Issue 22 §6, "one error style": every command and helper executable reports an error as one
/// line with the one prefix `subdash: ` (what CommandLineStyle prints for a flag error), and a
/// command-line mistake adds the usage hint on the line after. Before, runtime errors said
/// `subdash db:`, `subdash fetch:`, `subdash serve:`, `subdash: token:`, `subdash deliver:` (after a
/// "delivering …" banner), nothing at all (`verify` put a missing file on stdout as a verdict), or
/// took four retry lines to say a URL had no scheme.
@Suite struct ErrorStyleTests {
  /// A case: what to run, and whether it is a command-line mistake (two lines: error, usage).
  struct Case: CustomStringConvertible, Sendable {
    var binary = "subdash"
    var args: [String]
    var usage = false
    var description: String { ([binary] + args).joined(separator: " ") }
  }

  static let key = ["--key-id", "K", "--issuer-id", "I", "--bundle-id", "com.example"]

  static let cases: [Case] = [
    // Files that are not there.
    Case(args: ["show", "missing.json"]),
    Case(args: ["missing.json"]),
    Case(args: ["list", "missing-dir"]),
    Case(args: ["verify", "missing.jws"]),
    Case(args: ["verify", "--root", "missing.pem", "missing.jws"]),
    Case(args: ["import", "missing.json", "-o", "out.json"]),
    Case(args: ["simulate", "missing.json"]),
    Case(args: ["simulate", "--scenario", "missing.scenario", "out.json"]),
    Case(args: ["extend", "missing.json", "--days", "3"]),
    Case(args: ["token", "--key", "missing.p8"] + key),
    Case(args: ["serve", "--port", "0", "--key", "missing.p8"] + key + ["empty"]),
    Case(args: ["listen", "--port", "0", "--root", "missing.pem", "empty"]),
    Case(args: ["fetch", "1000", "-o", "out.json", "--key-file", "missing.p8"] + key),
    Case(args: ["deliver", "--to", "http://127.0.0.1:9/hook", "missing.json"]),
    Case(args: ["ca", "show", "missing-dir"]),
    Case(args: ["ca", "sign", "missing.json"]),
    // A database nobody listens for (loopback port 1 refuses at once).
    Case(args: ["db", "export", "--db", "postgres://u@127.0.0.1:1/x", "empty"]),
    Case(args: ["list", "--db", "postgres://u@127.0.0.1:1/x"]),
    // The helper executables run directly, as `subdash X` runs them.
    Case(binary: "subdash-fetch", args: ["1000", "-o", "out.json", "--key-file", "missing.p8"] + key),
    Case(binary: "subdash-deliver", args: ["--to", "http://127.0.0.1:9/hook", "missing.json"]),
    Case(binary: "subdash-listen", args: ["--port", "0", "--root", "missing.pem", "empty"]),
    Case(binary: "subdash-db", args: ["export", "--db", "postgres://u@127.0.0.1:1/x", "empty"]),
    Case(binary: "subdash-retention", args: ["missing.json"]),
    Case(binary: "subdash-list", args: ["print", "missing-dir"]),
    // Bad URLs and option values: the error, then the usage hint.
    Case(args: ["fetch", "1000", "-o", "out.json", "--base-url", "notaurl", "--key-file", "k.p8"] + key, usage: true),
    Case(args: ["deliver", "--to", "notaurl", "missing.json"], usage: true),
    Case(args: ["show", "--now", "bogus", "missing.json"], usage: true),
    Case(args: ["list", "--sort", "bogus", "empty"], usage: true),
    Case(args: ["extend", "missing.json", "--days", "many"], usage: true),
    Case(args: ["listen", "--port", "99999", "empty"], usage: true),
    Case(args: ["shwo", "missing.json"], usage: true),
  ]

  @Test(arguments: cases)
  func everyErrorIsOneLineWithTheOnePrefix(_ c: Case) throws {
    let dir = FileManager.default.temporaryDirectory.appendingPathComponent("subdash-errstyle-\(UUID().uuidString)")
    try FileManager.default.createDirectory(at: dir.appendingPathComponent("empty"), withIntermediateDirectories: true)
    defer { try? FileManager.default.removeItem(at: dir) }
    // A key that can be read, for the cases about something else (a bad URL).
    FileManager.default.createFile(atPath: dir.appendingPathComponent("k.p8").path, contents: Data("not a key".utf8), attributes: [.posixPermissions: 0o600])
    let r = try CommandLineTests.run(c.args, binary: c.binary, in: dir, environment: ["PATH": "/usr/bin:/bin", "HOME": dir.path], limit: 60)
    #expect(r.status != 0, "\(c): exit 0")
    let lines = r.stderr.split(separator: "\n", omittingEmptySubsequences: false).dropLast()
    #expect(lines.count == (c.usage ? 2 : 1), "\(c): \(r.stderr)")
    #expect(lines.first?.hasPrefix("subdash: ") == true, "\(c): \(r.stderr)")
    // Not a second prefix after the first ("subdash: token: …", "subdash: subdash db: …").
    let rest = lines.first.map { $0.dropFirst("subdash: ".count) } ?? ""
    #expect(!(rest.hasPrefix("subdash") || rest.hasPrefix("token:") || rest.hasPrefix("db:") || rest.hasPrefix("Error")), "\(c): \(r.stderr)")
    if c.usage { #expect(lines.last?.hasPrefix("usage: ") == true, "\(c): \(r.stderr)") }
  }
}
