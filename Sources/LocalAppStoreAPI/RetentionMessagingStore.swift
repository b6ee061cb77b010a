import DashModel
import Foundation
import CoreValues
import SubscriberStorage
import RetentionMessaging

/// What a developer configured through the Retention Messaging API: messages, the default message
/// per product and locale, the realtime URL. One JSON document, kept where the subscribers are: in
/// the served directory's `.retention-messaging.json` (`RetentionFile`), or in the team database
/// for `serve --db` (its executable supplies that storage), so a restart keeps it.
final class RetentionMessagingStore: Sendable {
  let storage: any RetentionConfigurationStorage
  /// The developer's key as this server knows it (the one bearer tokens are checked with): written
  /// into the document with every change, so the App Store's cancel flow (`subdash-retention`)
  /// checks promotional-offer signatures against the same key Apple would (RetentionSetup).
  let developerKey: InAppPurchaseKey?

  init(storage: any RetentionConfigurationStorage, developerKey: InAppPurchaseKey? = nil) {
    self.storage = storage
    self.developerKey = developerKey
  }
  convenience init(directory: String, developerKey: InAppPurchaseKey? = nil) {
    self.init(storage: RetentionFile(directory: directory), developerKey: developerKey)
  }

  struct Contents {
    /// Each message as uploaded (its request body), by messageIdentifier, in upload order.
    var messages: [(id: String, body: JSONObject)] = []
    /// "productId/locale" → messageIdentifier.
    var defaults: [(key: String, messageId: String)] = []
    var realtimeURL: String?
    /// The In-App Purchase keys promotional offers are checked with (`InAppPurchaseKey.json`).
    var keys: [JSON] = []
  }

  /// Reads, lets `change` edit, and writes back when it returns true, all while the storage holds
  /// the document against other writers; a document that does not read is an error (never
  /// overwritten).
  func update<T: Sendable>(_ change: @escaping @Sendable (inout Contents) throws -> (T, Bool)) async throws -> T {
    let result = ResultBox<T>()
    let place = storage.place
    let developerKey = developerKey
    do {
      try await storage.update { bytes in
        do {
          var c = try Self.decode(bytes, place: place)
          let (out, changed) = try change(&c)
          result.value = out
          guard changed else { return nil }
          if let key = developerKey { c.keys = [key.json] }
          return Self.encode(c)
        } catch {
          result.refusal = error
          throw error
        }
      }
    } catch {
      // A storage may wrap what the change threw (a database transaction does): the API answers
      // the change's own refusal (404 4040015 "Message not found."), not a failure to store.
      if let refusal = result.refusal { throw refusal }
      throw error
    }
    guard let value = result.value else { throw APIFailure.unreadable(place, "the configuration store returned without deciding") }
    return value
  }

  func read() async throws -> Contents { try Self.decode(try await storage.read(), place: storage.place) }

  /// At start: a document written before (perhaps by a server with another key) names this
  /// server's key from now on. Nothing is created where nothing is configured yet. Returns
  /// whether the document changed.
  func recordDeveloperKey() async throws -> Bool {
    guard let key = developerKey else { return false }
    let place = storage.place
    let changed = ResultBox<Bool>()
    try await storage.update { bytes in
      guard let bytes else { return nil }
      var c = try Self.decode(bytes, place: place)
      guard c.keys != [key.json] else { return nil }
      c.keys = [key.json]
      changed.value = true
      return Self.encode(c)
    }
    return changed.value ?? false
  }

  static func decode(_ bytes: [UInt8]?, place: String) throws -> Contents {
    guard let bytes else { return Contents() }
    guard case .object(let o)? = try? JSONParser.parse(bytes) else { throw APIFailure.unreadable(place, "not a JSON object") }
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
    c.keys = o["inAppPurchaseKeys"]?.arrayValue ?? []
    return c
  }

  static func encode(_ c: Contents) -> [UInt8] {
    var fields: [(String, JSON)] = [
      ("messages", .array(c.messages.map { .object(JSONObject([("messageIdentifier", .string($0.id)), ("message", .object($0.body))])) })),
      ("defaults", .array(c.defaults.map { .object(JSONObject([("key", .string($0.key)), ("messageIdentifier", .string($0.messageId))])) })),
    ]
    if let url = c.realtimeURL { fields.append(("realtimeURL", .string(url))) }
    if !c.keys.isEmpty { fields.append(("inAppPurchaseKeys", .array(c.keys))) }
    return JSONWriter.write(.object(JSONObject(fields)))
  }
}

/// Where the Retention Messaging configuration document is kept.
public protocol RetentionConfigurationStorage: Sendable {
  /// Names the place in an error ("DIR/.retention-messaging.json", "postgres://…").
  var place: String { get }
  /// The document as stored, nil when there is none.
  func read() async throws -> [UInt8]?
  /// `change` gets the latest document while no other writer can change it and returns the next
  /// (nil: leave it); the next is stored whole or not at all.
  func update(_ change: @escaping @Sendable ([UInt8]?) throws -> [UInt8]?) async throws
}

/// The directory's `.retention-messaging.json`: hidden, so no listing takes it for a subscriber;
/// private (0600) and replaced atomically on every change, under the API's lock (one server per
/// directory).
struct RetentionFile: RetentionConfigurationStorage {
  let path: String
  private let lock = NSLock()
  init(directory: String) { path = directory + "/.retention-messaging.json" }
  var place: String { path }

  func read() async throws -> [UInt8]? { lock.withLock { load() } }

  func update(_ change: @escaping @Sendable ([UInt8]?) throws -> [UInt8]?) async throws {
    try lock.withLock {
      guard let next = try change(load()) else { return }
      do { try AtomicWriter.write(next, to: path, alwaysPrivate: true) } catch { throw APIFailure.unreadable(path, "\(error)") }
    }
  }

  private func load() -> [UInt8]? { FileManager.default.contents(atPath: path).map { [UInt8]($0) } }
}

/// What `update`'s change returned or threw, carried out of the storage's closure.
private final class ResultBox<T>: @unchecked Sendable {
  var value: T?
  var refusal: (any Error)?
}
