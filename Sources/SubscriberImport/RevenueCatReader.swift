import CoreValues
import DashModel
import SubscriberStorage
/// A RevenueCat GET /v1/subscribers response. Its App Store subscriptions become transactions
/// (RevenueCat keeps dates and flags, not Apple's payloads, so the provenance says `revenuecat`);
/// purchases from other stores (Play Store, Stripe, promotional, …) are kept as RevenueCat wrote
/// them under `imported.otherStores`, never forced into Apple's model.
struct RevenueCatReader {
  let label: String
  var items = ImportedItems()

  static func recognises(_ o: JSONObject) -> Bool {
    guard let s = o["subscriber"]?.objectValue else { return false }
    return s["subscriptions"] != nil || s["entitlements"] != nil || s["original_app_user_id"] != nil || o["request_date_ms"] != nil
  }

  mutating func read(_ o: JSONObject, at path: JSONPath) throws(DecodeError) {
    let sp = path.appending("subscriber")
    let sub = try ObjectReader(o["subscriber"]!, at: sp)
    let user = try sub.string("original_app_user_id")
    let provenance = Provenance(input: label, shape: "RevenueCat customer", signature: .revenueCat, environment: nil)
    if let subs = try sub.object("subscriptions") {
      for (productId, value) in subs.object.entries {
        let p = subs.path.appending(productId)
        let e = try ObjectReader(value, at: p)
        let store = try e.string("store") ?? "unknown"
        guard store == "app_store" else {
          items.otherStores.append(other(e.object, productId: productId, kind: "subscription"))
          continue
        }
        try addSubscription(e, productId: productId, user: user, provenance)
      }
    }
    if let nonSubs = try sub.object("non_subscriptions") {
      for (productId, value) in nonSubs.object.entries {
        guard case .array(let purchases) = value else { throw DecodeError(nonSubs.path.appending(productId), "expected an array, found \(value.kindName)") }
        for case .object(let purchase) in purchases where purchase["store"]?.stringValue != "app_store" {
          items.otherStores.append(other(purchase, productId: productId, kind: "non-subscription"))
        }
      }
    }
    items.sources.append(provenance)
  }

  func other(_ o: JSONObject, productId: String, kind: String) -> JSONObject {
    var out = JSONObject([("productId", .string(productId)), ("kind", .string(kind)), ("input", .string(label))])
    for (k, v) in o.entries where out[k] == nil { out[k] = v }
    return out
  }

  /// One App Store subscription as a transaction plus the renewal info RevenueCat's flags imply.
  mutating func addSubscription(_ e: ObjectReader, productId: String, user: String?, _ provenance: Provenance) throws(DecodeError) {
    let env = try e.bool("is_sandbox") == true ? "Sandbox" : "Production"
    var prov = provenance
    prov.environment = env
    let purchase = try date(e, "purchase_date")
    let expires = try date(e, "expires_date")
    let original = try date(e, "original_purchase_date")
    var t = JSONObject()
    // RevenueCat has no Apple transaction id here: a stable stand-in keeps deduplication working.
    let tid = try e.string("store_transaction_id") ?? "revenuecat:\(productId):\(purchase.map { String(Int64($0.ms)) } ?? "?")"
    t["transactionId"] = .string(tid)
    if let otid = try e.string("original_transaction_id") { t["originalTransactionId"] = .string(otid) }
    t["productId"] = .string(productId)
    if let purchase { t["purchaseDate"] = .double(purchase.ms) }
    if let original { t["originalPurchaseDate"] = .double(original.ms) }
    if let expires { t["expiresDate"] = .double(expires.ms) }
    t["type"] = .string("Auto-Renewable Subscription")
    if let own = try e.string("ownership_type") { t["inAppOwnershipType"] = .string(own) }
    let periodType = try e.string("period_type")
    if periodType == "intro" || periodType == "trial" { t["offerType"] = .int(1) }
    if let refunded = try date(e, "refunded_at") { t["revocationDate"] = .double(refunded.ms) }
    t["environment"] = .string(env)
    if let user { t["appUserId"] = .string(user) }
    t[Provenance.key] = prov.json
    items.transactions.append(try TransactionPayload(ObjectReader(t, at: e.path)))

    var r = JSONObject()
    if let otid = t["originalTransactionId"] { r["originalTransactionId"] = otid }
    r["productId"] = .string(productId)
    r["autoRenewProductId"] = .string(productId)
    let unsubscribed = try date(e, "unsubscribe_detected_at")
    let billing = try date(e, "billing_issues_detected_at")
    r["autoRenewStatus"] = .int(unsubscribed == nil ? 1 : 0)
    if unsubscribed != nil { r["expirationIntent"] = .int(1) }
    if billing != nil { r["isInBillingRetryPeriod"] = .bool(true) }
    if let grace = try date(e, "grace_period_expires_date") { r["gracePeriodExpiresDate"] = .double(grace.ms) }
    if let expires { r["renewalDate"] = .double(expires.ms) }
    r["environment"] = .string(env)
    // RevenueCat gives no signedDate: the purchase date orders its renewal infos.
    if let purchase { r["signedDate"] = .double(purchase.ms) }
    r[Provenance.key] = prov.json
    items.renewalInfos.append(try RenewalInfoPayload(ObjectReader(r, at: e.path)))
  }

  /// RevenueCat dates are ISO 8601 strings ("2022-04-12T00:03:35Z"); `_ms` twins win when present.
  func date(_ e: ObjectReader, _ key: String) throws(DecodeError) -> Instant? {
    if let ms = try e.double(key + "_ms") { return Instant(ms: ms) }
    guard let text = try e.string(key) else { return nil }
    do { return try Format.parseDate(text) } catch {
      throw DecodeError(e.path.appending(key), "\"\(InputReader.clip(text))\" is not an ISO 8601 date")
    }
  }
}
