import CoreValues
/// A notification as the App Store sends it (`responseBodyV2DecodedPayload`), before signing: the
/// transaction and renewal info to sign as `data.signedTransactionInfo` / `signedRenewalInfo`, and
/// the envelope that carries them. Pure: signing and sending are the deliverer's.
public struct NotificationEnvelope: Equatable, Sendable {
  public var notification: NotificationRecord
  /// Decoded JWSTransactionDecodedPayload, signed at the notification's date.
  public var transaction: JSONObject?
  /// Decoded JWSRenewalInfoDecodedPayload, signed at the notification's date.
  public var renewalInfo: JSONObject?
  public var environment: String
  public var bundleId: String?
  public var appAppleId: Int64?
  /// RENEWAL_EXTENSION / SUMMARY's `summary` object: sent instead of `data` (Apple's payload
  /// carries exactly one of them).
  public var summary: JSONObject?

  /// `transaction`: the one the notification concerns (the newest at or before it in the
  /// history); `renewalInfo`: the subscriber's as the file holds it when the notification is sent.
  public init(_ n: NotificationRecord, transaction: TransactionPayload?, renewalInfo: RenewalInfoPayload?, appAppleId: Int64? = nil) {
    notification = n
    let date = n.signedDate
    func stamped(_ o: JSONObject) -> JSONObject {
      var w = ObjectWriter(o)
      if let date { w.set("signedDate", date) }
      return w.object
    }
    // TEST and SUMMARY-like notifications concern no subscription (Apple sends no nested JWS).
    let aboutASubscription = n.notificationType != .test && n.subtype != .summary
    self.transaction = aboutASubscription ? transaction.map { stamped($0.json.objectValue ?? $0.source) } : nil
    self.renewalInfo = aboutASubscription ? renewalInfo.map { stamped($0.json.objectValue ?? $0.source) } : nil
    environment = transaction?.source["environment"]?.stringValue ?? renewalInfo?.source["environment"]?.stringValue ?? "Sandbox"
    bundleId = transaction?.bundleId
    self.appAppleId = appAppleId
  }

  /// The decoded payload with the nested JWS in place: `notificationType`, `subtype`,
  /// `notificationUUID`, `data`, `version` 2.0, `signedDate`.
  public func payload(signedTransactionInfo: String?, signedRenewalInfo: String?) -> JSON {
    var w = ObjectWriter(JSONObject())
    w.set("notificationType", notification.notificationType.rawValue)
    w.set("subtype", notification.subtype?.rawValue)
    w.set("notificationUUID", notification.notificationUUID)
    if let summary {
      w.set("summary", json: .object(summary))
    } else {
      w.set("data", json: data(signedTransactionInfo: signedTransactionInfo, signedRenewalInfo: signedRenewalInfo))
    }
    w.set("version", "2.0")
    w.set("signedDate", notification.signedDate)
    return w.json
  }

  private func data(signedTransactionInfo: String?, signedRenewalInfo: String?) -> JSON {
    var data = ObjectWriter(JSONObject())
    if let appAppleId { data.set("appAppleId", appAppleId) }
    data.set("bundleId", bundleId)
    data.set("environment", environment)
    data.set("signedTransactionInfo", signedTransactionInfo)
    data.set("signedRenewalInfo", signedRenewalInfo)
    if notification.notificationType != .test { data.set("status", notification.status?.rawValue) }
    return data.json
  }
}
