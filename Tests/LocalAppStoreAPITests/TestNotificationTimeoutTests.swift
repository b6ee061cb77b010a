import Crypto
import DashModel
import CoreValues
import Foundation
import NotificationDelivery
import Testing
@testable import LocalAppStoreAPI
#if canImport(Glibc)
import Glibc
#endif

/// Request a Test Notification waits for the backend's answer before it answers itself. The wait
/// was a fixed 5 s; it is `Settings.notifyTimeoutMs` (`serve --notify-timeout`), so a developer
/// whose backend is slow on purpose, and this test, choose it.
@Suite struct TestNotificationTimeoutTests {
  /// The real HTTP sender, with the limit it was given written down.
  final class RecordingSender: NotificationSending, @unchecked Sendable {
    let real = HTTPNotificationSender()
    private let lock = NSLock()
    private var limits: [Double] = []
    var timeouts: [Double] { lock.withLock { limits } }
    func send(_ body: [UInt8], to url: String, timeout: Double) async -> SendOutcome {
      lock.withLock { limits.append(timeout) }
      return await real.send(body, to: url, timeout: timeout)
    }
  }

  /// A loopback port whose connections complete (the kernel's backlog) but are never read or
  /// answered: a backend that hangs.
  static func silentListener() throws -> (fd: Int32, port: Int) {
    let fd = socket(AF_INET, Int32(SOCK_STREAM.rawValue), 0)
    guard fd >= 0 else { throw POSIXError(.EIO) }
    var addr = sockaddr_in()
    addr.sin_family = sa_family_t(AF_INET)
    addr.sin_addr.s_addr = inet_addr("127.0.0.1")
    addr.sin_port = 0
    var len = socklen_t(MemoryLayout<sockaddr_in>.size)
    let bound = withUnsafePointer(to: &addr) { $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { bind(fd, $0, len) } }
    guard bound == 0, listen(fd, 8) == 0 else { close(fd); throw POSIXError(.EADDRINUSE) }
    _ = withUnsafeMutablePointer(to: &addr) { $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { getsockname(fd, $0, &len) } }
    return (fd, Int(UInt16(bigEndian: addr.sin_port)))
  }

  @Test func aBackendThatNeverAnswersIsTimedOutAtTheSetLimitAndTheRequestIsAnswered() async throws {
    let s = try ServeFixture()
    defer { s.remove() }
    let (fd, port) = try Self.silentListener()
    defer { close(fd) }
    let sender = RecordingSender()
    let check = BearerCheck(publicKey: s.key.publicKey, keyID: "KEY1", issuerID: "issuer-1", bundleID: s.bundleID)
    let api = LocalAppStoreAPI(directory: s.directory,
                               settings: .init(check: check, notifyURL: "http://127.0.0.1:\(port)/", notifyTimeoutMs: 300),
                               authority: ServeFixture.ca, sender: sender, wallClock: { s.now })
    let asked = await api.respond(.init(method: "POST", path: "/inApps/v1/notifications/test", authorization: s.token(), body: []))
    await sender.real.shutdown()
    #expect(asked.status == 200)
    #expect(sender.timeouts == [0.3], "the TEST waited \(sender.timeouts) s, not the 0.3 s it was set to")
    let token = try #require(ServeFixture.object(asked)["testNotificationToken"] as? String)
    let status = await api.respond(.init(method: "GET", path: "/inApps/v1/notifications/test/\(token)", authorization: s.token(), body: []))
    #expect(ServeFixture.object(status)["firstSendAttemptResult"] as? String == "TIMED_OUT")
  }

  @Test func theDefaultIsApplesFewSeconds() {
    let s = LocalAppStoreAPI.Settings(check: BearerCheck(publicKey: P256.Signing.PrivateKey().publicKey, keyID: "K", issuerID: "I", bundleID: "B"))
    #expect(s.notifyTimeoutMs == 5_000)
  }
}
