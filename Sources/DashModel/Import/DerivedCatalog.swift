/// A catalog built from the transactions when the import has no `.storekit` file, so real data
/// opens without one. It knows product ids, prices and periods where the transactions show them;
/// it cannot know levels (`groupNumber` is written as 1 for every product and means nothing), so
/// it is marked `_derivedFromTransactions` and plan actions refuse to run against it.
enum DerivedCatalog {
  static let marker = "_derivedFromTransactions"

  static func build(transactions: [TransactionPayload], renewalInfo: RenewalInfoPayload?) -> JSONObject {
    var groupOrder: [String] = []
    var products: [String: [String]] = [:]  // group → product ids, first seen
    var groupOf: [String: String] = [:]
    for t in transactions {
      guard let pid = t.productId, groupOf[pid] == nil else { continue }
      let g = t.subscriptionGroupIdentifier ?? "imported"
      if products[g] == nil { groupOrder.append(g) }
      products[g, default: []].append(pid)
      groupOf[pid] = g
    }
    for pid in [renewalInfo?.productId, renewalInfo?.autoRenewProductId].compactMap({ $0 }) where groupOf[pid] == nil {
      let g = groupOrder.first ?? "imported"
      if products[g] == nil { groupOrder.append(g) }
      products[g, default: []].append(pid)
      groupOf[pid] = g
    }
    let groups: [JSON] = groupOrder.sorted().map { g in
      let subs: [JSON] = products[g]!.sorted().map { pid in .object(product(pid, group: g, transactions.filter { $0.productId == pid })) }
      return .object(JSONObject([("id", .string(g)), ("name", .string(g)), ("subscriptions", .array(subs))]))
    }
    return JSONObject([(marker, .bool(true)), ("subscriptionGroups", .array(groups))])
  }

  static func product(_ pid: String, group: String, _ ts: [TransactionPayload]) -> JSONObject {
    let newestFirst = ts.sorted { ($0.purchaseDate?.ms ?? 0) > ($1.purchaseDate?.ms ?? 0) }
    let regular = newestFirst.filter { $0.offerType == nil }
    var o = JSONObject([("productID", .string(pid)), ("referenceName", .string(pid)), ("groupNumber", .int(1))])
    let period = regular.lazy.compactMap(inferPeriod).first
    o["recurringSubscriptionPeriod"] = .string(period ?? "P1M")
    if period == nil { o["_periodKnown"] = .bool(false) }
    if let priced = (regular.first { $0.price != nil } ?? newestFirst.first { $0.price != nil }), let price = priced.price, price >= 0 {
      o["displayPrice"] = .string(Format.money(milliunits: price, currency: ""))
      if let c = priced.currency { o["_currency"] = .string(c) }
    } else {
      o["displayPrice"] = .string("0")
      o["_priceKnown"] = .bool(false)
    }
    return o
  }

  /// The subscription period a transaction's length shows: calendar lengths in production,
  /// Apple's accelerated sandbox lengths (a month renews every 5 minutes) in the sandbox.
  static func inferPeriod(_ t: TransactionPayload) -> String? {
    guard let p = t.purchaseDate, let e = t.expiresDate, e > p else { return nil }
    let minutes = (e - p).ms / 60_000
    if t.environment == .sandbox {
      let table: [(Double, String)] = [(3, "P1W"), (5, "P1M"), (10, "P2M"), (15, "P3M"), (30, "P6M"), (60, "P1Y")]
      return table.first { abs(minutes - $0.0) < 0.5 }?.1
    }
    let days = minutes / 1440
    let table: [(ClosedRange<Double>, String)] = [(6.9...7.1, "P1W"), (27.9...31.1, "P1M"), (58.9...62.1, "P2M"),
                                                  (88.9...92.1, "P3M"), (180.9...184.1, "P6M"), (364.9...366.1, "P1Y")]
    return table.first { $0.0.contains(days) }?.1
  }
}
