/// Placeholder until model-life's `WinBackEligibility.evaluate` is merged: no offer is eligible.
enum SimWinBackRule {
  static func eligible(_ state: SubscriptionState, status: SubscriptionStatus?, at now: Instant) -> [String] { [] }
}
