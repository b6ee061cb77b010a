import CoreValues
/// The billing plan of a "monthly subscription with a 12-month commitment", read-only: the App
/// Store Server API added `billingPlanType` and `commitmentInfo` to the transaction and
/// `renewalBillingPlanType` to the renewal info (App Store Server Notifications changelog,
/// 2026-04-27; appstoreserverapi/transactioncommitmentinfo). The payload types now model these
/// fields (a wrong type is refused on load); this one-line description remains for a transaction
/// that is not billed monthly (`CommitmentStanding` speaks for a commitment; the simulator's
/// commitments are in Simulation/Commitment.swift).
public enum BillingPlan {
  /// "billed monthly · 12-payment commitment: payment 3 of 12, 119.88 USD in total, until DATE",
  /// or nil when the transaction carries none of the fields.
  public static func text(_ t: TransactionPayload?, renewal: RenewalInfoPayload?) -> String? {
    guard let t else { return nil }
    let r = ObjectReader(t.source, at: .root)
    var parts: [String] = []
    if let plan = try? r.string("billingPlanType") { parts.append(name(plan)) }
    if let c = try? r.object("commitmentInfo") {
      var commitment: [String] = []
      let total = try? c.int("totalBillingPeriods")
      if let n = try? c.int("billingPeriodNumber") {
        commitment.append("payment \(n)" + (total.map { " of \($0)" } ?? ""))
      }
      if let price = try? c.int64("commitmentPrice") { commitment.append("\(Money.format(price, currency: t.currency)) in total") }
      if let end = try? c.instant("commitmentExpiresDate") { commitment.append("until \(Format.date(end))") }
      let head = total.map { "\($0)-payment commitment" } ?? "commitment"
      parts.append(commitment.isEmpty ? head : "\(head): " + commitment.joined(separator: ", "))
    }
    if let next = renewal.flatMap({ try? ObjectReader($0.source, at: .root).string("renewalBillingPlanType") }) {
      parts.append("next renewal \(name(next))")
    }
    return parts.isEmpty ? nil : parts.joined(separator: " · ")
  }

  /// Apple's two values in words; anything else is named as an unknown value, never echoed (it
  /// comes from a file and may hold anything).
  static func name(_ plan: String) -> String {
    switch plan {
    case "MONTHLY": return "billed monthly"
    case "BILLED_UPFRONT": return "billed up front"
    default: return "billing plan unknown"
    }
  }
}
