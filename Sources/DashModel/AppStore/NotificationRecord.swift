import CoreValues
/// One App Store Server Notification V2, as the log keeps it: the decoded envelope fields plus
/// `status` from `data`. Types and subtypes are open enums, so new ones Apple adds still load.
public struct NotificationRecord: Equatable, Sendable {
  public var source: JSONObject
  public var notificationType: NotificationType
  public var subtype: NotificationSubtype?
  public var notificationUUID: String?
  public var signedDate: Instant?
  public var status: SubscriptionStatus?
  /// The product the event concerns, when known (SubDash adds it; Apple carries it inside the JWS).
  public var productId: String?
  /// A one-line human summary SubDash writes for the log ("renewed Pro Monthly for 9.99 USD").
  public var summary: String?

  public init(type: NotificationType, subtype: NotificationSubtype? = nil, uuid: String?, signedDate: Instant?, status: SubscriptionStatus?, productId: String? = nil, summary: String? = nil) {
    source = JSONObject()
    notificationType = type
    self.subtype = subtype
    notificationUUID = uuid
    self.signedDate = signedDate
    self.status = status
    self.productId = productId
    self.summary = summary
  }

  public init(_ r: ObjectReader) throws(DecodeError) {
    source = r.object
    notificationType = NotificationType(rawValue: try r.requiredString("notificationType"))
    subtype = try r.stringEnum("subtype")
    notificationUUID = try r.string("notificationUUID")
    signedDate = try r.instant("signedDate")
    // Accept both the flattened log form and Apple's envelope with `data.status`.
    if let s: SubscriptionStatus = try r.intEnum("status") {
      status = s
    } else if let data = try r.object("data") {
      status = try data.intEnum("status")
    }
    productId = try r.string("productId")
    // Apple's RENEWAL_EXTENSION / SUMMARY payload has a `summary` *object*; it stays in `source`.
    summary = r.object["summary"]?.objectValue == nil ? try r.string("summary") : nil
  }

  public var json: JSON {
    var w = ObjectWriter(source)
    w.set("notificationType", notificationType)
    w.set("subtype", subtype)
    w.set("notificationUUID", notificationUUID)
    w.set("signedDate", signedDate)
    if source["data"] == nil { w.set("status", status) }
    w.set("productId", productId)
    if source["summary"]?.objectValue == nil { w.set("summary", summary) }
    return w.json
  }

  /// Where a notification received without a `notificationUUID` keeps what identifies it: the
  /// SHA-256 (hex) of its signed payload, set by `subdash listen`. Apple retries a notification
  /// with the same signed payload, so a redelivery of one Apple (or a test signer) sent without a
  /// UUID is recognised and stored once (docs/notifications.md).
  public static let payloadDigestKey = "signedPayloadSHA256"

  /// What makes two copies of this notification the same one: Apple's `notificationUUID`, else the
  /// digest of its signed payload; nil for neither (an imported log entry without a UUID, which
  /// imports tell apart by content).
  public var identity: String? { notificationUUID ?? source[Self.payloadDigestKey]?.stringValue }

  /// "DID_FAIL_TO_RENEW / GRACE_PERIOD", the way developers write it.
  public var label: String { subtype.map { "\(notificationType.rawValue) / \($0.rawValue)" } ?? notificationType.rawValue }
}
