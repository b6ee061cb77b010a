import CoreValues
/// The derived lifecycle as JSON, for `subdash show --json` and scripts. Dates are App Store style
/// milliseconds plus an ISO 8601 twin (`expiresDate` and `expiresDateISO`), so both machines and
/// people can read them; enums keep their raw App Store value beside a readable name.
extension LifecycleReport {
  public var json: JSON {
    var o = JSONObject()
    o["now"] = .double(now.ms)
    o["nowISO"] = .string(now.description)
    o["status"] = status.map { .int($0.rawValue) } ?? .null
    o["statusName"] = .string(statusName)
    o["statusRule"] = .string(statusRule)
    o["access"] = .object(JSONObject([("level", .string(access.level.rawValue)), ("rule", .string(access.rule))]))
    o["productId"] = product.map { .string($0.productID) } ?? .null
    o["productName"] = product.map { .string($0.displayName) } ?? .null
    o["level"] = product.map { .int($0.level) } ?? .null
    o["groupId"] = group.map { .string($0.id) } ?? .null
    o["environment"] = environment.map { .string($0.rawValue) } ?? .null
    o["inAppOwnershipType"] = ownership.map { .string($0.rawValue) } ?? .null
    o["renewal"] = renewal.json
    if let grace {
      o["grace"] = .object(JSONObject([
        ("gracePeriodExpiresDate", .double(grace.expiresDate.ms)), ("gracePeriodExpiresDateISO", .string(grace.expiresDate.description)),
        ("remainingMs", .double(grace.remaining.ms)),
      ]))
    }
    if let billingRetry {
      o["billingRetry"] = .object(JSONObject([
        ("since", .double(billingRetry.since.ms)), ("sinceISO", .string(billingRetry.since.description)),
        ("retryUntil", .double(billingRetry.retryUntil.ms)), ("retryUntilISO", .string(billingRetry.retryUntil.description)),
        ("accessDuringRetry", .string(billingRetry.accessDuringRetry.rawValue)),
      ]))
    }
    if let expiry {
      o["expiry"] = .object(JSONObject([
        ("expiresDate", .double(expiry.date.ms)), ("expiresDateISO", .string(expiry.date.description)),
        ("expirationIntent", expiry.intent.map { .int($0.rawValue) } ?? .null), ("reason", .string(expiry.reason)),
      ]))
    }
    if let revocation {
      o["revocation"] = .object(JSONObject([
        ("revocationDate", .double(revocation.date.ms)), ("revocationDateISO", .string(revocation.date.description)),
        ("revocationReason", revocation.reason.map { .int($0.rawValue) } ?? .null),
        ("revocationType", revocation.type.map { .string($0.rawValue) } ?? .null), ("text", .string(revocation.text)),
      ]))
    }
    if let pendingChange {
      o["pendingChange"] = .object(JSONObject([
        ("kind", .string(pendingChange.kind.rawValue)), ("autoRenewProductId", .string(pendingChange.toProductId)),
        ("effectiveDate", .double(pendingChange.effectiveDate.ms)), ("effectiveDateISO", .string(pendingChange.effectiveDate.description)),
      ]))
    }
    if let priceIncrease {
      o["priceIncrease"] = .object(JSONObject([
        ("priceIncreaseStatus", .int(priceIncrease.status.rawValue)), ("statusName", .string(priceIncrease.status.description)),
        ("renewalPrice", priceIncrease.newPriceMilli.map { .int($0) } ?? .null),
        ("currency", priceIncrease.currency.map(JSON.string) ?? .null),
      ]))
    }
    if let commitment { o["commitment"] = commitment.json }
    if let offerInEffect { o["offerInEffect"] = offerInEffect.json }
    if let offerQueued { o["offerQueued"] = offerQueued.json }
    if let askToBuy, var ask = askToBuy.json.objectValue {
      ask["lapseDate"] = .double(askToBuy.lapseDate.ms)
      ask["lapseDateISO"] = .string(askToBuy.lapseDate.description)
      o["askToBuy"] = .object(ask)
    }
    o["winBack"] = .object(JSONObject([
      ("eligibleOfferIds", .array(winBack.eligible.map { .string($0.offerId) })),
      ("whyNone", winBack.whyNone.map(JSON.string) ?? .null),
      ("source", .string(winBack.source.rawValue)),
      ("unconfiguredOfferIds", .array(winBack.unconfiguredIds.map(JSON.string))),
    ]))
    o["warnings"] = .array(warnings.map(JSON.string))
    return .object(o)
  }
}

extension RenewalOutlook {
  var json: JSON {
    switch self {
    case .renews(let date, let product, let price, let currency):
      return .object(JSONObject([
        ("kind", .string("renews")), ("renewalDate", .double(date.ms)), ("renewalDateISO", .string(date.description)),
        ("autoRenewProductId", .string(product)), ("renewalPrice", price.map { .int($0) } ?? .null),
        ("currency", currency.map(JSON.string) ?? .null),
      ]))
    case .expiresAutoRenewOff(let date):
      return .object(JSONObject([("kind", .string("expires")), ("expiresDate", .double(date.ms)), ("expiresDateISO", .string(date.description))]))
    case .switches(let date, let product):
      return .object(JSONObject([
        ("kind", .string("switches")), ("effectiveDate", .double(date.ms)), ("effectiveDateISO", .string(date.description)),
        ("autoRenewProductId", .string(product)),
      ]))
    case .awaitsPriceConsent(let date, let price):
      return .object(JSONObject([
        ("kind", .string("awaitsPriceConsent")), ("renewalDate", .double(date.ms)), ("renewalDateISO", .string(date.description)),
        ("renewalPrice", price.map { .int($0) } ?? .null),
      ]))
    case .none:
      return .object(JSONObject([("kind", .string("none"))]))
    }
  }
}

extension OfferInfo {
  var json: JSON {
    .object(JSONObject([
      ("offerType", .int(type.rawValue)), ("offerIdentifier", identifier.map(JSON.string) ?? .null),
      ("offerDiscountType", discountType.map { .string($0.rawValue) } ?? .null),
      ("offerPeriod", period.map(JSON.string) ?? .null), ("periodsRemaining", periodsRemaining.map { .int($0) } ?? .null),
      ("text", .string(text)),
    ]))
  }
}
