import DashModel
import Foundation
import CoreValues

/// The Retention Messaging API's configuration endpoints, as Apple's client calls them
/// (`/inApps/v1/messaging/…`): Upload Message, Delete Message, Get Message List, Configure / Get /
/// Delete Default Message, Configure / Get / Delete Realtime URL. Apple reviews each message
/// (PENDING, then APPROVED or REJECTED); here a message is APPROVED when uploaded, as there is no
/// reviewer (SubDash's choice). Images (Upload Image) are not kept: an image identifier a message
/// names is taken as given.
extension LocalAppStoreAPI {
  /// At start: a Retention Messaging configuration kept from before names this server's key (the
  /// App Store checks promotional offers with it); a line for the log when it changed, nil when
  /// nothing was to change, and why when the configuration could not be read.
  public func recordDeveloperKey() async -> String? {
    do {
      return try await retention.recordDeveloperKey()
        ? "retention messaging: promotional offers are checked with key \(LogText.clip(settings.check.keyID)) from now on" : nil
    } catch {
      return "retention messaging: \(retention.storage.place): could not record the key promotional offers are checked with: \(LogText.clip("\(error)", limit: 200))"
    }
  }

  func retentionMessaging(_ method: String, _ rest: [String], _ body: [UInt8]) async throws -> Answer? {
    switch (method, rest.count) {
    case ("GET", 2) where rest == ["message", "list"]:
      let c = try await retention.read()
      let items: [JSON] = c.messages.map { .object(JSONObject([("messageIdentifier", .string($0.id)), ("messageState", .string("APPROVED"))])) }
      return Answer(object([("messageIdentifiers", .array(items))]))
    case ("PUT", 2) where rest[0] == "message":
      let id = try Self.messageIdentifier(rest[1])
      let message = try Self.checkedMessage(body)
      try await retention.update { c in
        guard !c.messages.contains(where: { $0.id == id }) else {
          throw APIFailure.invalidRequest(code: 4_090_001, message: "An error that indicates the message identifier already exists.")
        }
        guard c.messages.count < 2_000 else { throw APIFailure.invalidRequest(code: 4_030_016, message: "Maximum number of messages reached.") }
        c.messages.append((id, message))
        return ((), true)
      }
      return Answer(status: 200, note: "message \(id) uploaded")
    case ("DELETE", 2) where rest[0] == "message":
      let id = try Self.messageIdentifier(rest[1])
      try await retention.update { c in
        guard c.messages.contains(where: { $0.id == id }) else { throw Self.messageNotFound }
        c.messages.removeAll { $0.id == id }
        c.defaults.removeAll { $0.messageId == id }
        return ((), true)
      }
      return Answer(status: 200, note: "message \(id) deleted")
    case (_, 3) where rest[0] == "default":
      let key = try Self.defaultKey(productId: rest[1], locale: rest[2])
      switch method {
      case "PUT":
        guard case .object(let o)? = try? JSONParser.parse(body), let raw = o["messageIdentifier"]?.stringValue,
              let id = try? Self.messageIdentifier(raw) else { throw APIFailure.invalidRequest(code: 4_000_000, message: "Invalid request. messageIdentifier must be a UUID.") }
        try await retention.update { c in
          guard c.messages.contains(where: { $0.id == id }) else { throw Self.messageNotFound }
          c.defaults.removeAll { $0.key == key }
          c.defaults.append((key, id))
          return ((), true)
        }
        return Answer(status: 200, note: "default message for \(key): \(id)")
      case "GET":
        guard let id = try await retention.read().defaults.first(where: { $0.key == key })?.messageId else { throw Self.defaultNotFound }
        return Answer(object([("messageIdentifier", .string(id))]))
      case "DELETE":
        try await retention.update { c in
          guard c.defaults.contains(where: { $0.key == key }) else { throw Self.defaultNotFound }
          c.defaults.removeAll { $0.key == key }
          return ((), true)
        }
        return Answer(status: 200, note: "default message for \(key) deleted")
      default: throw APIFailure.notFound
      }
    case (_, 2) where rest == ["realtime", "url"]:
      switch method {
      case "PUT":
        guard case .object(let o)? = try? JSONParser.parse(body), let url = o["realtimeURL"]?.stringValue, Self.isRealtimeURL(url) else {
          throw APIFailure.invalidRequest(code: 4_000_215, message: "Invalid request. The realtime URL is invalid.")
        }
        try await retention.update { c in c.realtimeURL = url; return ((), true) }
        return Answer(status: 200, note: "realtime URL set")
      case "GET":
        guard let url = try await retention.read().realtimeURL else { throw Self.realtimeNotFound }
        return Answer(object([("realtimeURL", .string(url))]))
      case "DELETE":
        try await retention.update { c in
          guard c.realtimeURL != nil else { throw Self.realtimeNotFound }
          c.realtimeURL = nil
          return ((), true)
        }
        return Answer(status: 200, note: "realtime URL deleted")
      default: throw APIFailure.notFound
      }
    default:
      return nil
    }
  }

