/// A configuration document to store with subscribers (`SubscriberDatabase.store`): its name, its
/// bytes, and the version the caller saw before it read them (nil: none was stored).
public struct ConfigurationDocument: Sendable {
  public var name: String
  public var bytes: [UInt8]
  public var seen: Int64?
  public init(name: String, bytes: [UInt8], seen: Int64?) {
    self.name = name
    self.bytes = bytes
    self.seen = seen
  }
}
