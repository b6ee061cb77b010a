import CoreValues
/// App Store Server API responses that hold no subscriber: given to `import`, `show` or `verify`,
/// they are named ("this is an App Store Server API Get App Transaction Info response") instead
/// of being reported as a state file missing `$.subscriber`. Recognised by their keys, so a large
/// document is named before it is parsed (InputSniffer).
public enum ResponseWithoutSubscriber: Sendable, Equatable {
  /// Get App Transaction Info: `{"signedAppTransactionInfo"}` (the app's purchase, not a subscription).
  case appTransactionInfo
  /// Get Status of Subscription Renewal Date Extensions: `{"requestIdentifier", "complete", …}`.
  case massExtensionStatus
  /// Extend Subscription Renewal Dates for All Active Subscribers: `{"requestIdentifier"}`.
  case massExtensionRequest
  /// Extend a Subscription Renewal Date: `{"originalTransactionId", "webOrderLineItemId", "success", "effectiveDate"}`.
  case renewalDateExtension
  /// Request a Test Notification: `{"testNotificationToken"}`.
  case testNotificationToken
  /// An error answer: `{"errorCode", "errorMessage"}`.
  case error(code: String, message: String)

  /// The response these top-level keys make, when they make one of the above.
  public static func recognise(keys: Set<String>, errorCode: String? = nil, errorMessage: String? = nil) -> ResponseWithoutSubscriber? {
    if keys.contains("signedAppTransactionInfo") { return .appTransactionInfo }
    if keys.contains("requestIdentifier"), keys.contains("complete") || keys.contains("succeededCount") || keys.contains("failedCount") {
      return .massExtensionStatus
    }
    if keys == ["requestIdentifier"] { return .massExtensionRequest }
    if keys.contains("webOrderLineItemId"), keys.contains("success") || keys.contains("effectiveDate") { return .renewalDateExtension }
    if keys == ["testNotificationToken"] { return .testNotificationToken }
    if keys.contains("errorCode"), keys.isSubset(of: ["errorCode", "errorMessage"]) {
      return .error(code: errorCode ?? "?", message: errorMessage ?? "")
    }
    return nil
  }

  public static func recognise(_ o: JSONObject) -> ResponseWithoutSubscriber? {
    let code: String? = switch o["errorCode"] {
    case .number(let n)?: n
    case .string(let s)?: InputReader.clip(s)
    default: nil
    }
    return recognise(keys: Set(o.entries.map(\.key)), errorCode: code, errorMessage: o["errorMessage"]?.stringValue.map(InputReader.clip))
  }

  public var name: String {
    switch self {
    case .appTransactionInfo: "an App Store Server API Get App Transaction Info response"
    case .massExtensionStatus: "an App Store Server API Get Status of Subscription Renewal Date Extensions response"
    case .massExtensionRequest: "an App Store Server API Extend Subscription Renewal Dates for All Active Subscribers response"
    case .renewalDateExtension: "an App Store Server API Extend a Subscription Renewal Date response"
    case .testNotificationToken: "an App Store Server API Request a Test Notification response"
    case .error(let code, let message): "an App Store Server API error response (\(code)\(message.isEmpty ? "" : " " + message))"
    }
  }

  /// One line: what it is and why it cannot be imported or shown.
  public var explanation: String {
    switch self {
    case .appTransactionInfo: "this is \(name); it holds the app's purchase, no subscriber"
    case .error: "this is \(name); it holds no subscriber"
    default: "this is \(name); it holds no subscriber"
    }
  }
}
