import DashModel
import Foundation
import CoreValues

/// Everything Apple holds about one customer, fetched in the environment that created the transaction.
public struct FetchResult: Sendable {
  public struct Response: Sendable, Equatable {
    /// Apple's endpoint name, e.g. "Get Transaction History"; import recognises the body by shape anyway.
    public let endpoint: String
    public let body: [UInt8]
  }

  public let environment: AppStoreEnvironment
  public let transactionID: String
  public let orderID: String?
  public let responses: [Response]
  public let transactionCount: Int
  public let notificationCount: Int
  /// Get App Transaction Info's answer (`{"signedAppTransactionInfo": …}`), nil when the server
  /// has none for the customer (404) or does not know the endpoint.
  public var appTransaction: [UInt8]? = nil
}

public enum EnvironmentChoice: String, Sendable, CaseIterable {
  case production, sandbox, auto
}

public struct Fetcher: Sendable {
  /// Notification history reaches back 180 days in production and 30 in sandbox.
  static func notificationWindow(_ environment: AppStoreEnvironment) -> TimeInterval {
    (environment == .production ? 180 : 30) * 86_400
  }

  let client: AppStoreClient
  let progress: @Sendable (String) -> Void

  public init(client: AppStoreClient, progress: @escaping @Sendable (String) -> Void = { _ in }) {
    self.client = client
    self.progress = progress
  }

  /// Look Up Order ID (production only), then the customer behind the order's first transaction.
  public func fetch(orderID: String) async throws(AppStoreAPIError) -> FetchResult {
    let lookup = try await client.lookUpOrder(orderID)
    let object = try AppStoreClient.object(lookup, endpoint: "Look Up Order ID")
    guard (object["status"] as? NSNumber)?.intValue == 0 else { throw .orderInvalid(orderID: orderID) }
    guard let first = (object["signedTransactions"] as? [String])?.first, let id = Self.transactionID(inJWS: first) else {
      throw .malformedResponse(endpoint: "Look Up Order ID", detail: "status 0 but no readable signedTransactions[0].transactionId")
    }
    try checkBundle([.init(endpoint: "Look Up Order ID", body: lookup)], .production)
    progress("order \(Sanitize.line(orderID)) → transaction \(Sanitize.line(id))")
    let rest = try await fetch(transactionID: id, environment: .production)
    return FetchResult(environment: rest.environment, transactionID: id, orderID: orderID,
                       responses: [.init(endpoint: "Look Up Order ID", body: lookup)] + rest.responses,
                       transactionCount: rest.transactionCount, notificationCount: rest.notificationCount,
                       appTransaction: rest.appTransaction)
  }

  /// `auto` asks production first and sandbox only on Apple's TransactionIdNotFound (4040010), as Apple recommends.
  public func fetch(transactionID: String, choice: EnvironmentChoice) async throws(AppStoreAPIError) -> FetchResult {
    switch choice {
    case .production: return try await fetch(transactionID: transactionID, environment: .production)
    case .sandbox: return try await fetch(transactionID: transactionID, environment: .sandbox)
    case .auto:
      do {
        return try await fetch(transactionID: transactionID, environment: .production)
      } catch where error.isTransactionNotFound {
        progress("not in Production; trying Sandbox")
        return try await fetch(transactionID: transactionID, environment: .sandbox)
      }
    }
  }

