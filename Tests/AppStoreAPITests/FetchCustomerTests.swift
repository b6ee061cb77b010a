import AppStoreAPI
import Foundation
import Testing

@Suite("Fetching one customer from the App Store Server API")
struct FetchCustomerTests {
  @Test("a history is followed page by page with Apple's revision token, notifications too")
  func followsPagination() async throws {
    let team = Team()
    let server = try LocalServer(team, subscribers: ["active"], pageSize: 2) { _, document in LocalServer.asProduction(&document) }
    let progress = Lines()
    let result = try await server.run { url in
      try await withClient(team, url, clock: RecordedSleeps().clock()) { client in
        try await Fetcher(client: client, progress: { progress.add($0) }).fetch(transactionID: Customer.active, choice: .production)
      }
    }
    #expect(result.environment == .production)
    #expect(result.transactionCount == 5)
    #expect(result.notificationCount == 5)
    #expect(result.responses.filter { $0.endpoint == "Get Transaction History" }.count == 3)
    #expect(result.responses.filter { $0.endpoint == "Get Notification History" }.count == 3)
    let history = server.requests.all.filter { $0.contains("/v2/history/") }
    #expect(history == [
      "GET /inApps/v2/history/\(Customer.active)?sort=ASCENDING",
      "GET /inApps/v2/history/\(Customer.active)?sort=ASCENDING&revision=r2",
      "GET /inApps/v2/history/\(Customer.active)?sort=ASCENDING&revision=r4",
    ])
    #expect(server.requests.all.filter { $0.contains("notifications/history") }.last == "POST /inApps/v1/notifications/history?paginationToken=p4")
    #expect(progress.all.contains("transaction history: page 3, 5 transactions"))
    #expect(!server.log.all.contains { $0.contains("bearer token refused") })
  }

  @Test("auto asks production first and falls back to sandbox on 4040010 only")
  func sandboxFallback() async throws {
    let team = Team()
    let server = try LocalServer(team)
    let result = try await server.run { url in
      try await withClient(team, url, clock: RecordedSleeps().clock()) { client in
        try await Fetcher(client: client).fetch(transactionID: Customer.active, choice: .auto)
      }
    }
    #expect(result.environment == .sandbox)
    #expect(server.requests.all.first == "GET /inApps/v1/transactions/\(Customer.active)")
    #expect(server.requests.all.dropFirst().allSatisfy { $0.contains(" /sandbox/inApps/") })
  }

  @Test("not found in either environment says so in one line; an explicit environment does not fall back")
  func notFound() async throws {
    let team = Team()
    let server = try LocalServer(team)
    let error = try await server.run { url in
      try await withClient(team, url, clock: RecordedSleeps().clock()) { client in
        await fetchError { _ = try await Fetcher(client: client).fetch(transactionID: "2000000999", choice: .auto) }
      }
    }
    #expect(error?.description == "Get Transaction Info (Sandbox): HTTP 404 4040010 transaction id not found (check --bundle-id and --environment): Transaction id not found.")
    #expect(server.requests.all == ["GET /inApps/v1/transactions/2000000999", "GET /sandbox/inApps/v1/transactions/2000000999"])

    let explicit = try await server.run { url in
      try await withClient(team, url, clock: RecordedSleeps().clock()) { client in
        await fetchError { _ = try await Fetcher(client: client).fetch(transactionID: "2000000999", choice: .production) }
      }
    }
    #expect(explicit?.description.hasPrefix("Get Transaction Info (Production): HTTP 404 4040010") == true)
  }

  @Test("a malformed id is Apple's 4000006, reported without retrying")
  func invalidID() async throws {
    let team = Team()
    let server = try LocalServer(team)
    let sleeps = RecordedSleeps()
    let error = try await server.run { url in
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
    // serve knows an order id from a file an earlier fetch by that order wrote (`fetchedFrom`).
    let server = try LocalServer(team) { name, document in
      guard name == "refunded" else { return }
      document["fetchedFrom"] = ["transactionId": Customer.refunded, "orderId": "MK5TTTVWJH", "environment": "Production"]
    }
    let result = try await server.run { url in
      try await withClient(team, url, clock: RecordedSleeps().clock()) { client in
        try await Fetcher(client: client).fetch(orderID: "MK5TTTVWJH")
      }
    }
    #expect(result.orderID == "MK5TTTVWJH")
    #expect(result.transactionID == Customer.refunded)
    #expect(result.environment == .production)
    #expect(result.responses.first?.endpoint == "Look Up Order ID")

    let error = try await server.run { url in
      try await withClient(team, url, clock: RecordedSleeps().clock()) { client in
        await fetchError { _ = try await Fetcher(client: client).fetch(orderID: "NOPE000000") }
      }
    }
    #expect(error == .orderInvalid(orderID: "NOPE000000"))
  }
}
