import AppStoreAPI
import Foundation
import Testing

/// The client against `serve`'s own rate limit (`--rate-limit`: 429, 4290000, Retry-After in UNIX
/// ms), its injected failures (`--fault`) and its bearer-token checks.
@Suite("Rate limits, server errors, timeouts and 401s")
struct RetryAndErrorTests {
  static let customerID = Customer.active
  /// A moment 300 ms into a second: the rate limit's window ends 700 ms later.
  static let moment = Date(timeIntervalSince1970: 1_795_000_000.3)

  @Test("429 waits until Apple's Retry-After (UNIX ms), then succeeds")
  func rateLimitHonoursRetryAfter() async throws {
    let team = Team()
    let clock = ServerClock(Self.moment)
    let server = try LocalServer(team, rateLimit: 1, clock: clock)
    let sleeps = RecordedSleeps()
    let notices = Lines()
    // The client's clock is the server's; its wait moves the server's on by as much.
    _ = try await server.run { url in
      try await withClient(team, url, clock: sleeps.clock(now: { clock.now }, then: { clock.advance($0) }), notices: notices) { client in
        _ = try await client.transactionInfo(Self.customerID, environment: .sandbox)
        return try await client.transactionInfo(Self.customerID, environment: .sandbox)
      }
    }
    #expect(sleeps.all.count == 1)
    #expect(abs((sleeps.all.first ?? 0) - 0.7) < 0.01)
    #expect(notices.all == ["Get Transaction Info: HTTP 429 4290000 rate limit exceeded; retrying in 0.7 s (attempt 2 of 4)"])
  }

  @Test("a Retry-After beyond the limit is not waited for: the error says how long Apple asked")
  func rateLimitTooLong() async throws {
    let team = Team()
    let server = try LocalServer(team, rateLimit: 1, clock: ServerClock(Date(timeIntervalSince1970: 1_795_000_000)))
    let sleeps = RecordedSleeps()
    // A client whose clock is 599 s behind reads the next second's Retry-After as 600 s away.
    let error = try await server.run { url in
      try await withClient(team, url, clock: sleeps.clock(now: { Date(timeIntervalSince1970: 1_795_000_000 - 599) })) { client in
        _ = try await client.transactionInfo(Self.customerID, environment: .sandbox)
        return await fetchError { _ = try await client.transactionInfo(Self.customerID, environment: .sandbox) }
      }
    }
    #expect(error?.description == "Get Transaction Info: gave up after 1 attempts: HTTP 429 4290000 rate limit exceeded; Apple asks to wait 600 s")
    #expect(sleeps.all.isEmpty)
  }

  @Test("5xx is retried with growing, bounded backoff; persistent 5xx gives up after maxAttempts")
  func serverErrorsRetry() async throws {
    let team = Team()
    let server = try LocalServer(team)
    server.api.inject([.status(500, code: 5_000_001), .status(503, code: nil)])
    let sleeps = RecordedSleeps()
    _ = try await server.run { url in
      try await withClient(team, url, clock: sleeps.clock()) { client in
        try await client.transactionInfo(Self.customerID, environment: .sandbox)
      }
    }
    #expect(sleeps.all == [0.5, 1.0])

    server.api.inject(Array(repeating: .status(500, code: 5_000_000), count: 5))
    let capped = RecordedSleeps()
    let error = try await server.run { url in
      try await withClient(team, url, clock: capped.clock(), retry: RetryPolicy(maxAttempts: 4, baseDelay: 1, maxDelay: 2.5)) { client in
        await fetchError { _ = try await client.transactionInfo(Self.customerID, environment: .sandbox) }
      }
    }
    #expect(capped.all == [1, 2, 2.5])
    #expect(error?.description == "Get Transaction Info: gave up after 4 attempts: HTTP 500 5000000 Apple internal error; try again later")
  }

  @Test("a request slower than the timeout is retried, and the retry succeeds")
  func timeoutRetries() async throws {
    let team = Team()
    let server = try LocalServer(team)
    // The timeout leaves the retry seconds to answer: the whole suite runs in parallel on two
    // cores, and a 0.5 s timeout timed the retry out too on a busy machine.
    server.api.inject([.delay(seconds: 8)])
    let sleeps = RecordedSleeps()
    let notices = Lines()
    _ = try await server.run { url in
      try await withClient(team, url, clock: sleeps.clock(), requestTimeout: 2.5, notices: notices) { client in
        try await client.transactionInfo(Self.customerID, environment: .sandbox)
      }
    }
    #expect(notices.all == ["Get Transaction Info: timed out after 2.5 s; retrying in 0.5 s (attempt 2 of 4)"])
  }

  @Test("a server that is down is reported as unreachable, after bounded retries")
  func connectionRefused() async throws {
    let team = Team()
    // Bind and release a port so nothing listens on it.
    let url = try await LocalServer(team).run { url in url }
    let error = try await withClient(team, url, clock: RecordedSleeps().clock(), retry: RetryPolicy(maxAttempts: 2)) { client in
      await fetchError { _ = try await client.transactionInfo(Self.customerID, environment: .sandbox) }
    }
    #expect(error?.description.hasPrefix("Get Transaction Info: gave up after 2 attempts: cannot reach 127.0.0.1") == true)
  }

  @Test("401 names the likely causes; the server refused the token for the reason we broke", arguments: [
    ("issuer", "wrong iss"), ("bundle", "wrong bid"), ("key", "bad signature"), ("kid", "unknown kid"),
  ])
  func unauthorized(what: String, reason: String) async throws {
    let team = Team()
    let server = try LocalServer(team)
    let good = team.credentials
    let bad = switch what {
    case "issuer": Credentials(privateKey: good.privateKey, keyID: good.keyID, issuerID: "00000000-0000-0000-0000-000000000000", bundleID: good.bundleID)
    case "bundle": Credentials(privateKey: good.privateKey, keyID: good.keyID, issuerID: good.issuerID, bundleID: "com.example.other")
    case "key": Credentials(privateKey: .init(), keyID: good.keyID, issuerID: good.issuerID, bundleID: good.bundleID)
    default: Credentials(privateKey: good.privateKey, keyID: "OTHERKEY99", issuerID: good.issuerID, bundleID: good.bundleID)
    }
    let sleeps = RecordedSleeps()
    let error = try await server.run { url in
      try await withClient(team, url, credentials: bad, clock: sleeps.clock()) { client in
        await fetchError { _ = try await client.transactionInfo(Self.customerID, environment: .sandbox) }
      }
    }
    #expect(error == .unauthorized(endpoint: "Get Transaction Info", environment: .sandbox))
    #expect(error?.description.contains("check --key-id and the .p8 key (same key, not revoked), --issuer-id, --bundle-id, and that this machine's clock is right") == true)
    #expect(server.log.all == ["api: 401 GET /sandbox/inApps/v1/transactions/\(Self.customerID): bearer token refused: \(reason)"])
    #expect(sleeps.all.isEmpty)
  }

  @Test("a clock ten minutes fast makes the token 'issued in the future': 401")
  func clockSkew() async throws {
    let team = Team()
    let server = try LocalServer(team)
    let error = try await server.run { url in
      try await withClient(team, url, clock: RecordedSleeps().clock(now: { Date().addingTimeInterval(600) })) { client in
        await fetchError { _ = try await client.transactionInfo(Self.customerID, environment: .sandbox) }
      }
    }
    #expect(error == .unauthorized(endpoint: "Get Transaction Info", environment: .sandbox))
    #expect(server.log.all.map { $0.hasSuffix("bearer token refused: iat in the future") } == [true])
  }
}