  static let messageNotFound = APIFailure.invalidRequest(code: 4_040_015, message: "Message not found.")
  static let defaultNotFound = APIFailure.invalidRequest(code: 4_040_020, message: "Default message not found.")
  static let realtimeNotFound = APIFailure.invalidRequest(code: 4_040_021, message: "Realtime URL not found.")

  static func messageIdentifier(_ raw: String) throws -> String {
    guard let id = AppAccountTokenUpdate.normalized(raw) else { throw APIFailure.invalidRequest(code: 4_000_000, message: "Invalid request. The message identifier must be a UUID.") }
    return id
  }

  /// A product id (App Store Connect's: letters, digits, `.`, `_`, `-`) and a locale such as en-US.
  static func defaultKey(productId: String, locale: String) throws -> String {
    guard !productId.isEmpty, productId.count <= 100, productId.allSatisfy({ $0.isASCII && ($0.isLetter || $0.isNumber || "._-".contains($0)) }) else {
      throw APIFailure.invalidRequest(code: 4_000_000, message: "Invalid request. Invalid product identifier.")
    }
    let parts = locale.split(separator: "-", omittingEmptySubsequences: false)
    guard (1...3).contains(parts.count), parts.allSatisfy({ (2...4).contains($0.count) && $0.allSatisfy { $0.isASCII && $0.isLetter } }) else {
      throw APIFailure.invalidRequest(code: 4_000_164, message: "Invalid locale.")
    }
    return productId + "/" + locale
  }

  /// Apple calls an https URL; a local test server is plain http on loopback, so http is taken too.
  /// At most 256 characters (Apple's RealtimeUrlRequest); otherwise the rules of every URL SubDash
  /// calls (OutboundURL: a port outside 1-65535 once crashed the performance test and the cancel
  /// flow that read it back).
  static func isRealtimeURL(_ text: String) -> Bool {
    text.utf8.count <= 256 && OutboundURL.refusal(text) == nil
  }

  /// Apple's rules for an uploaded message: header ≤ 66 characters (4000162), body ≤ 144 (4000163),
  /// both required; at most 5 bullet points (4000218, the limit Apple's libraries check), each with
  /// text ≤ 66 (4000219, SubDash's reading: Apple's page gives no number); ABOVE_IMAGE needs an
  /// image (4000224); alt text ≤ 150 (4000175).
  static func checkedMessage(_ body: [UInt8]) throws -> JSONObject {
    guard case .object(let o)? = try? JSONParser.parse(body), let header = o["header"]?.stringValue, let text = o["body"]?.stringValue,
          !header.isEmpty, !text.isEmpty else { throw APIFailure.invalidRequest(code: 4_000_000, message: "Invalid request. header and body are required.") }
    guard header.count <= 66 else { throw APIFailure.invalidRequest(code: 4_000_162, message: "Header text too long.") }
    guard text.count <= 144 else { throw APIFailure.invalidRequest(code: 4_000_163, message: "Body text too long.") }
    let bullets = o["bulletPoints"]?.arrayValue ?? []
    guard bullets.count <= 5 else { throw APIFailure.invalidRequest(code: 4_000_218, message: "Too many bullet points.") }
    for b in bullets {
      guard let t = b.objectValue?["text"]?.stringValue, !t.isEmpty, t.count <= 66 else {
        throw APIFailure.invalidRequest(code: 4_000_219, message: "Bullet point text too long.")
      }
      if let alt = b.objectValue?["altText"]?.stringValue, alt.count > 150 { throw APIFailure.invalidRequest(code: 4_000_175, message: "Alt text too long.") }
    }
    if let alt = o["image"]?.objectValue?["altText"]?.stringValue, alt.count > 150 { throw APIFailure.invalidRequest(code: 4_000_175, message: "Alt text too long.") }
    if o["headerPosition"]?.stringValue == "ABOVE_IMAGE", o["image"]?.objectValue == nil {
      throw APIFailure.invalidRequest(code: 4_000_224, message: "Header position ABOVE_IMAGE requires an image.")
    }
    return o
  }
}
