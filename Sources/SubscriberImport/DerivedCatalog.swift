import CoreValues
import DashModel
import SubscriberStorage
/// A catalog built from the transactions when the import has no `.storekit` file, so real data
/// opens without one. It knows product ids, prices and periods where the transactions show them;
/// it cannot know levels (`groupNumber` is written as 1 for every product and means nothing), so
/// it is marked `_derivedFromTransactions` and plan actions refuse to run against it.
/// A product whose transactions say it is a consumable, non-consumable or non-renewing
/// subscription (`type`) is written as the `.storekit` file would list it (`products`,
/// `nonRenewingSubscriptions`), never as a plan of a subscription group.
enum DerivedCatalog {
  static let marker = "_derivedFromTransactions"

  static func build(transactions: [TransactionPayload], renewalInfo: RenewalInfoPayload?) -> JSONObject {
    var groupOrder: [String] = []
    var products: [String: [String]] = [:]  // group → product ids, first seen
    var groupOf: [String: String] = [:]
    let others = otherProducts(transactions)
    // By index: each payload is ~30 fields, and a copy per step (a `for t in`, a `filter`, a sort
    // of payloads) retained and released all of them; this was 6 % of a 10,000-transaction import.
    for i in transactions.indices {
      guard let pid = transactions[i].productId, groupOf[pid] == nil, others.kinds[pid] == nil else { continue }
      let g = transactions[i].subscriptionGroupIdentifier ?? "imported"
      if products[g] == nil { groupOrder.append(g) }
      products[g, default: []].append(pid)
      groupOf[pid] = g
    }
    for pid in [renewalInfo?.productId, renewalInfo?.autoRenewProductId].compactMap({ $0 }) where groupOf[pid] == nil && others.kinds[pid] == nil {
      let g = groupOrder.first ?? "imported"
      if products[g] == nil { groupOrder.append(g) }
      products[g, default: []].append(pid)
      groupOf[pid] = g
    }
    let groups: [JSON] = groupOrder.sorted().map { g in
      let subs: [JSON] = (products[g] ?? []).sorted().map { pid in .object(product(pid, group: g, transactions)) }
      return .object(JSONObject([("id", .string(g)), ("name", .string(g)), ("subscriptions", .array(subs))]))
    }
    var catalog = JSONObject([(marker, .bool(true)), ("subscriptionGroups", .array(groups))])
    let listed = others.order.map { pid in (pid, otherProduct(pid, storeKitType: others.kinds[pid] ?? "", transactions)) }
    let consumables = listed.filter { others.kinds[$0.0] != nonRenewingType }.map { JSON.object($0.1) }
    let nonRenewing = listed.filter { others.kinds[$0.0] == nonRenewingType }.map { JSON.object($0.1) }
    if !consumables.isEmpty { catalog["products"] = .array(consumables) }
    if !nonRenewing.isEmpty { catalog["nonRenewingSubscriptions"] = .array(nonRenewing) }
    return catalog
  }

  static let nonRenewingType = "NonRenewingSubscription"

  /// The products whose transactions are not auto-renewable, with the `.storekit` `type` for each
  /// (sorted ids). The newest transaction of a product that carries a `type` decides; a product
  /// none of whose transactions carries one stays a plan, as before (the verdict says unknown).
  static func otherProducts(_ all: [TransactionPayload]) -> (order: [String], kinds: [String: String]) {
    var newest: [String: (ms: Double, type: String)] = [:]
    for i in all.indices {
      guard let pid = all[i].productId, let type = all[i].type else { continue }
      let ms = all[i].purchaseDate?.ms ?? 0
      // Equal dates: the first in history order wins, as `product` orders them.
      if let seen = newest[pid], seen.ms >= ms { continue }
      newest[pid] = (ms, type)
    }
    var kinds: [String: String] = [:]
    for (pid, n) in newest where n.type != PurchaseVerdict.autoRenewable { kinds[pid] = storeKitType(n.type) }
    return (kinds.keys.sorted(), kinds)
  }

  /// The `.storekit` `type` for Apple's transaction `type`; one this reader does not know is kept
  /// as written (shown as it is, like an unknown `.storekit` type).
  static func storeKitType(_ transactionType: String) -> String {
    switch transactionType {
    case "Consumable": return "Consumable"
    case "Non-Consumable": return "NonConsumable"
    case "Non-Renewing Subscription": return nonRenewingType
    default: return transactionType
    }
  }

  /// A consumable, non-consumable or non-renewing subscription as its transactions show it: its
  /// id (no display name is in a transaction) and its newest known price.
  static func otherProduct(_ pid: String, storeKitType: String, _ all: [TransactionPayload]) -> JSONObject {
    var o = JSONObject([("productID", .string(pid)), ("referenceName", .string(pid)), ("type", .string(storeKitType))])
    var newestPriced: Int?
    for i in all.indices where all[i].productId == pid {
      guard let price = all[i].price, price >= 0 else { continue }
      if let n = newestPriced, (all[n].purchaseDate?.ms ?? 0) >= (all[i].purchaseDate?.ms ?? 0) { continue }
      newestPriced = i
    }
    if let i = newestPriced, let price = all[i].price {
      o["displayPrice"] = .string(Format.money(milliunits: price, currency: ""))
      if let c = all[i].currency { o["_currency"] = .string(c) }
    }
    return o
  }

  /// Product `pid` as the transactions of it in `all` show it.
  static func product(_ pid: String, group: String, _ all: [TransactionPayload]) -> JSONObject {
    // Indices of the product's transactions, newest first; equal dates keep history order.
    let newestFirst = all.indices.filter { all[$0].productId == pid }.sorted { i, j in
      let a = all[i].purchaseDate?.ms ?? 0, b = all[j].purchaseDate?.ms ?? 0
      return a != b ? a > b : i < j
    }
    let regular = newestFirst.filter { all[$0].offerType == nil }
    var o = JSONObject([("productID", .string(pid)), ("referenceName", .string(pid)), ("groupNumber", .int(1))])
    let period = regular.lazy.compactMap { inferPeriod(all[$0]) }.first
    o["recurringSubscriptionPeriod"] = .string(period ?? "P1M")
    if period == nil { o["_periodKnown"] = .bool(false) }
    if let index = (regular.first { all[$0].price != nil } ?? newestFirst.first { all[$0].price != nil }),
       let price = all[index].price, price >= 0 {
      o["displayPrice"] = .string(Format.money(milliunits: price, currency: ""))
      if let c = all[index].currency { o["_currency"] = .string(c) }
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
