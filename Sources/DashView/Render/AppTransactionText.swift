import DashModel
import CoreValues

/// The app transaction `fetch` recorded (Get App Transaction Info), in words: since when and with
/// which version the customer has had the app. One sentence for the dashboard's identity area and
/// plain `show`; nil when the file has none. The file's strings are untrusted, so each is cleaned.
enum AppTransactionText {
  static func sentence(_ vm: ViewModel, dot: String) -> String? {
    guard let app = FetchedAppTransaction(document: vm.state.document) else { return nil }
    var parts = ["app transaction \(Sanitizer.clean(app.appTransactionId))"]
    if let version = app.originalApplicationVersion { parts.append("first installed version \(Sanitizer.clean(version))") }
    if let date = app.originalPurchaseDate { parts.append("app purchased \(Format.date(date))") }
    parts.append("\(Sanitizer.clean(app.environment)), \(Sanitizer.clean(app.signature))")
    return parts.joined(separator: " \(dot) ")
  }
}
