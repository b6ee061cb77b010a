import AppStoreAPI
import Foundation
import MockAppStore
import Testing

/// A fetch is for the app its credentials name (--bundle-id): a server answering with another
/// app's transactions (a misconfigured proxy, a mixed-up key) is refused in one line, so nothing
/// of another app's is ever written into this app's state file.
@Suite("Fetching refuses another app's data")
struct FetchOtherAppTests {
  @Test("transactions signed for another bundle id are refused, naming both")
  func anotherAppsTransactionsAreRefused() async throws {
    let team = Team()
    let mock = MockAppStore(check: team.check)
    mock.add(.monthly(originalTransactionID: "2000000300", renewals: 2, environment: "Sandbox", bundleID: "com.example.otherapp"),
             environment: "sandbox")
    let error = try await withMockServer(mock) { url in
      try await withClient(team, url, clock: RecordedSleeps().clock()) { client in
        await fetchError { _ = try await Fetcher(client: client).fetch(transactionID: "2000000300", choice: .sandbox) }
      }
    }
    let line = try #require(error?.description)
    #expect(line.contains("com.example.otherapp") && line.contains("not com.example.subdash"), "\(line)")
    #expect(!line.contains("\n"))
  }

  @Test("this app's own customer is fetched as before")
  func thisAppsCustomerIsFetched() async throws {
    let team = Team()
    let mock = MockAppStore(check: team.check)
    mock.add(.monthly(originalTransactionID: "2000000301", renewals: 2, environment: "Sandbox"), environment: "sandbox")
    let result = try await withMockServer(mock) { url in
      try await withClient(team, url, clock: RecordedSleeps().clock()) { client in
        try await Fetcher(client: client).fetch(transactionID: "2000000301", choice: .sandbox)
      }
    }
    #expect(result.transactionCount == 3)
  }
}
