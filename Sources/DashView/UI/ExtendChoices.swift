import DashModel
import CoreValues

/// The `e` dialog's choices: first the day count, then the reason. Apple allows any 1–90 days
/// (`subdash extend --days N` takes any of them); the picker offers the common compensations.
/// The reason is Apple's `extendReasonCode` (0–3), which the developer's server sees in the
/// RENEWAL_EXTENDED notification, so support picks it rather than having one assumed.
enum ExtendChoices {
  static let days = [1, 7, 14, 30, 90]

  /// The reasons, the one support gives most first; each names Apple's code.
  static let reasons: [ExtendReasonCode] = [.customerSatisfaction, .serviceIssueOrOutage, .other, .undeclared]

  static func items(state: SubscriptionState, at now: Instant, timing: any RenewalTiming) -> [PickerItem] {
    days.map { n in
      PickerItem(action: .extendRenewalDate(days: n, reason: .customerSatisfaction), title: counted(n, "day"))
    }
  }

  /// The second step, once the days are chosen.
  static func reasonItems(days: Int) -> [PickerItem] {
    reasons.map { r in
      PickerItem(action: .extendRenewalDate(days: days, reason: r), title: "\(r.description) (\(r.rawValue))")
    }
  }
}
