import AppStoreSigning
import DashModel
import CoreValues
import Foundation
import HTTPTypes
import Hummingbird
import Logging
import NIOCore
import NotificationReceiver

/// A developer's backend on loopback for the tests: SubDash's own receiver (verify against the
/// test CA's root, apply to a directory of state files, 200 only once durable), behind a switch
/// that can answer failures first, so retries are exercised against real HTTP.
final class Backend: @unchecked Sendable {
  let directory: String
  private let receiver: NotificationReceiver
  private let lock = NSLock()
  private var failures: [Int]
  private var arrivals: [(uuid: String, status: Int, body: [UInt8])] = []

  /// `failFirst`: statuses for the first requests, whatever they carry.
  init(ca: LocalCertificateAuthority, failFirst: [Int] = [], bundleId: String? = nil) throws {
    directory = FileManager.default.temporaryDirectory.appendingPathComponent("subdash-backend-\(UUID().uuidString)").path
    try FileManager.default.createDirectory(atPath: directory, withIntermediateDirectories: true)
    let root = try TrustedRoot(fileContents: ca.rootDER, source: "test CA")
    receiver = NotificationReceiver(verifier: try JWSVerifier(extraRoots: [root], trustApple: false), sink: DirectorySink(directory: directory), bundleId: bundleId)
    failures = failFirst
  }

  deinit { try? FileManager.default.removeItem(atPath: directory) }

  /// Every request, in arrival order: the notificationUUID it carried (read from the payload
  /// without verifying: the receiver verifies), and what was answered.
  var received: [(uuid: String, status: Int, body: [UInt8])] { lock.withLock { arrivals } }
  var uuidsAccepted: [String] { received.filter { $0.status == 200 }.map(\.uuid) }

  /// The status, and the receiver's one-line reason as `listen` answers it (scripted failures: none).
  func handle(_ body: [UInt8], contentType: String?) async -> (status: Int, message: String?) {
    let scripted: Int? = lock.withLock { failures.isEmpty ? nil : failures.removeFirst() }
    let answer: (Int, String?)
    if let scripted {
      answer = (scripted, nil)
    } else {
      let outcome = await receiver.receive(body: body, contentType: contentType)
      answer = (outcome.status, outcome.status == 200 ? nil : outcome.message)
    }
    lock.withLock { arrivals.append((Self.peekUUID(body) ?? "?", answer.0, body)) }
    return answer
  }

  /// Runs the server for the duration of `body`, which gets its URL.
  func serve<T: Sendable>(_ body: @escaping @Sendable (String) async throws -> T) async throws -> T {
    let router = Router()
    router.post("/apple/notifications") { request, _ -> Response in
      let bytes = try await request.body.collect(upTo: 1 << 20)
      let (status, message) = await self.handle(Array(buffer: bytes), contentType: request.headers[.contentType])
      return Response(status: .init(code: status), body: .init(byteBuffer: ByteBuffer(string: message.map { $0 + "\n" } ?? "")))
    }
    let (urls, continuation) = AsyncStream.makeStream(of: String.self)
    var logger = Logger(label: "test-backend")
    logger.logLevel = .critical  // a cancelled server logs its shutdown as errors
    let app = Application(router: router, configuration: .init(address: .hostname("127.0.0.1", port: 0)),
                          onServerRunning: { channel in continuation.yield("http://127.0.0.1:\(channel.localAddress?.port ?? 0)/apple/notifications") },
                          logger: logger)
    return try await withThrowingTaskGroup(of: T?.self) { group in
      group.addTask { try await app.runService(); return nil }
      var iterator = urls.makeAsyncIterator()
      guard let url = await iterator.next() else { throw CancellationError() }
      let result = try await body(url)
      group.cancelAll()
      return result
    }
  }

  static func peekUUID(_ body: [UInt8]) -> String? {
    guard let outer = try? JSONSerialization.jsonObject(with: Data(body)) as? [String: Any],
          let jws = outer["signedPayload"] as? String else { return nil }
    let parts = jws.split(separator: ".")
    guard parts.count == 3 else { return nil }
    var b64 = parts[1].replacingOccurrences(of: "-", with: "+").replacingOccurrences(of: "_", with: "/")
    while b64.count % 4 != 0 { b64 += "=" }
    guard let data = Data(base64Encoded: b64), let payload = try? JSONSerialization.jsonObject(with: data) as? [String: Any] else { return nil }
    return payload["notificationUUID"] as? String
  }
}
