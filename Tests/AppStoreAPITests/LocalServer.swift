import AppStoreAPI
import AppStoreSigning
import Crypto
import DashModel
import CoreValues
import Foundation
import HTTPTypes
import Hummingbird
import HummingbirdTLS
import LocalAppStoreAPI
import Logging
import NIOSSL
@testable import subdash_listen

/// A test's view of the world: a team key made here, and a client pointed at `subdash serve`
/// (LocalAppStoreAPI behind serve's own request handling, APIExchange) on 127.0.0.1, which knows
/// the key's public half and answers for the subscribers copied into its directory from Examples.
struct Team {
  let key = P256.Signing.PrivateKey()
  let keyID = "TESTKEY123"
  let issuerID = "57246542-96fe-1a63-e053-0824d011072a"
  /// The Examples' app.
  let bundleID = "com.example.birdwatch"

  var credentials: Credentials { Credentials(privateKey: key, keyID: keyID, issuerID: issuerID, bundleID: bundleID) }
  var check: BearerCheck { BearerCheck(publicKey: key.publicKey, keyID: keyID, issuerID: issuerID, bundleID: bundleID) }
}

/// Examples' subscribers as the server holds them.
enum Customer {
  /// Examples/active.json: Sandbox, 5 transactions, 5 notifications.
  static let active = "2000000871234560"
  /// Examples/refunded.json: Production, 1 transaction, refunded.
  static let refunded = "510001873462915"
}

/// The server's wall clock: the machine's, or a moment a test sets and moves.
final class ServerClock: @unchecked Sendable {
  private let lock = NSLock()
  private var fixed: Date?
  init(_ fixed: Date? = nil) { self.fixed = fixed }
  var now: Date { lock.withLock { fixed ?? Date() } }
  func advance(_ seconds: TimeInterval) { lock.withLock { fixed = fixed?.addingTimeInterval(seconds) } }
}

/// `subdash serve` in-process over a private directory of state files.
final class LocalServer: Sendable {
  let directory: String
  let api: LocalAppStoreAPI
  let clock: ServerClock
  /// "METHOD /path?query" of every request, in order.
  let requests = Lines()
  /// serve's log lines ("api: 401 GET …: bearer token refused: wrong iss").
  let log = Lines()

  /// `subscribers` are Examples' file names (without .json), stored as `<originalTransactionId>.json`.
  init(_ team: Team, subscribers: [String] = ["active", "refunded"], pageSize: Int = 20, rateLimit: Int? = nil,
       authority: LocalCertificateAuthority? = nil, clock: ServerClock = ServerClock(),
       edit: (_ name: String, _ document: inout [String: Any]) -> Void = { _, _ in }) throws {
    directory = FileManager.default.temporaryDirectory.appendingPathComponent("subdash-fetch-serve-\(UUID().uuidString)").path
    try FileManager.default.createDirectory(atPath: directory, withIntermediateDirectories: true, attributes: [.posixPermissions: 0o700])
    for name in subscribers {
      let data = try Data(contentsOf: URL(fileURLWithPath: Self.examples + "/\(name).json"))
      var document = try JSONSerialization.jsonObject(with: data) as! [String: Any]
      edit(name, &document)
      let latest = (document["subscriber"] as? [String: Any])?["latestTransaction"] as? [String: Any]
      let id = latest?["originalTransactionId"] as? String ?? name
      try JSONSerialization.data(withJSONObject: document).write(to: URL(fileURLWithPath: directory + "/\(id).json"))
    }
    self.clock = clock
    let settings = LocalAppStoreAPI.Settings(check: team.check, pageSize: pageSize, rateLimit: rateLimit)
    api = LocalAppStoreAPI(directory: directory, settings: settings, authority: try authority ?? LocalCertificateAuthority.create(), sender: nil,
                           wallClock: { [clock] in clock.now })
  }

  deinit { try? FileManager.default.removeItem(atPath: directory) }

