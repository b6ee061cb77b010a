import DashModel
import CoreValues

/// Which app and environment a notification is for. Apple's payload carries exactly one of `data`
/// (a subscriber's event), `summary` (a mass extension's end), `appData` (RESCIND_CONSENT) or
/// `externalPurchaseToken` (EXTERNAL_PURCHASE_TOKEN), and the app is named inside that one; Apple's
/// libraries read it from whichever is there (docs/notifications.md, "What is accepted").
struct NotificationScope {
  static let fields = ["data", "summary", "appData", "externalPurchaseToken"]

  /// The one field present, e.g. "appData".
  let field: String
  let bundleId: String?
  let environment: String?

  /// nil when the payload carries none of the four, or more than one (then nothing says which app).
  init?(_ payload: JSONObject) {
    let present = Self.fields.filter { payload[$0] != nil }
    guard present.count == 1, let field = present.first, let object = payload[field]?.objectValue else { return nil }
    self.field = field
    bundleId = object["bundleId"]?.stringValue
    if field == "externalPurchaseToken" {
      // An external purchase token carries no environment: Apple's libraries take Sandbox when its
      // externalPurchaseId starts with "SANDBOX", Production otherwise.
      environment = object["externalPurchaseId"]?.stringValue?.hasPrefix("SANDBOX") == true ? "Sandbox" : "Production"
    } else {
      environment = object["environment"]?.stringValue
    }
  }

  /// Which of the four a payload carries, for a refusal: "none", "data and appData".
  static func present(in payload: JSONObject) -> String {
    let found = fields.filter { payload[$0] != nil }
    return found.isEmpty ? "none" : found.joined(separator: " and ")
  }

  /// About the app rather than one subscriber: nothing in it is applied to a state file.
  var isAboutTheApp: Bool { field != "data" }
}
