import CoreValues
/// The customer actions on a subscription, as pure functions of the state and `now`.
///
/// `preview` says what an action would do (for a confirmation line); `apply` returns the `Change`
/// to save through the store (`SubscriberStore.update`). Both run the same computation, so a preview never promises
/// something `apply` would not do. A refused action is an `ActionError` with a one-line reason;
/// nothing is ever silently skipped.
///
/// `timing` sets how long new periods last: calendar periods in real time (the default), or the
/// simulation's accelerated rate, where StoreKit testing also shortens the periods it writes.
public enum Actions {
  /// `history`: where a transaction an action names is found (`.refundTransaction`); by default
  /// in the state itself (its latest transaction and inline history).
  public static func preview(_ a: PlanAction, in s: SubscriptionState, at now: Instant, timing: any RenewalTiming = TimeRate.realTime,
                             history: TransactionLookup? = nil) -> Result<ActionPreview, ActionError> {
    outcome(a, s, now, timing, history ?? .inState(s)).map { o in
      var p = o.preview
      p.also = PreviewAlso.changes(from: s, to: o.change.state, summary: p.summary)
      return p
    }
  }

  public static func apply(_ a: PlanAction, to s: SubscriptionState, at now: Instant, timing: any RenewalTiming = TimeRate.realTime,
                           history: TransactionLookup? = nil) -> Result<Change, ActionError> {
    outcome(a, s, now, timing, history ?? .inState(s)).map { outcome in
      var change = outcome.change
      AppTransactionIdentity.stampRenewalInfo(&change.state)
      return change
    }
  }

  static func outcome(_ a: PlanAction, _ s: SubscriptionState, _ now: Instant, _ timing: any RenewalTiming,
                      _ history: TransactionLookup) -> Result<Outcome, ActionError> {
    // A catalog `subdash import` derived from transactions has no levels: every plan action would
    // guess. Refunding a transaction needs none: it acts on what was paid.
    if s.catalog.derivedFromTransactions, !a.isRefund { return .failure(.other(Catalog.noCatalogMessage)) }
    let ctx = ActionContext(state: s, now: now, timing: timing)
    do throws(ActionError) {
      switch a {
      case .upgrade(let id): return .success(try Upgrade.outcome(to: id, ctx))
      case .downgrade(let id): return .success(try Downgrade.outcome(to: id, ctx))
      case .crossgrade(let id): return .success(try Crossgrade.outcome(to: id, ctx))
      case .redeemOfferCode(let code): return .success(try RedeemCode.outcome(typed: code, ctx))
      case .acceptWinBack(let id): return .success(try WinBack.outcome(offerId: id, ctx))
      case .setAutoRenew(let on): return .success(try AutoRenew.outcome(on: on, ctx))
      case .applyPromotionalOffer(let id, let productId): return .success(try PromotionalOffer.outcome(offerId: id, productId: productId, ctx))
      case .buy(let id, let plan): return .success(try BuyOrResubscribe.outcome(productId: id, billingPlan: plan, s, at: now))
      case .extendRenewalDate(let days, let reason): return .success(try ExtendRenewal.outcome(days: days, reason: reason, ctx))
      case .refundTransaction(let id, let prorated):
        return .success(try RefundTransaction.outcome(transactionId: id, prorated: prorated, s, at: now, history: history))
      }
    } catch {
      return .failure(error)
    }
  }
}
