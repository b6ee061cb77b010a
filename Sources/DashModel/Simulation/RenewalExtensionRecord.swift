import CoreValues
/// One renewal-date extension granted to this subscription, kept in `simulation.renewalExtensions`
/// because no App Store payload says how many extensions a subscription has had, and Apple allows
/// at most two per 365 days (SubscriptionMaxExtensionError).
public struct RenewalExtensionRecord: Equatable, Sendable {
  public var source: JSONObject
  /// When the extension was granted (the simulated clock).
  public var date: Instant
  public var days: Int
  public var reason: ExtendReasonCode
  /// The expiry before and after: Apple's response calls the new one `effectiveDate`.
  public var previousExpiresDate: Instant
  public var effectiveDate: Instant

  public init(date: Instant, days: Int, reason: ExtendReasonCode, previousExpiresDate: Instant, effectiveDate: Instant) {
    source = JSONObject()
    self.date = date
    self.days = days
    self.reason = reason
    self.previousExpiresDate = previousExpiresDate
    self.effectiveDate = effectiveDate
  }

  init(_ r: ObjectReader) throws(DecodeError) {
    source = r.object
    guard let d = try r.instant("date") else { throw DecodeError(r.path.appending("date"), "required date is missing") }
    date = d
    guard let n = try r.int("days"), (1...90).contains(n) else {
      throw DecodeError(r.path.appending("days"), "required number of days (1 to 90) is missing")
    }
    days = n
    let code = try r.int("reason") ?? 0
    guard let reason = ExtendReasonCode(rawValue: code) else {
      throw DecodeError(r.path.appending("reason"), "expected 0 (undeclared), 1 (customer satisfaction), 2 (other) or 3 (service issue or outage)")
    }
    self.reason = reason
    guard let before = try r.instant("previousExpiresDate"), let after = try r.instant("effectiveDate") else {
      throw DecodeError(r.path.appending("effectiveDate"), "required dates previousExpiresDate and effectiveDate are missing")
    }
    previousExpiresDate = before
    effectiveDate = after
  }

  var json: JSON {
    var w = ObjectWriter(source)
    w.set("date", date)
    w.set("days", days)
    w.set("reason", reason.rawValue)
    w.set("previousExpiresDate", previousExpiresDate)
    w.set("effectiveDate", effectiveDate)
    return w.json
  }
}
