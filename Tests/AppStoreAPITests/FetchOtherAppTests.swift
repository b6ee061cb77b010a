import AppStoreAPI
import Foundation
import Testing

/// A fetch is for the app its credentials name (--bundle-id): a server answering with another
/// app's transactions (a misconfigured proxy, a mixed-up key, a mixed-up file) is refused in one
/// line, so nothing of another app's is ever written into this app's state file.
@Suite("Fetching refuses another app's data")
struct FetchOtherAppTests {
  @Test("transactions signed for another bundle id are refused, naming both")
  func anotherAppsTransactionsAreRefused() async throws {
    let team = Team()
    // A served file whose history (not its latest transaction, by which serve tells the app)
    // came from another app: serve signs the history as it is.
    let server = try LocalServer(team, subscribers: ["active"]) { _, document in
      guard var subscriber = document["subscriber"] as? [String: Any], let history = subscriber["transactions"] as? [[String: Any]] else { return }
      subscriber["transactions"] = history.map { transaction in
        var t = transaction
        t["bundleId"] = "com.example.otherapp"
        return t
      }
      document["subscriber"] = subscriber
    }
    let error = try await server.run { url in
      try await withClient(team, url, clock: RecordedSleeps().clock()) { client in
        await fetchError { _ = try await Fetcher(client: client).fetch(transactionID: Customer.active, choice: .sandbox) }
      }
    }
    let line = try #require(error?.description)
    #expect(line.contains("com.example.otherapp") && line.contains("not com.example.birdwatch"), "\(line)")
    #expect(!line.contains("\n"))
  }

  @Test("this app's own customer is fetched as before")
  func thisAppsCustomerIsFetched() async throws {
    let team = Team()
    let server = try LocalServer(team)
    let result = try await server.run { url in
      try await withClient(team, url, clock: RecordedSleeps().clock()) { client in
        try await Fetcher(client: client).fetch(transactionID: Customer.active, choice: .sandbox)
      }
    }
    #expect(result.transactionCount == 5)
  }
}
