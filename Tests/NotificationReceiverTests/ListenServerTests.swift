import AppStoreSigning
import DashModel
import Foundation
#if canImport(FoundationNetworking)
import FoundationNetworking
#endif
import Testing

/// The real `subdash-listen` binary on a loopback port, as a developer runs it: it prints where it
/// listens, takes a notification over HTTP, refuses what is not one, and keeps serving.
@Suite(.serialized, .timeLimit(.minutes(1))) struct ListenServerTests {
  static var binary: URL {
    let dir = Bundle.main.executableURL?.deletingLastPathComponent() ?? URL(fileURLWithPath: CommandLine.arguments[0]).deletingLastPathComponent()
    return dir.appendingPathComponent("subdash-listen")
  }

  @Test func theServerAppliesANotificationAndRefusesWhatIsNotOne() async throws {
    let dir = FileManager.default.temporaryDirectory.appendingPathComponent("subdash-listen-live-\(UUID().uuidString)")
    try FileManager.default.createDirectory(at: dir, withIntermediateDirectories: true)
    defer { try? FileManager.default.removeItem(at: dir) }
    let root = dir.appendingPathComponent("root.der")
    try Data(LocalAppStore.ca.rootDER).write(to: root)
    let subscribers = dir.appendingPathComponent("subscribers")

    let process = Process()
    process.executableURL = Self.binary
    process.arguments = ["--port", "0", "--root", root.path, "--bundle-id", "com.example.subdash", subscribers.path]
    let out = Pipe(), err = Pipe()
    process.standardOutput = out
    process.standardError = err
    try process.run()
    defer { process.terminate(); process.waitUntilExit() }
    // "listening on http://127.0.0.1:PORT → DIR"
    var line = Data()
    while let byte = try out.fileHandleForReading.read(upToCount: 1), !byte.isEmpty, byte != Data([0x0A]) { line += byte }
    let text = String(decoding: line, as: UTF8.self)
    let base = try #require(text.split(separator: " ").first { $0.hasPrefix("http://127.0.0.1:") }).description

    func send(_ method: String, _ body: [UInt8], contentType: String? = "application/json", path: String = "/appstore/notifications") async throws -> (Int, String) {
      var request = URLRequest(url: URL(string: base + path)!)
      request.httpMethod = method
      if method != "GET" { request.httpBody = Data(body) }
      if let contentType { request.setValue(contentType, forHTTPHeaderField: "Content-Type") }
      let (data, response) = try await URLSession.shared.data(for: request)
      return ((response as? HTTPURLResponse)?.statusCode ?? 0, String(decoding: data, as: UTF8.self))
    }

    let (ok, okText) = try await send("POST", try LocalAppStore.body("SUBSCRIBED", subtype: "INITIAL_BUY"))
    #expect(ok == 200, "\(okText)")
    #expect(okText.contains("created 2000000100.json"))
    #expect(try await send("GET", []).0 == 405)
    #expect(try await send("POST", Array("{}".utf8)).0 == 400)
    #expect(try await send("POST", try LocalAppStore.body(), contentType: "text/plain").0 == 415)
    #expect(try await send("POST", Array(repeating: 0x20, count: 300_000)).0 == 413)
    // The bare root path too: App Store Connect takes any URL.
    #expect(try await send("POST", try LocalAppStore.body("DID_RENEW", period: 2), path: "/").0 == 200)
    #expect(try await send("GET", [], path: "/").0 == 405)
    let state = try StateFile.load(path: subscribers.appendingPathComponent("2000000100.json").path)
    #expect(state.subscriber.latestTransaction?.transactionId == "20000001002")
    #expect(try FileManager.default.contentsOfDirectory(atPath: subscribers.path).filter { $0.hasSuffix(".json") } == ["2000000100.json"])
  }
}
