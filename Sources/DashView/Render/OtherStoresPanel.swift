import DashModel

/// A RevenueCat customer's purchases from other stores (Play Store, Stripe, promotional grants).
/// They are not App Store data, so they are listed as RevenueCat gave them and never run through
/// Apple's rules; the dashboard and `show` print the same lines.
enum OtherStoresPanel {
  static let title = "Other stores (RevenueCat; not App Store data)"

  static func lines(_ vm: ViewModel) -> [Line] {
    vm.state.otherStoreLines.map { Line(Sanitizer.clean($0), Style(.dim)) }
  }
}