  public func fetch(transactionID id: String, environment: AppStoreEnvironment) async throws(AppStoreAPIError) -> FetchResult {
    // Transaction info first: it is the cheapest call that says whether the id exists here.
    let info = try await client.transactionInfo(id, environment: environment)
    let statuses = try await client.subscriptionStatuses(id, environment: environment)
    let progress = self.progress
    let history = try await client.transactionHistory(id, environment: environment) { pages, transactions in
      progress("transaction history: page \(pages), \(counted(transactions, "transaction"))")
    }
    // The window ends at the server's now, as its signatures give it (signedDate of the status
    // it just signed): Apple's is the wall clock, `subdash serve`'s the file's own clock, which a
    // simulation may have moved months from the wall clock (a wall-clock window then misses
    // every notification, or starts before the server's 180 days and is refused).
    let now = Self.signedDate(inStatuses: statuses).map { $0.addingTimeInterval(0.001) } ?? client.clock.now()
    let start = now.addingTimeInterval(-Self.notificationWindow(environment) + 60)
    let notifications = try await client.notificationHistory(transactionID: id, environment: environment, start: start, end: now) { pages, items in
      progress("notification history: page \(pages), \(counted(items, "notification"))")
    }
    if Self.count(notifications, key: "notificationHistory") == 0 {
      progress("notification history: none signed from \(Instant(ms: (start.timeIntervalSince1970 * 1000).rounded(.down))) to "
        + "\(Instant(ms: (now.timeIntervalSince1970 * 1000).rounded(.down))) (the server keeps \(environment == .production ? 180 : 30) days; older ones are not in its history)")
    }
    let refunds = try await client.refundHistory(id, environment: environment)
    let appTransaction = try await appTransactionInfo(id, environment)
    var responses: [FetchResult.Response] = [.init(endpoint: "Get Transaction Info", body: info),
                                             .init(endpoint: "Get All Subscription Statuses", body: statuses)]
    responses += history.map { .init(endpoint: "Get Transaction History", body: $0) }
    responses += notifications.map { .init(endpoint: "Get Notification History", body: $0) }
    responses += refunds.map { .init(endpoint: "Get Refund History", body: $0) }
    try checkBundle(responses, environment)
    return FetchResult(environment: environment, transactionID: id, orderID: nil, responses: responses,
                       transactionCount: Self.count(history, key: "signedTransactions"),
                       notificationCount: Self.count(notifications, key: "notificationHistory"), appTransaction: appTransaction)
  }

  /// Get App Transaction Info: since when the customer has the app, and their appTransactionId.
  /// A 404 (no app transaction, 4040019, or a server without the endpoint) leaves it out: the
  /// subscription data stands without it. Any other failure fails the fetch like every call.
  func appTransactionInfo(_ id: String, _ environment: AppStoreEnvironment) async throws(AppStoreAPIError) -> [UInt8]? {
    do {
      let body = try await client.appTransactionInfo(id, environment: environment)
      try checkBundle([.init(endpoint: "Get App Transaction Info", body: body)], environment)
      return body
    } catch {
      guard case .apple(_, _, 404, _, _) = error else { throw error }
      progress("app transaction: none (HTTP 404)")
      return nil
    }
  }

  /// Every answer is the credentials' app's, or the fetch fails before anything is written.
  func checkBundle(_ responses: [FetchResult.Response], _ environment: AppStoreEnvironment) throws(AppStoreAPIError) {
    for r in responses {
      if let other = ResponseBundle.foreign(in: r.body, expected: client.bundleID) {
        throw .otherApp(endpoint: r.endpoint, environment: environment, bundleID: other, expected: client.bundleID)
      }
    }
  }

  static func count(_ pages: [[UInt8]], key: String) -> Int {
    pages.reduce(0) { total, page in
      let object = (try? JSONSerialization.jsonObject(with: Data(page))) as? [String: Any]
      return total + ((object?[key] as? [Any])?.count ?? 0)
    }
  }

  /// Reads `transactionId` from a JWS payload without verifying it: only to choose what to ask next.
  /// The signed data itself is verified when it becomes state.
  /// The `signedDate` of the first signed transaction in a Get All Subscription Statuses answer:
  /// when the server signed it, its now.
  static func signedDate(inStatuses body: [UInt8]) -> Date? {
    guard let object = (try? JSONSerialization.jsonObject(with: Data(body))) as? [String: Any],
          let group = (object["data"] as? [[String: Any]])?.first,
          let jws = ((group["lastTransactions"] as? [[String: Any]])?.first)?["signedTransactionInfo"] as? String else { return nil }
    guard let payload = CompactJWS.payloadBytes(jws),
          let claims = (try? JSONSerialization.jsonObject(with: Data(payload))) as? [String: Any],
          let ms = (claims["signedDate"] as? NSNumber)?.doubleValue, ms.isFinite, ms > 0, ms < 32_503_680_000_000 else { return nil }
    return Date(timeIntervalSince1970: ms / 1000)
  }

  static func transactionID(inJWS jws: String) -> String? {
    guard let payload = CompactJWS.payloadBytes(jws),
          let object = try? JSONSerialization.jsonObject(with: Data(payload)) as? [String: Any] else { return nil }
    if let s = object["transactionId"] as? String { return s }
    return (object["transactionId"] as? NSNumber)?.stringValue
  }
}
