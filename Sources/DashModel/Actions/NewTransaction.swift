/// Builds the PURCHASE transaction an immediate action creates (upgrade, same-duration crossgrade,
/// an offer code or win-back offer that starts a period now).
///
/// Account-level fields (originalTransactionId, bundleId, storefront, currency, ownership,
/// environment, appAccountToken, appTransactionId) carry over from the previous transaction: a
/// plan change or resubscription stays one subscription in the group. Fields that belong to one
/// transaction only (deviceVerification, advancedCommerceInfo, revocation …) do not.
struct NewTransaction {
  var product: SubscriptionProduct
  var expiresDate: Instant
  var priceMilli: Int64
  var offer: AppliedOffer?

  func build(in ctx: ActionContext, sequence: Int, previous: TransactionPayload?) -> TransactionPayload {
    var t = TransactionPayload()
    let id = Identifiers.transactionId(sequence: sequence)
    t.transactionId = id
    t.webOrderLineItemId = Identifiers.webOrderLineItemId(sequence: sequence)
    t.productId = product.productID
    t.purchaseDate = ctx.now
    t.expiresDate = expiresDate
    t.signedDate = ctx.now
    t.transactionReason = .purchase
    t.price = priceMilli
    t.offerType = offer?.type
    t.offerIdentifier = offer?.identifier
    t.offerDiscountType = offer?.discountType
    t.offerPeriod = offer?.totalPeriodText
    if let p = previous {
      t.originalTransactionId = p.originalTransactionId ?? p.transactionId ?? id
      t.originalPurchaseDate = p.originalPurchaseDate ?? p.purchaseDate
      t.bundleId = p.bundleId
      t.subscriptionGroupIdentifier = p.subscriptionGroupIdentifier ?? product.groupID
      t.quantity = p.quantity ?? 1
      t.type = p.type ?? Self.autoRenewable
      t.appAccountToken = p.appAccountToken
      t.inAppOwnershipType = p.inAppOwnershipType ?? .purchased
      t.environment = p.environment
      t.storefront = p.storefront
      t.storefrontId = p.storefrontId
      t.currency = p.currency ?? ctx.defaultCurrency
      if let app = p.source["appTransactionId"] { t.source["appTransactionId"] = app }
    } else {
      // First purchase ever: the transaction starts the subscription.
      t.originalTransactionId = id
      t.originalPurchaseDate = ctx.now
      t.bundleId = ctx.state.document.simulation?["bundleId"]?.stringValue
      t.subscriptionGroupIdentifier = product.groupID
      t.quantity = 1
      t.type = Self.autoRenewable
      t.inAppOwnershipType = .purchased
      t.environment = ctx.subscriber.renewalInfo?.environment ?? .xcode
      t.storefront = ctx.catalog.settings.storefront
      t.appAccountToken = ctx.subscriber.renewalInfo?.appAccountToken
      t.currency = ctx.defaultCurrency
    }
    return t
  }

  static let autoRenewable = "Auto-Renewable Subscription"
}

extension ActionContext {
  /// The currency of new prices: the subscriber's own, else USD for the USA storefront (the
  /// .storekit default) and unknown for other storefronts, whose currency the catalog does not say.
  var defaultCurrency: String? {
    if let c = latest?.currency ?? subscriber.renewalInfo?.currency { return c }
    let storefront = catalog.settings.storefront ?? "USA"
    return storefront == "USA" ? "USD" : nil
  }
}
