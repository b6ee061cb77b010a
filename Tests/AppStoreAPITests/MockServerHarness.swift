import AppStoreAPI
import Crypto
import Foundation
import AppStoreAuth
import MockAppStore
import NIOSSL

/// A test's view of the world: a team key made here, a loopback mock App Store that knows its public
/// half, and a client pointed at it. Nothing leaves 127.0.0.1.
struct Team {
  let key = P256.Signing.PrivateKey()
  let keyID = "TESTKEY123"
  let issuerID = "57246542-96fe-1a63-e053-0824d011072a"
  let bundleID = "com.example.subdash"

  var credentials: Credentials { Credentials(privateKey: key, keyID: keyID, issuerID: issuerID, bundleID: bundleID) }
  var check: BearerCheck { BearerCheck(publicKey: key.publicKey, keyID: keyID, issuerID: issuerID, bundleID: bundleID) }
}

/// Waits recorded instead of slept, so retry tests take milliseconds and can assert the delays.
final class RecordedSleeps: @unchecked Sendable {
  private let lock = NSLock()
  private var delays: [TimeInterval] = []
  var all: [TimeInterval] { lock.lock(); defer { lock.unlock() }; return delays }
  private func record(_ t: TimeInterval) { lock.withLock { delays.append(t) } }
  func clock(now: @escaping @Sendable () -> Date = { Date() }) -> AppStoreClient.Clock {
    AppStoreClient.Clock(now: now, sleep: { [self] t in record(t) })
  }
}

final class Lines: @unchecked Sendable {
  private let lock = NSLock()
  private var lines: [String] = []
  var all: [String] { lock.lock(); defer { lock.unlock() }; return lines }
  func add(_ line: String) { lock.lock(); lines.append(line); lock.unlock() }
}

/// Runs `body` with the mock server listening; stops it afterwards whatever happens.
func withMockServer<T: Sendable>(_ mock: MockAppStore, tls: TLSConfiguration? = nil,
                                 _ body: @escaping @Sendable (String) async throws -> T) async throws -> T {
  let (urls, continuation) = AsyncStream.makeStream(of: String.self)
  return try await withThrowingTaskGroup(of: T?.self) { group in
    group.addTask {
      try await mock.run(tls: tls, ready: { continuation.yield($0) })
      return nil
    }
    var iterator = urls.makeAsyncIterator()
    guard let url = await iterator.next() else { throw CancellationError() }
    let result = try await body(url)
    group.cancelAll()
    return result
  }
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
