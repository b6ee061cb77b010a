import CoreValues
/// One POST of a notification: Apple's `sendAttempts` entry (`attemptDate`, `sendAttemptResult`)
/// plus what SubDash saw (the HTTP status, how long the answer took).
public struct DeliveryAttempt: Equatable, Sendable {
  /// Wall clock of the attempt, as Apple records it.
  public var attemptDate: Instant
  public var result: SendAttemptResult
  /// The status the receiver answered, when it answered at all.
  public var httpStatus: Int?
  public var milliseconds: Int?

  public init(attemptDate: Instant, result: SendAttemptResult, httpStatus: Int? = nil, milliseconds: Int? = nil) {
    self.attemptDate = attemptDate
    self.result = result
    self.httpStatus = httpStatus
    self.milliseconds = milliseconds
  }

  init(_ r: ObjectReader) throws(DecodeError) {
    guard let date = try r.instant("attemptDate") else { throw DecodeError(r.path.appending("attemptDate"), "required date is missing") }
    let name = try r.requiredString("sendAttemptResult")
    guard let result = SendAttemptResult(rawValue: name) else {
      throw DecodeError(r.path.appending("sendAttemptResult"), "\"\(name)\" is not one of Apple's send attempt results (\(SendAttemptResult.allCases.map(\.rawValue).joined(separator: ", ")))")
    }
    attemptDate = date
    self.result = result
    httpStatus = try r.int("httpStatus")
    milliseconds = try r.int("milliseconds")
  }

  var json: JSON {
    var w = ObjectWriter(JSONObject())
    w.set("attemptDate", attemptDate)
    w.set("sendAttemptResult", result.rawValue)
    w.set("httpStatus", httpStatus)
    w.set("milliseconds", milliseconds)
    return w.json
  }
}

/// A notification on its way to the developer's server, or done: its identity, the signed body
/// (kept only while attempts remain, so every retry sends the same bytes, as Apple's do), every
/// attempt and when the next one is due.
public struct Delivery: Equatable, Sendable {
  public var notificationUUID: String
  public var notificationType: String
  public var subtype: String?
  /// The notification's own date (simulated time), which receivers order by.
  public var signedDate: Instant?
  public var signedPayload: String?
  public var sendAttempts: [DeliveryAttempt]
  /// Wall clock; nil once delivered or given up.
  public var nextAttemptDate: Instant?
  /// A deliberate second sending (`--duplicate-rate`), not a retry.
  public var isDuplicate: Bool

  public init(notificationUUID: String, notificationType: String, subtype: String?, signedDate: Instant?,
              signedPayload: String, firstAttempt: Instant, isDuplicate: Bool = false) {
    self.notificationUUID = notificationUUID
    self.notificationType = notificationType
    self.subtype = subtype
    self.signedDate = signedDate
    self.signedPayload = signedPayload
    sendAttempts = []
    nextAttemptDate = firstAttempt
    self.isDuplicate = isDuplicate
  }

  /// Apple's deprecated summary field: the earliest attempt's result.
  public var firstSendAttemptResult: SendAttemptResult? { sendAttempts.first?.result }
  public var wasDelivered: Bool { sendAttempts.last?.result == .success }
  /// "DID_FAIL_TO_RENEW / GRACE_PERIOD".
  public var label: String { subtype.map { "\(notificationType) / \($0)" } ?? notificationType }

  init(_ r: ObjectReader) throws(DecodeError) {
    notificationUUID = try r.requiredString("notificationUUID")
    notificationType = try r.requiredString("notificationType")
    subtype = try r.string("subtype")
    signedDate = try r.instant("signedDate")
    signedPayload = try r.string("signedPayload")
    sendAttempts = try r.objects("sendAttempts") { (o) throws(DecodeError) in try DeliveryAttempt(o) } ?? []
    nextAttemptDate = try r.instant("nextAttemptDate")
    isDuplicate = try r.bool("duplicate") ?? false
    if nextAttemptDate != nil && signedPayload == nil {
      throw DecodeError(r.path.appending("signedPayload"), "a delivery with attempts left needs the signed payload it sends")
    }
  }

  var json: JSON {
    var w = ObjectWriter(JSONObject())
    w.set("notificationUUID", notificationUUID)
    w.set("notificationType", notificationType)
    w.set("subtype", subtype)
    w.set("signedDate", signedDate)
    if isDuplicate { w.set("duplicate", true) }
    w.set("sendAttempts", json: .array(sendAttempts.map(\.json)))
    w.set("firstSendAttemptResult", firstSendAttemptResult?.rawValue)
    w.set("nextAttemptDate", nextAttemptDate)
    w.set("signedPayload", signedPayload)
    return w.json
  }
}
