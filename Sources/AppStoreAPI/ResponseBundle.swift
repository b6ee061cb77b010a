import DashModel
import Foundation

/// Which app a response's data belongs to. Apple answers only for the app the token's `bid`
/// names, but a proxy, a mock or a mixed-up key can answer with another app's customer, and a
/// fetch must never write that into this app's state file. Every `bundleId` counts: the
/// response's own field and those inside each signed payload (a notification's nested
/// transaction too), read without verifying (verification comes when the data becomes state).
enum ResponseBundle {
  /// The first bundle id in `body` other than `expected`, or nil when all are `expected`.
  static func foreign(in body: [UInt8], expected: String) -> String? {
    guard let json = try? JSONSerialization.jsonObject(with: Data(body)) else { return nil }
    return foreign(json, expected, depth: 0)
  }

  /// Apple's responses are a few levels deep, a notification's JWS two more: a response nested
  /// deeper than this is not Apple's shape, and import refuses it with its own reason.
  static let maxDepth = 12

  private static func foreign(_ value: Any, _ expected: String, depth: Int) -> String? {
    guard depth < maxDepth else { return nil }
    switch value {
    case let object as [String: Any]:
      if let id = object["bundleId"] as? String, id != expected { return id }
      for key in object.keys.sorted() {
        if let found = foreign(object[key] as Any, expected, depth: depth + 1) { return found }
      }
    case let array as [Any]:
      for element in array {
        if let found = foreign(element, expected, depth: depth + 1) { return found }
      }
    case let text as String:
      if let payload = signedPayload(text) { return foreign(payload, expected, depth: depth + 1) }
    default:
      break
    }
    return nil
  }

  /// The decoded payload of a compact JWS; nil for any other string.
  private static func signedPayload(_ text: String) -> Any? {
    guard let payload = CompactJWS.payloadBytes(text) else { return nil }
    return try? JSONSerialization.jsonObject(with: Data(payload))
  }
}
