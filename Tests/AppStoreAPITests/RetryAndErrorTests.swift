import AppStoreAPI
import Foundation
import MockAppStore
import Testing

@Suite("Rate limits, server errors, timeouts and 401s")
struct RetryAndErrorTests {
  static let customerID = "2000000400"

  func mockWithCustomer(_ team: Team) -> MockAppStore {
    let mock = MockAppStore(check: team.check)
    mock.add(.monthly(originalTransactionID: Self.customerID, renewals: 0, environment: "Production"), environment: "production")
    return mock
  }

  @Test("429 waits until Apple's Retry-After (UNIX ms), then succeeds")
  func rateLimitHonoursRetryAfter() async throws {
    let team = Team()
    let mock = mockWithCustomer(team)
    let now = Date()
    let retryAt = Int64((now.timeIntervalSince1970 + 7) * 1000)
    mock.enqueue(.status(429, code: 4_290_000, retryAfter: String(retryAt)))
    let sleeps = RecordedSleeps()
    let notices = Lines()
    _ = try await withMockServer(mock) { url in
      try await withClient(team, url, clock: sleeps.clock(now: { now }), notices: notices) { client in
        try await client.transactionInfo(Self.customerID, environment: .production)
      }
    }
    #expect(sleeps.all.count == 1)
    #expect(abs(sleeps.all[0] - 7) < 0.01)
    #expect(notices.all == ["Get Transaction Info: HTTP 429 4290000 rate limit exceeded; retrying in 7.0 s (attempt 2 of 4)"])
  }

  @Test("a Retry-After beyond the limit is not waited for: the error says how long Apple asked")
  func rateLimitTooLong() async throws {
    let team = Team()
    let mock = mockWithCustomer(team)
    let now = Date()
    mock.enqueue(.status(429, code: 4_290_000, retryAfter: String(Int64((now.timeIntervalSince1970 + 600) * 1000))))
    let sleeps = RecordedSleeps()
    let error = try await withMockServer(mock) { url in
      try await withClient(team, url, clock: sleeps.clock(now: { now })) { client in
        await fetchError { _ = try await client.transactionInfo(Self.customerID, environment: .production) }
      }
    }
    #expect(error?.description == "Get Transaction Info: gave up after 1 attempts: HTTP 429 4290000 rate limit exceeded; Apple asks to wait 600 s")
    #expect(sleeps.all.isEmpty)
  }

  @Test("5xx is retried with growing, bounded backoff; persistent 5xx gives up after maxAttempts")
  func serverErrorsRetry() async throws {
    let team = Team()
    let mock = mockWithCustomer(team)
    mock.enqueue(.status(500, code: 5_000_001))
    mock.enqueue(.status(503, code: nil))
    let sleeps = RecordedSleeps()
    _ = try await withMockServer(mock) { url in
      try await withClient(team, url, clock: sleeps.clock()) { client in
        try await client.transactionInfo(Self.customerID, environment: .production)
      }
    }
    #expect(sleeps.all == [0.5, 1.0])

    for _ in 0..<5 { mock.enqueue(.status(500, code: 5_000_000)) }
    let capped = RecordedSleeps()
    let error = try await withMockServer(mock) { url in
      try await withClient(team, url, clock: capped.clock(), retry: RetryPolicy(maxAttempts: 4, baseDelay: 1, maxDelay: 2.5)) { client in
        await fetchError { _ = try await client.transactionInfo(Self.customerID, environment: .production) }
      }
    }
    #expect(capped.all == [1, 2, 2.5])
    #expect(error?.description == "Get Transaction Info: gave up after 4 attempts: HTTP 500 5000000 Apple internal error; try again later")
  }

  @Test("a request slower than the timeout is retried, and the retry succeeds")
  func timeoutRetries() async throws {
    let team = Team()
    let mock = mockWithCustomer(team)
    // The timeout leaves the retry seconds to answer: the whole suite runs in parallel on two
    // cores, and a 0.5 s timeout timed the retry out too on a busy machine.
    mock.enqueue(.delay(8))
    let sleeps = RecordedSleeps()
    let notices = Lines()
    _ = try await withMockServer(mock) { url in
      try await withClient(team, url, clock: sleeps.clock(), requestTimeout: 2.5, notices: notices) { client in
        try await client.transactionInfo(Self.customerID, environment: .production)
      }
    }
    #expect(notices.all == ["Get Transaction Info: timed out after 2.5 s; retrying in 0.5 s (attempt 2 of 4)"])
  }

  @Test("a server that is down is reported as unreachable, after bounded retries")
  func connectionRefused() async throws {
    let team = Team()
    // Bind and release a port so nothing listens on it.
    let mock = MockAppStore(check: team.check)
    let url = try await withMockServer(mock) { url in url }
    let error = try await withClient(team, url, clock: RecordedSleeps().clock(), retry: RetryPolicy(maxAttempts: 2)) { client in
      await fetchError { _ = try await client.transactionInfo(Self.customerID, environment: .production) }
    }
    #expect(error?.description.hasPrefix("Get Transaction Info: gave up after 2 attempts: cannot reach 127.0.0.1") == true)
  }

  @Test("401 names the likely causes; the mock rejected the token for the reason we broke", arguments: [
    ("issuer", "wrong iss"), ("bundle", "wrong bid"), ("key", "bad signature"), ("kid", "unknown kid"),
  ])
  func unauthorized(what: String, reason: String) async throws {
    let team = Team()
    let mock = mockWithCustomer(team)
    let good = team.credentials
    let bad = switch what {
    case "issuer": Credentials(privateKey: good.privateKey, keyID: good.keyID, issuerID: "00000000-0000-0000-0000-000000000000", bundleID: good.bundleID)
    case "bundle": Credentials(privateKey: good.privateKey, keyID: good.keyID, issuerID: good.issuerID, bundleID: "com.example.other")
    case "key": Credentials(privateKey: .init(), keyID: good.keyID, issuerID: good.issuerID, bundleID: good.bundleID)
    default: Credentials(privateKey: good.privateKey, keyID: "OTHERKEY99", issuerID: good.issuerID, bundleID: good.bundleID)
    }
    let sleeps = RecordedSleeps()
    let error = try await withMockServer(mock) { url in
      try await withClient(team, url, credentials: bad, clock: sleeps.clock()) { client in
        await fetchError { _ = try await client.transactionInfo(Self.customerID, environment: .production) }
      }
    }
    #expect(error == .unauthorized(endpoint: "Get Transaction Info", environment: .production))
    #expect(error?.description.contains("check --key-id and the .p8 key (same key, not revoked), --issuer-id, --bundle-id, and that this machine's clock is right") == true)
    #expect(mock.rejections == [reason])
    #expect(sleeps.all.isEmpty)
  }

  @Test("a clock ten minutes fast makes the token 'issued in the future': 401")
  func clockSkew() async throws {
    let team = Team()
    let mock = mockWithCustomer(team)
    let error = try await withMockServer(mock) { url in
      try await withClient(team, url, clock: RecordedSleeps().clock(now: { Date().addingTimeInterval(600) })) { client in
        await fetchError { _ = try await client.transactionInfo(Self.customerID, environment: .production) }
      }
    }
    #expect(error == .unauthorized(endpoint: "Get Transaction Info", environment: .production))
    #expect(mock.rejections == ["iat in the future"])
  }
}
