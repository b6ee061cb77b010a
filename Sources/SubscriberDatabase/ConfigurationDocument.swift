/// A configuration document to store with subscribers (`SubscriberDatabase.store`): its name, the
/// version the caller saw before it read what it stores (nil: none was stored), and the document
/// to store given the one stored now, read under its lock (nil: none).
public struct ConfigurationDocument: Sendable {
  public var name: String
  public var seen: Int64?
  public var next: @Sendable (_ current: [UInt8]?) -> [UInt8]

  public init(name: String, seen: Int64?, next: @escaping @Sendable (_ current: [UInt8]?) -> [UInt8]) {
    self.name = name
    self.seen = seen
    self.next = next
  }

  /// Exactly `bytes`, whatever is stored now.
  public init(name: String, bytes: [UInt8], seen: Int64?) {
    self.init(name: name, seen: seen) { _ in bytes }
  }
}
