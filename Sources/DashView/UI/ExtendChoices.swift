import DashModel

/// The day counts the `e` picker offers. Apple allows any 1–90 days (`subdash extend --days N`
/// takes any of them); the picker offers the common compensations, each with the reason support
/// staff give most (customer satisfaction; `subdash extend --reason` chooses another).
enum ExtendChoices {
  static let days = [1, 7, 14, 30, 90]

  static func items(state: SubscriptionState, at now: Instant, timing: any RenewalTiming) -> [PickerItem] {
    days.map { n in
      PickerItem(action: .extendRenewalDate(days: n, reason: .customerSatisfaction),
                 title: "\(counted(n, "day")) (customer satisfaction)")
    }
  }
}
