import DashModel
import Foundation

/// What a developer configured through the Retention Messaging API: messages, the default message
/// per product and locale, the realtime URL. Kept in the served directory's
/// `.retention-messaging.json` (hidden, so no listing takes it for a subscriber), private (0600),
/// replaced atomically on every change, under the API's lock (one server per directory).
final class RetentionMessagingStore: @unchecked Sendable {
  let path: String
  private let lock = NSLock()

  init(directory: String) { path = directory + "/.retention-messaging.json" }

  struct Contents {
    /// Each message as uploaded (its request body), by messageIdentifier, in upload order.
    var messages: [(id: String, body: JSONObject)] = []
    /// "productId/locale" → messageIdentifier.
    var defaults: [(key: String, messageId: String)] = []
    var realtimeURL: String?
  }

  /// Reads, lets `change` edit, and writes back when it returns true; a file that does not read
  /// is an error (never overwritten).
  func update<T>(_ change: (inout Contents) throws -> (T, Bool)) throws -> T {
    try lock.withLock {
      var c = try load()
      let (out, changed) = try change(&c)
      if changed { try save(c) }
      return out
    }
  }

  func read() throws -> Contents { try lock.withLock { try load() } }

  private func load() throws -> Contents {
    guard let data = FileManager.default.contents(atPath: path) else { return Contents() }
    guard case .object(let o)? = try? JSONParser.parse([UInt8](data)) else { throw APIFailure.unreadable(path, "not a JSON object") }
    var c = Contents()
    for m in o["messages"]?.arrayValue ?? [] {
      guard let m = m.objectValue, let id = m["messageIdentifier"]?.stringValue, let body = m["message"]?.objectValue else { continue }
      c.messages.append((id, body))
    }
    for d in o["defaults"]?.arrayValue ?? [] {
      guard let d = d.objectValue, let k = d["key"]?.stringValue, let id = d["messageIdentifier"]?.stringValue else { continue }
      c.defaults.append((k, id))
    }
    c.realtimeURL = o["realtimeURL"]?.stringValue
    return c
  }

  private func save(_ c: Contents) throws {
    var fields: [(String, JSON)] = [
      ("messages", .array(c.messages.map { .object(JSONObject([("messageIdentifier", .string($0.id)), ("message", .object($0.body))])) })),
      ("defaults", .array(c.defaults.map { .object(JSONObject([("key", .string($0.key)), ("messageIdentifier", .string($0.messageId))])) })),
    ]
    if let url = c.realtimeURL { fields.append(("realtimeURL", .string(url))) }
    do { try AtomicWriter.write(JSONWriter.write(.object(JSONObject(fields))), to: path) } catch { throw APIFailure.unreadable(path, "\(error)") }
  }
}
