import CoreValues
/// What turning auto-renew on or off means for the records only the simulation keeps in the
/// `simulation` object (a declined price increase, the current billing issue). Renewal info alone
/// cannot carry them: declining removes `priceIncreaseStatus`, so the file would otherwise forget
/// the increase and renew at the old price. The plan action (the dashboard's `a` key, a
/// scenario's `auto-renew on|off`) calls these so one key press writes a consistent file even
/// when no simulator runs.
///
/// An unreadable `simulation` object is left alone: every simulator step refuses that file with
/// the decoding error, so nothing could renew from it anyway.
enum SimulationAutoRenew {
  /// A price increase the customer declined for `productId`, asked again because auto-renew was
  /// turned back on: the App Store does not apply an increase that needs consent without it, so
  /// the customer has to answer again (priceIncreaseStatus 0, PRICE_INCREASE / PENDING). Returns
  /// the increase now pending, or nil when there was none to ask again.
  static func reaskDeclinedIncrease(in state: inout SubscriptionState, renewing productId: String, at now: Instant) -> PendingPriceIncrease? {
    guard var settings = try? SimulationSettings(of: state), var p = settings.pendingPriceIncrease,
          p.response == .declined, p.productId == productId else { return nil }
    p.response = .pending
    p.requestedDate = now
    settings.pendingPriceIncrease = p
    state.setSimulation(settings)
    return p
  }

  /// Billing retry stopped because the customer cancelled while nothing was paid for: the billing
  /// issue and any increase for the renewal that will never happen are dropped, so the simulator
  /// schedules no grace end, retry end or scripted recovery.
  static func endBillingIssue(in state: inout SubscriptionState) {
    guard var settings = try? SimulationSettings(of: state),
          settings.billingIssue != nil || settings.pendingPriceIncrease != nil else { return }
    settings.billingIssue = nil
    settings.pendingPriceIncrease = nil
    state.setSimulation(settings)
  }
}
