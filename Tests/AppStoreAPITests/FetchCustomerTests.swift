import AppStoreAPI
import Foundation
import MockAppStore
import Testing

@Suite("Fetching one customer from the App Store Server API")
struct FetchCustomerTests {
  @Test("a 45-renewal history is followed page by page with Apple's revision token, notifications too")
  func followsPagination() async throws {
    let team = Team()
    let mock = MockAppStore(check: team.check)
    mock.add(.monthly(originalTransactionID: "2000000100", renewals: 45, environment: "Production"), environment: "production")
    let progress = Lines()
    let result = try await withMockServer(mock) { url in
      try await withClient(team, url, clock: RecordedSleeps().clock()) { client in
        try await Fetcher(client: client, progress: { progress.add($0) }).fetch(transactionID: "2000000100", choice: .production)
      }
    }
    #expect(result.environment == .production)
    #expect(result.transactionCount == 46)
    #expect(result.notificationCount == 46)
    #expect(result.responses.filter { $0.endpoint == "Get Transaction History" }.count == 3)
    #expect(result.responses.filter { $0.endpoint == "Get Notification History" }.count == 3)
    let history = mock.requests.filter { $0.contains("/v2/history/") }
    #expect(history == [
      "GET /inApps/v2/history/2000000100?sort=ASCENDING",
      "GET /inApps/v2/history/2000000100?sort=ASCENDING&revision=r20",
      "GET /inApps/v2/history/2000000100?sort=ASCENDING&revision=r40",
    ])
    #expect(mock.requests.filter { $0.contains("notifications/history") }.last == "POST /inApps/v1/notifications/history?paginationToken=p40")
    #expect(progress.all.contains("transaction history: page 3, 46 transactions"))
    #expect(mock.rejections.isEmpty)
  }

  @Test("auto asks production first and falls back to sandbox on 4040010 only")
  func sandboxFallback() async throws {
    let team = Team()
    let mock = MockAppStore(check: team.check)
    mock.add(.monthly(originalTransactionID: "2000000200", renewals: 1, environment: "Sandbox"), environment: "sandbox")
    let result = try await withMockServer(mock) { url in
      try await withClient(team, url, clock: RecordedSleeps().clock()) { client in
        try await Fetcher(client: client).fetch(transactionID: "2000000200", choice: .auto)
      }
    }
    #expect(result.environment == .sandbox)
    #expect(mock.requests.first == "GET /inApps/v1/transactions/2000000200")
    #expect(mock.requests.dropFirst().allSatisfy { $0.contains(" /sandbox/inApps/") })
  }

  @Test("not found in either environment says so in one line; an explicit environment does not fall back")
  func notFound() async throws {
    let team = Team()
    let mock = MockAppStore(check: team.check)
    let error = try await withMockServer(mock) { url in
      try await withClient(team, url, clock: RecordedSleeps().clock()) { client in
        await fetchError { _ = try await Fetcher(client: client).fetch(transactionID: "2000000999", choice: .auto) }
      }
    }
    #expect(error?.description == "Get Transaction Info (Sandbox): HTTP 404 4040010 transaction id not found (check --bundle-id and --environment): Transaction id not found.")
    #expect(mock.requests == ["GET /inApps/v1/transactions/2000000999", "GET /sandbox/inApps/v1/transactions/2000000999"])

    let explicit = try await withMockServer(mock) { url in
      try await withClient(team, url, clock: RecordedSleeps().clock()) { client in
        await fetchError { _ = try await Fetcher(client: client).fetch(transactionID: "2000000999", choice: .production) }
      }
    }
    #expect(explicit?.description.hasPrefix("Get Transaction Info (Production): HTTP 404 4040010") == true)
  }

  @Test("a malformed id is Apple's 4000006, reported without retrying")
  func invalidID() async throws {
    let team = Team()
    let mock = MockAppStore(check: team.check)
    let sleeps = RecordedSleeps()
    let error = try await withMockServer(mock) { url in
      try await withClient(team, url, clock: sleeps.clock()) { client in
        await fetchError { _ = try await Fetcher(client: client).fetch(transactionID: "12ab", choice: .auto) }
      }
    }
    #expect(error?.description == "Get Transaction Info (Production): HTTP 400 4000006 invalid transaction id (malformed; copy the number again): Invalid transaction id.")
    #expect(sleeps.all.isEmpty)
  }

  @Test("an order id from the receipt email leads to its customer; an unknown order says status 1")
  func orderLookup() async throws {
    let team = Team()
    let mock = MockAppStore(check: team.check)
    mock.add(.monthly(originalTransactionID: "2000000300", renewals: 2, environment: "Production", orderID: "MK5TTTVWJH"), environment: "production")
    let result = try await withMockServer(mock) { url in
      try await withClient(team, url, clock: RecordedSleeps().clock()) { client in
        try await Fetcher(client: client).fetch(orderID: "MK5TTTVWJH")
      }
    }
    #expect(result.orderID == "MK5TTTVWJH")
    #expect(result.transactionID == "2000000300")
    #expect(result.responses.first?.endpoint == "Look Up Order ID")

    let error = try await withMockServer(mock) { url in
      try await withClient(team, url, clock: RecordedSleeps().clock()) { client in
        await fetchError { _ = try await Fetcher(client: client).fetch(orderID: "NOPE000000") }
      }
    }
    #expect(error == .orderInvalid(orderID: "NOPE000000"))
  }
}
