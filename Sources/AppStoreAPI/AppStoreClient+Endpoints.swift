import Foundation

/// The six read-only endpoints a support fetch needs (appstore-server-api.md §3). Each page's body is
/// kept byte for byte, so nothing Apple sends is lost on the way to the state file.
extension AppStoreClient {
  public func subscriptionStatuses(_ id: String, environment: AppStoreEnvironment) async throws(AppStoreAPIError) -> [UInt8] {
    try await send(endpoint: "Get All Subscription Statuses", environment: environment, method: .GET,
                   path: "/inApps/v1/subscriptions/" + Self.segment(id))
  }

  public func transactionInfo(_ id: String, environment: AppStoreEnvironment) async throws(AppStoreAPIError) -> [UInt8] {
    try await send(endpoint: "Get Transaction Info", environment: environment, method: .GET,
                   path: "/inApps/v1/transactions/" + Self.segment(id))
  }

  /// Get App Transaction Info (API 1.17): any transaction id of the customer.
  public func appTransactionInfo(_ id: String, environment: AppStoreEnvironment) async throws(AppStoreAPIError) -> [UInt8] {
    try await send(endpoint: "Get App Transaction Info", environment: environment, method: .GET,
                   path: "/inApps/v1/transactions/appTransactions/" + Self.segment(id))
  }

  /// Look Up Order ID exists in production only.
  public func lookUpOrder(_ orderID: String) async throws(AppStoreAPIError) -> [UInt8] {
    try await send(endpoint: "Look Up Order ID", environment: .production, method: .GET,
                   path: "/inApps/v1/lookup/" + Self.segment(orderID))
  }

  /// Get Transaction History v2: repeats with `revision` while `hasMore`, same query every time.
  public func transactionHistory(_ id: String, environment: AppStoreEnvironment,
                                 page: @Sendable (Int, Int) -> Void = { _, _ in }) async throws(AppStoreAPIError) -> [[UInt8]] {
    try await revisionPages(endpoint: "Get Transaction History", environment: environment,
                            path: "/inApps/v2/history/" + Self.segment(id), baseQuery: [("sort", "ASCENDING")], page: page)
  }

  /// Get Refund History v2: same paging as history.
  public func refundHistory(_ id: String, environment: AppStoreEnvironment) async throws(AppStoreAPIError) -> [[UInt8]] {
    try await revisionPages(endpoint: "Get Refund History", environment: environment,
                            path: "/inApps/v2/refund/lookup/" + Self.segment(id), baseQuery: [], page: { _, _ in })
  }

  /// Milliseconds since 1970, as the request body gives a date. `Int64(Double)` traps on a value
  /// no Int64 holds; a date that far out (never from `Fetcher`, which range-checks the server's
  /// clock) is clamped instead, and the server then refuses the window in its own words.
  static func epochMilliseconds(_ date: Date) -> Int64 {
    let ms = (date.timeIntervalSince1970 * 1000).rounded(.towardZero)
    guard ms.isFinite else { return 0 }
    return Int64(exactly: ms) ?? (ms > 0 ? .max : .min)
  }

  /// Get Notification History for one customer, `paginationToken` paging with the same body each time.
  public func notificationHistory(transactionID: String, environment: AppStoreEnvironment, start: Date, end: Date,
                                  page: @Sendable (Int, Int) -> Void = { _, _ in }) async throws(AppStoreAPIError) -> [[UInt8]] {
    let endpoint = "Get Notification History"
    let body = #"{"startDate":\#(Self.epochMilliseconds(start)),"endDate":\#(Self.epochMilliseconds(end)),"transactionId":\#(BearerToken.jsonString(transactionID))}"#
    let path = "/inApps/v1/notifications/history"
    return try await allPages(endpoint: endpoint, cursorKey: "paginationToken", itemsKey: "notificationHistory", page: page) {
      (token) async throws(AppStoreAPIError) -> [UInt8] in
      try await send(endpoint: endpoint, environment: environment, method: .POST, path: path,
                     query: token.map { [("paginationToken", $0)] } ?? [], body: Array(body.utf8))
    }
  }

  private func revisionPages(endpoint: String, environment: AppStoreEnvironment, path: String, baseQuery: [(String, String)],
                             page: @Sendable (Int, Int) -> Void) async throws(AppStoreAPIError) -> [[UInt8]] {
    try await allPages(endpoint: endpoint, cursorKey: "revision", itemsKey: "signedTransactions", page: page) {
      (revision) async throws(AppStoreAPIError) -> [UInt8] in
      try await send(endpoint: endpoint, environment: environment, method: .GET, path: path,
                     query: baseQuery + (revision.map { [("revision", $0)] } ?? []))
    }
  }

  /// Apple's two paging schemes are one loop: ask with the last cursor (`revision` or
  /// `paginationToken`) while `hasMore`, keep every page's bytes, report pages and items so far.
  /// A cursor that is missing or repeats while `hasMore` is a malformed answer, not a reason to loop.
  private func allPages(endpoint: String, cursorKey: String, itemsKey: String, page: @Sendable (Int, Int) -> Void,
                        request: (String?) async throws(AppStoreAPIError) -> [UInt8]) async throws(AppStoreAPIError) -> [[UInt8]] {
    var pages: [[UInt8]] = []
    var cursor: String?
    var items = 0
    while true {
      let bytes = try await request(cursor)
      let object = try Self.object(bytes, endpoint: endpoint)
      pages.append(bytes)
      items += (object[itemsKey] as? [Any])?.count ?? 0
      page(pages.count, items)
      guard object["hasMore"] as? Bool == true else { return pages }
      guard let next = object[cursorKey] as? String, !next.isEmpty, next != cursor else {
        throw .malformedResponse(endpoint: endpoint, detail: "hasMore is true but \(cursorKey) is missing or repeats (page \(pages.count))")
      }
      try Self.checkPageLimit(pages.count, endpoint: endpoint)
      cursor = next
    }
  }

  /// A server that says "more" forever must not make a fetch run forever: 20 per page × 5,000 pages.
  static let maxPages = 5_000

  static func checkPageLimit(_ count: Int, endpoint: String) throws(AppStoreAPIError) {
    if count >= maxPages { throw .malformedResponse(endpoint: endpoint, detail: "more than \(maxPages) pages; stopping") }
  }

  static func object(_ bytes: [UInt8], endpoint: String) throws(AppStoreAPIError) -> [String: Any] {
    guard let object = try? JSONSerialization.jsonObject(with: Data(bytes)) as? [String: Any] else {
      throw .malformedResponse(endpoint: endpoint, detail: "body is not a JSON object")
    }
    return object
  }
}
