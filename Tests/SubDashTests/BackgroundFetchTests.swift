import DashModel
import DashView
import Foundation
import Testing
@testable import DashRuntime
@testable import SubDash
import CoreValues

/// The refresh key's child process: the same customer, environment and server as the first fetch,
/// never a credential on the command line; its outcome becomes the status line.
@Suite struct BackgroundFetchTests {
  @Test func refetchesTheRecordedOriginWithoutCredentials() {
    let origin = FetchOrigin(transactionId: "2000000500", orderId: "MK5TTTVWJH", environment: "Sandbox",
                             baseURL: "http://127.0.0.1:8080", roots: ["/t/root.pem"], fetchedDate: Instant(ms: 0))
    #expect(BackgroundFetch.arguments(for: origin, statePath: "/t/state.json") == [
      "2000000500", "-o", "/t/state.json", "--environment", "sandbox", "--quiet", "--refresh", "--base-url", "http://127.0.0.1:8080",
      "--root", "/t/root.pem",
    ])
  }

  @Test func aChildThatFailsReportsItsLastLine() throws {
    let dir = FileManager.default.temporaryDirectory.appendingPathComponent("subdash-bgfetch-\(UUID().uuidString)")
    try FileManager.default.createDirectory(at: dir, withIntermediateDirectories: true)
    defer { try? FileManager.default.removeItem(at: dir) }
    // A stand-in for subdash-fetch that fails the way it does: one line on stderr, exit 2.
    let script = dir.appendingPathComponent("fake-fetch").path
    try ExecutableFixture.script(
      "#!/bin/sh\necho 'retrying…' >&2\necho 'subdash: credentials: missing --key-id; state.json was not written' >&2\nexit 2\n", at: script)
    let fetch = BackgroundFetch(statePath: dir.appendingPathComponent("state.json").path, binary: script)
    let origin = FetchOrigin(transactionId: "1", environment: "Production", fetchedDate: Instant(ms: 0))
    #expect(fetch.start(origin) == nil)
    #expect(fetch.start(origin) == .actionFailed("refresh: a fetch is already running"))
    var outcome: UIAction?
    #expect(eventually(within: .seconds(10), every: .milliseconds(10)) { outcome = fetch.poll(); return outcome != nil })
    #expect(outcome == .actionFailed("credentials: missing --key-id; state.json was not written"))
    #expect(!fetch.isRunning)
  }

  @Test func aMissingBinarySaysSo() {
    let fetch = BackgroundFetch(statePath: "/tmp/x.json", binary: "/nonexistent/subdash-fetch")
    let origin = FetchOrigin(transactionId: "1", environment: "Production", fetchedDate: Instant(ms: 0))
    #expect(fetch.start(origin) == .actionFailed("refresh: cannot run /nonexistent/subdash-fetch: No such file or directory"))
  }
}
