import DashModel
import CoreValues

/// The plan panel's line for a refund request awaiting the App Store's decision: Apple sent
/// CONSUMPTION_REQUEST and gives the developer 12 hours to send consumption information.
enum RefundRequestText {
  static func line(_ state: SubscriptionState, now: Instant, compact: Bool) -> String? {
    guard let request = (try? Simulator.settings(state))?.refundRequest else { return nil }
    let deadline = request.consumptionDeadline
    let asked = "refund requested (\(request.reason)) \(PlanText.date(request.requestedDate, compact: compact, now: now))"
    if let sent = request.consumption {
      let when = request.isInTime(sent.receivedDate) ? "" : ", after the 12 hours (ignored)"
      return "\(asked); consumption info sent \(PlanText.date(sent.receivedDate, compact: compact, now: now))\(when): \(Sanitizer.clean(sent.summary))"
    }
    let due = deadline > now
      ? "consumption info due by \(PlanText.date(deadline, compact: compact, now: now)) (in \(Format.countdown(deadline - now)))"
      : "the 12 hours for consumption info ended \(PlanText.date(deadline, compact: compact, now: now))"
    return "\(asked); \(due)"
  }
}
