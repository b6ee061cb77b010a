import Foundation
import Testing

/// A support person runs `verify`, `show` or `import` on a file a stranger made: Apple's real
/// certificate chain copied into the header, a `signedDate` no certificate library can represent,
/// and 64 zero bytes for a signature. Each command answers with one line and exit 2 (it used to
/// print a 70-line backtrace from inside swift-certificates).
@Suite struct UnrepresentableSignedDateCommandTests {
  static let dates = ["260000000000000", "2.6e14", "9300000000000000000", "-62200000000000"]
  let dir: URL

  init() throws {
    dir = FileManager.default.temporaryDirectory.appendingPathComponent("signed-date-\(UUID().uuidString)")
    try FileManager.default.createDirectory(at: dir, withIntermediateDirectories: true)
  }

  /// The header of a real Apple-signed notification (Tests/AppStoreSigningTests/Fixtures/real-apple).
  func forged(signedDate: String) throws -> String {
    let real = try String(contentsOf: DemoStateTests.repoRoot.appendingPathComponent(
      "Tests/AppStoreSigningTests/Fixtures/real-apple/py_sandbox_test_notification.jws"), encoding: .utf8)
    let header = real.split(separator: ".")[0]
    func b64url(_ data: Data) -> String {
      data.base64EncodedString().replacingOccurrences(of: "+", with: "-").replacingOccurrences(of: "/", with: "_")
        .replacingOccurrences(of: "=", with: "")
    }
    let payload = #"{"notificationType":"TEST","notificationUUID":"x","version":"2.0","data":{"bundleId":"com.example","environment":"Sandbox"},"signedDate":\#(signedDate)}"#
    let path = dir.appendingPathComponent("forged.jws").path
    try (header + "." + b64url(Data(payload.utf8)) + "." + b64url(Data(count: 64)) + "\n").write(toFile: path, atomically: true, encoding: .utf8)
    return path
  }

  func run(_ args: [String]) throws -> (status: Int32, lines: [String]) {
    let r = try CommandLineTests.run(args)
    return (r.status, (r.stdout + r.stderr).split(separator: "\n").map(String.init))
  }

  @Test(arguments: dates)
  func verifyShowAndImportSayWhyInOneLine(date: String) throws {
    let path = try forged(signedDate: date)
    let output = dir.appendingPathComponent("state.json").path
    for args in [["verify", path], ["show", path], ["import", path, "-o", output]] {
      let r = try run(args)
      #expect(r.status == 2, "\(args[0]): exit \(r.status)")
      #expect(r.lines.count == 1, "\(args[0]): \(r.lines.prefix(3))")
      #expect(r.lines.first?.contains("payload signedDate ") == true, "\(args[0]): \(r.lines.first ?? "")")
      #expect(r.lines.first?.contains("is not a date from 1900-01-01 to 3000-01-01") == true)
    }
    #expect(!FileManager.default.fileExists(atPath: output), "import wrote nothing")
  }
}