  /// A Sandbox example as a Production customer: Production's 180-day notification window holds
  /// its whole history, where Sandbox's 30 days hold the last month's.
  static func asProduction(_ document: inout [String: Any]) {
    guard let data = try? JSONSerialization.data(withJSONObject: document),
          let moved = try? JSONSerialization.jsonObject(with: Data(String(decoding: data, as: UTF8.self)
            .replacingOccurrences(of: #""Sandbox""#, with: #""Production""#).utf8)) as? [String: Any] else { return }
    document = moved
  }

  static let examples = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
    .deletingLastPathComponent().appendingPathComponent("Examples").path

  /// Runs `body` with the server listening (HTTPS with `tls`); stops it afterwards whatever happens.
  func run<T: Sendable>(tls: TLSConfiguration? = nil, _ body: @escaping @Sendable (String) async throws -> T) async throws -> T {
    let router = Router()
    for method in [HTTPRequest.Method.get, .post, .put] {
      router.on("**", method: method) { [self] request, context in await handle(request, context) }
    }
    var logger = Logger(label: "subdash-serve-test")
    logger.logLevel = .critical
    let scheme = tls == nil ? "http" : "https"
    let (urls, continuation) = AsyncStream.makeStream(of: String.self)
    let app = Application(router: router, server: try tls.map { try .tls(.http1(), tlsConfiguration: $0) } ?? .http1(),
                          configuration: .init(address: .hostname("127.0.0.1", port: 0)),
                          onServerRunning: { continuation.yield("\(scheme)://127.0.0.1:\($0.localAddress?.port ?? 0)") },
                          logger: logger)
    return try await withThrowingTaskGroup(of: T?.self) { group in
      group.addTask {
        try await app.run()
        return nil
      }
      var iterator = urls.makeAsyncIterator()
      guard let url = await iterator.next() else { throw CancellationError() }
      defer { group.cancelAll() }
      return try await body(url)
    }
  }

  private func handle(_ request: Request, _ context: BasicRequestContext) async -> Response {
    requests.add("\(request.method) \(request.uri)")
    return await APIExchange.answer(api, request, log: { [log] in log.add($0) })
  }
}

/// Waits recorded instead of slept, so retry tests take milliseconds and can assert the delays.
final class RecordedSleeps: @unchecked Sendable {
  private let lock = NSLock()
  private var delays: [TimeInterval] = []
  var all: [TimeInterval] { lock.lock(); defer { lock.unlock() }; return delays }
  private func record(_ t: TimeInterval) { lock.withLock { delays.append(t) } }
  /// `then` runs after each recorded wait (a test moving the server's clock by it).
  func clock(now: @escaping @Sendable () -> Date = { Date() }, then: @escaping @Sendable (TimeInterval) -> Void = { _ in }) -> AppStoreClient.Clock {
    AppStoreClient.Clock(now: now, sleep: { [self] t in record(t); then(t) })
  }
}

final class Lines: @unchecked Sendable {
  private let lock = NSLock()
  private var lines: [String] = []
  var all: [String] { lock.lock(); defer { lock.unlock() }; return lines }
  func add(_ line: String) { lock.lock(); lines.append(line); lock.unlock() }
}

/// A client for `url` with test-friendly timeouts, always shut down.
func withClient<T: Sendable>(_ team: Team, _ url: String, credentials: Credentials? = nil, clock: AppStoreClient.Clock,
                             retry: RetryPolicy = RetryPolicy(), requestTimeout: TimeInterval = 5, notices: Lines = Lines(),
                             trustRootFiles: [String] = [],
                             _ body: (AppStoreClient) async throws -> T) async throws -> T {
  let client = try AppStoreClient(
    credentials: credentials ?? team.credentials,
    configuration: .init(baseURL: url, trustRootFiles: trustRootFiles, retry: retry, connectTimeout: 1, requestTimeout: requestTimeout),
    clock: clock, notice: { notices.add($0) })
  do {
    let result = try await body(client)
    await client.shutdown()
    return result
  } catch {
    await client.shutdown()
    throw error
  }
}

/// The fetch error a call failed with, or nil when it succeeded.
func fetchError(_ body: () async throws -> Void) async -> AppStoreAPIError? {
  do {
    try await body()
    return nil
  } catch let error as AppStoreAPIError {
    return error
  } catch {
    return .network(endpoint: "test", detail: "unexpected \(error)")
  }
}
