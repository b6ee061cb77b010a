import CoreValues
/// The PURCHASE transaction an immediate action creates (upgrade, same-duration crossgrade, an
/// offer code or win-back offer that starts a period now), made by the one `PayloadFactory`.
struct NewTransaction {
  var product: SubscriptionProduct
  var expiresDate: Instant
  var priceMilli: Int64
  var offer: AppliedOffer?

  func build(in ctx: ActionContext, sequence: Int, previous: TransactionPayload?) -> TransactionPayload {
    let stamp = offer.map {
      PayloadFactory.OfferStamp(type: $0.type, identifier: $0.identifier, discountType: $0.discountType, period: $0.totalPeriodText)
    }
    let spec = PayloadFactory.TransactionSpec(
      sequence: sequence, productId: product.productID, groupId: product.groupID, purchaseDate: ctx.now,
      expiresDate: expiresDate, reason: .purchase, priceMilli: priceMilli, offer: stamp, ownership: nil,
      history: ctx.history)
    var t = PayloadFactory.transaction(spec, previous: previous, account: ctx.account)
    // A product with a monthly plan bought up front says so, as the simulator's purchases and
    // renewals do (SimContext.stampCommitment; WWDC26 session 210).
    if product.monthlyPlan != nil {
      t.billingPlanType = .billedUpfront
      t.commitmentInfo = nil
    }
    return t
  }
}

extension ActionContext {
  /// The account new transactions belong to when no earlier one says (see `AccountDefaults`).
  var account: AccountDefaults { AccountDefaults(state: state, settings: try? SimulationSettings(of: state)) }

  /// The currency of new prices (see `AccountDefaults`).
  var defaultCurrency: String? { account.currency }
}
