import CoreValues
/// What a developer configured through `subdash serve`'s Retention Messaging endpoints, as the
/// simulated App Store reads it when a customer goes to cancel: the uploaded messages, the default
/// message per product and locale, and the realtime URL. `serve` keeps it beside the state files it
/// answers for (`DIR/.retention-messaging.json`, 0600), so a dashboard, scenario or simulator
/// working on `DIR/customer.json` finds the same configuration the developer's client set up.
public struct RetentionSetup: Equatable, Sendable {
  public static let fileName = ".retention-messaging.json"

  /// One uploaded message (UploadMessageRequestBody): header, body, bullet points and whether it
  /// names an image (Apple refuses an image for switch-plan and promotional-offer messages).
  public struct Message: Equatable, Sendable {
    public var header: String
    public var body: String
    public var bulletPoints: [String]
    public var hasImage: Bool
    public init(header: String, body: String, bulletPoints: [String] = [], hasImage: Bool = false) {
      self.header = header
      self.body = body
      self.bulletPoints = bulletPoints
      self.hasImage = hasImage
    }
  }

  /// Lowercased messageIdentifier → message.
  public var messages: [String: Message] = [:]
  /// "productId/locale" → messageIdentifier.
  public var defaults: [String: String] = [:]
  public var realtimeURL: String?
  /// The developer's In-App Purchase keys the App Store checks promotional-offer signatures with
  /// (`serve` records the one it checks bearer tokens with); none: no offer can verify.
  public var inAppPurchaseKeys: [InAppPurchaseKey] = []

  public init(messages: [String: Message] = [:], defaults: [String: String] = [:], realtimeURL: String? = nil,
              inAppPurchaseKeys: [InAppPurchaseKey] = []) {
    self.messages = messages
    self.defaults = defaults
    self.realtimeURL = realtimeURL
    self.inAppPurchaseKeys = inAppPurchaseKeys
  }

  /// True when going to cancel can show anything but Apple's plain cancel page.
  public var isEmpty: Bool { realtimeURL == nil && defaults.isEmpty }

  /// Where the configuration of the directory holding `statePath` lives.
  public static func path(besideStateFile statePath: String) -> String {
    PathName.directory(of: statePath) + "/" + fileName
  }


  /// The file as `serve` writes it: {"messages": [{messageIdentifier, message}], "defaults":
  /// [{key, messageIdentifier}], "realtimeURL", "inAppPurchaseKeys": [{keyId, issuerId, bundleId,
  /// publicKey}]}.
  public static func parse(_ bytes: [UInt8], path: String) throws(RetentionSetupError) -> RetentionSetup {
    guard case .object(let o)? = try? JSONParser.parse(bytes) else { throw RetentionSetupError(description: "\(path): not a JSON object") }
    var setup = RetentionSetup()
    for (i, item) in (o["messages"]?.arrayValue ?? []).enumerated() {
      guard let m = item.objectValue, let id = m["messageIdentifier"]?.stringValue, let body = m["message"]?.objectValue,
            let header = body["header"]?.stringValue, let text = body["body"]?.stringValue else {
        throw RetentionSetupError(description: "\(path): messages[\(i)] is not a message with messageIdentifier, header and body")
      }
      let bullets = (body["bulletPoints"]?.arrayValue ?? []).compactMap { $0.objectValue?["text"]?.stringValue }
      setup.messages[id.lowercased()] = Message(header: header, body: text, bulletPoints: bullets, hasImage: body["image"]?.objectValue != nil)
    }
    for (i, item) in (o["defaults"]?.arrayValue ?? []).enumerated() {
      guard let d = item.objectValue, let key = d["key"]?.stringValue, let id = d["messageIdentifier"]?.stringValue else {
        throw RetentionSetupError(description: "\(path): defaults[\(i)] has no key and messageIdentifier")
      }
      setup.defaults[key] = id.lowercased()
    }
    if let url = o["realtimeURL"] {
      guard let text = url.stringValue, text.hasPrefix("https://") || text.hasPrefix("http://") else {
        throw RetentionSetupError(description: "\(path): realtimeURL is not an http(s) URL")
      }
      setup.realtimeURL = text
    }
    for (i, item) in (o["inAppPurchaseKeys"]?.arrayValue ?? []).enumerated() {
      guard let key = InAppPurchaseKey(json: item) else {
        throw RetentionSetupError(description: "\(path): inAppPurchaseKeys[\(i)] is not a key with keyId, issuerId, bundleId and a PEM publicKey")
      }
      setup.inAppPurchaseKeys.append(key)
    }
    return setup
  }

  /// The default message for a product and locale (Apple: text messages only, so one naming an
  /// image is shown without it; a default whose message was deleted is none).
  public func defaultMessage(productId: String, locale: String) -> (id: String, message: Message)? {
    guard let id = defaults[productId + "/" + locale], let m = messages[id] else { return nil }
    return (id, m)
  }
}

public struct RetentionSetupError: Error, Sendable, CustomStringConvertible {
  public let description: String
  public init(description: String) { self.description = description }
}

extension RetentionSetup {
  /// The file as `serve` writes it (messages and defaults in a stable order).
  public var json: JSON {
    var fields: [(String, JSON)] = [
      ("messages", .array(messages.sorted { $0.key < $1.key }.map { id, m in
        var body: [(String, JSON)] = [("header", .string(m.header)), ("body", .string(m.body))]
        if !m.bulletPoints.isEmpty { body.append(("bulletPoints", .array(m.bulletPoints.map { .object(JSONObject([("text", .string($0))])) }))) }
        return .object(JSONObject([("messageIdentifier", .string(id)), ("message", .object(JSONObject(body)))]))
      })),
      ("defaults", .array(defaults.sorted { $0.key < $1.key }.map { .object(JSONObject([("key", .string($0.key)), ("messageIdentifier", .string($0.value))])) })),
    ]
    if let realtimeURL { fields.append(("realtimeURL", .string(realtimeURL))) }
    if !inAppPurchaseKeys.isEmpty { fields.append(("inAppPurchaseKeys", .array(inAppPurchaseKeys.map(\.json)))) }
    return .object(JSONObject(fields))
  }

}
