import CoreValues
/// A refund the customer asked for that the App Store has not decided yet, kept in
/// `simulation.refundRequest`. Apple sends CONSUMPTION_REQUEST and waits 12 hours for the
/// developer's consumption information (Send Consumption Information; appstore-server-api.md §3.10),
/// then decides: REFUND or REFUND_DECLINED.
public struct RefundRequest: Equatable, Sendable {
  public var source: JSONObject
  public var requestedDate: Instant
  public var reason: ConsumptionRequestReason
  public var transactionId: String?
  /// What the developer's server sent (Send Consumption Information), once it has.
  public var consumption: ConsumptionInformation?

  /// Apple: respond "within 12 hours" of the CONSUMPTION_REQUEST notification.
  public static let consumptionResponseWindow = Span.hours(12)

  public var consumptionDeadline: Instant { requestedDate + Self.consumptionResponseWindow }

  public init(requestedDate: Instant, reason: ConsumptionRequestReason, transactionId: String?) {
    source = JSONObject()
    self.requestedDate = requestedDate
    self.reason = reason
    self.transactionId = transactionId
  }

  /// Whether consumption information that arrived at `date` came within Apple's 12 hours.
  public func isInTime(_ date: Instant) -> Bool { date <= consumptionDeadline }

  init(_ r: ObjectReader) throws(DecodeError) {
    source = r.object
    guard let d = try r.instant("requestedDate") else { throw DecodeError(r.path.appending("requestedDate"), "required date is missing") }
    requestedDate = d
    reason = try r.stringEnum("reason") ?? .other
    transactionId = try r.string("transactionId")
    consumption = try r.object("consumptionInformation").map { (o) throws(DecodeError) in try ConsumptionInformation(o) }
  }

  var json: JSON {
    var w = ObjectWriter(source)
    w.set("requestedDate", requestedDate)
    w.set("reason", reason.rawValue)
    w.set("transactionId", transactionId)
    w.set("consumptionInformation", json: consumption?.json)
    return w.json
  }
}
