import CoreValues
/// Why a setting's text could not be read; one line, without location (callers add it).
public struct SimTextError: Error, Equatable, Sendable, CustomStringConvertible {
  public var message: String
  public init(_ message: String) { self.message = message }
  public var description: String { message }
}

/// How long billing grace lasts.
public enum GraceSetting: Equatable, Sendable, CustomStringConvertible {
  /// No grace: a failed renewal goes straight to billing retry.
  case off
  /// StoreKit testing's rule: 6 days for weekly periods, 16 otherwise, or the rate table's values.
  case storeKit
  /// A production length chosen in App Store Connect (3, 16 or 28 days), in subscription time;
  /// at a scaled rate it shrinks like the period it belongs to.
  case length(Span)

  /// What `--grace` and `set grace` take, as their help and errors say it: every form `init(parsing:)`
  /// reads (tested, so the help never lists a word that is refused or hides one that is read).
  public static let acceptedForms = "off, storekit (6 days for weekly plans, 16 otherwise), or a length up to 60 days: "
    + "3d, 16d, 28d (Apple's choices), a day count (16), a span at a fast rate (90s, 2h), P16D or SIXTEEN_DAYS"
  /// One value of each form in `acceptedForms`.
  public static let acceptedExamples = ["off", "storekit", "3d", "16d", "28d", "16", "90s", "2h", "P16D", "SIXTEEN_DAYS"]

  /// Reads `false`/"off", `true`/"storekit", a day count (16), "16d", "P16D" or "SIXTEEN_DAYS".
  public init(parsing text: String) throws(SimTextError) {
    let t = text.trimmedSpaces
    switch t.lowercased() {
    case "off", "none", "false", "no": self = .off; return
    case "storekit", "on", "true", "yes": self = .storeKit; return
    default: break
    }
    if let days = Int(t) { self = try Self.days(days); return }
    if let p = try? ISOPeriod(parsing: t), p.isShorterThanAMonth { self = try Self.days(p.weeks * 7 + p.days); return }
    if let p = try? ISOPeriod(appStoreConnectName: t), p.isShorterThanAMonth { self = try Self.days(p.weeks * 7 + p.days); return }
    do {
      let s = try Format.parseSpan(t)
      guard s > .zero else { throw SimTextError("a grace period must be longer than zero (or \"off\")") }
      // The same limit as a day count: a longer grace would outlast billing retry, and a value
      // accepted here is written to the file, so it must read back.
      guard s <= .days(60) else { throw SimTextError("a grace period of \(Format.span(s)) is longer than billing retry (60 days)") }
      self = .length(s)
    } catch let e as SimTextError {
      throw e
    } catch {
      throw SimTextError("\"\(t)\" is not a grace period: expected \(GraceSetting.acceptedForms)")
    }
  }

  static func days(_ n: Int) throws(SimTextError) -> GraceSetting {
    guard n > 0 else { return .off }
    guard n <= 60 else { throw SimTextError("a grace period of \(n) days is longer than billing retry (60 days)") }
    return .length(.days(Double(n)))
  }

  static func read(_ r: ObjectReader, _ key: String) throws(DecodeError) -> GraceSetting? {
    guard let v = r.object[key], v != .null else { return nil }
    switch v {
    case .bool(let b): return b ? .storeKit : .off
    case .number(let n), .string(let n):
      do { return try GraceSetting(parsing: n) } catch { throw DecodeError(r.path.appending(key), error.message) }
    default:
      throw DecodeError(r.path.appending(key), "expected false, \"storekit\", a number of days or a length such as \"16d\"")
    }
  }

  public var json: JSON {
    switch self {
    case .off: return .bool(false)
    case .storeKit: return .string("storekit")
    case .length(let s):
      let days = s / Span.day
      return days == days.rounded() ? .int(Int(days)) : .string(Format.span(s))
    }
  }

  public var description: String {
    switch self {
    case .off: return "off"
    case .storeKit: return "StoreKit testing (6 days weekly, 16 days otherwise)"
    case .length(let s): return Format.span(s)
    }
  }
}

/// App Store Connect's grace `renewalType`.
public enum GraceRenewalType: String, Equatable, Sendable {
  case allRenewals = "ALL_RENEWALS"
  /// No grace when a free offer converts to paid.
  case paidToPaidOnly = "PAID_TO_PAID_ONLY"
}

/// What one renewal attempt does. Scripts queue these in `renewalOutcomes`.
public enum RenewalOutcome: Equatable, Sendable {
  case ok
  /// Fails; the issue lasts until resolved or until billing retry ends.
  case fail
  /// Fails, then the App Store's retry succeeds halfway through grace.
  case recoverInGrace
  /// Fails, then succeeds halfway between the end of grace (or the failure) and the end of retry.
  case recoverInRetry
  /// Fails, then succeeds this much subscription time after the failed renewal date.
  case recoverAfter(Span)

  public init(parsing text: String) throws(SimTextError) {
    let t = text.trimmedSpaces.lowercased()
    switch t {
    case "ok", "renew", "success": self = .ok
    case "fail", "failure": self = .fail
    case "recover-in-grace", "recover in grace": self = .recoverInGrace
    case "recover-in-retry", "recover in retry": self = .recoverInRetry
    default:
      for prefix in ["recover-after ", "recover after ", "recover-after:"] where t.hasPrefix(prefix) {
        do {
          self = .recoverAfter(try Format.parseSpan(String(t.dropFirst(prefix.count))))
          return
        } catch {
          throw SimTextError("\(error)")
        }
      }
      throw SimTextError("\"\(text)\" is not a renewal outcome: expected ok, fail, recover-in-grace, recover-in-retry or recover-after 3d")
    }
  }

  public var text: String {
    switch self {
    case .ok: return "ok"
    case .fail: return "fail"
    case .recoverInGrace: return "recover-in-grace"
    case .recoverInRetry: return "recover-in-retry"
    case .recoverAfter(let s): return "recover-after \(Format.span(s))"
    }
  }

  public var fails: Bool { self != .ok }
}

/// The sandbox's renewal cap as written: `true` (Apple's 12), `false`, or a number.
public enum RenewalCap: Equatable, Sendable {
  case on
  case off
  case count(Int)

  public var limit: Int? {
    switch self {
    case .on: return SandboxRenewalRate.renewalLimit
    case .off: return nil
    case .count(let n): return n
    }
  }

  static func read(_ r: ObjectReader, _ key: String) throws(DecodeError) -> RenewalCap? {
    if let b = try? r.bool(key) { return b ? .on : .off }
    guard let n = try r.int(key) else { return nil }
    guard n >= 0 else { throw DecodeError(r.path.appending(key), "must be true, false or a number of renewals") }
    return .count(n)
  }

  var json: JSON {
    switch self {
    case .on: return .bool(true)
    case .off: return .bool(false)
    case .count(let n): return .int(n)
    }
  }
}

/// A renewal that failed and is being retried. Times are the App Store's, already scaled to the
/// rate in force when the renewal failed.
public struct BillingIssue: Equatable, Sendable {
  public var source: JSONObject
  /// The failed renewal date (the period's expiresDate).
  public var since: Instant
  public var gracePeriodExpiresDate: Instant?
  public var retryExpiresDate: Instant
  /// GRACE_PERIOD_EXPIRED was sent.
  public var graceExpired: Bool
  /// A scripted recovery (renewalOutcomes), if any.
  public var recoverAt: Instant?

  public init(since: Instant, gracePeriodExpiresDate: Instant?, retryExpiresDate: Instant, recoverAt: Instant?) {
    source = JSONObject()
    self.since = since
    self.gracePeriodExpiresDate = gracePeriodExpiresDate
    self.retryExpiresDate = retryExpiresDate
    graceExpired = false
    self.recoverAt = recoverAt
  }

  init(_ r: ObjectReader) throws(DecodeError) {
    source = r.object
    guard let s = try r.instant("since") else { throw DecodeError(r.path.appending("since"), "required date is missing") }
    since = s
    gracePeriodExpiresDate = try r.instant("gracePeriodExpiresDate")
    guard let e = try r.instant("retryExpiresDate") else {
      throw DecodeError(r.path.appending("retryExpiresDate"), "required date is missing")
    }
    retryExpiresDate = e
    graceExpired = try r.bool("graceExpired") ?? false
    recoverAt = try r.instant("recoverAt")
  }

  var json: JSON {
    var w = ObjectWriter(source)
    w.set("since", since)
    w.set("gracePeriodExpiresDate", gracePeriodExpiresDate)
    w.set("retryExpiresDate", retryExpiresDate)
    w.set("graceExpired", graceExpired)
    w.set("recoverAt", recoverAt)
    return w.json
  }

  /// In grace at `now` (the boundary belongs to retry, as in `Lifecycle.status`).
  public func inGrace(at now: Instant) -> Bool { gracePeriodExpiresDate.map { now < $0 } ?? false }
}

/// A price increase the App Store announced for the next renewal.
public struct PendingPriceIncrease: Equatable, Sendable {
  public enum Response: String, Sendable { case pending, accepted, declined }
  public var source: JSONObject
  public var productId: String
  public var newPriceMilli: Int64
  public var requestedDate: Instant
  public var response: Response

  public init(productId: String, newPriceMilli: Int64, requestedDate: Instant, response: Response) {
    source = JSONObject()
    self.productId = productId
    self.newPriceMilli = newPriceMilli
    self.requestedDate = requestedDate
    self.response = response
  }

  init(_ r: ObjectReader) throws(DecodeError) {
    source = r.object
    productId = try r.requiredString("productId")
    guard let p = try r.int64("newPrice"), p >= 0 else {
      throw DecodeError(r.path.appending("newPrice"), "required price in milliunits (12990 = 12.99) is missing")
    }
    newPriceMilli = p
    guard let d = try r.instant("requestedDate") else { throw DecodeError(r.path.appending("requestedDate"), "required date is missing") }
    requestedDate = d
    let t = try r.string("response") ?? "pending"
    guard let v = Response(rawValue: t) else { throw DecodeError(r.path.appending("response"), "expected pending, accepted or declined") }
    response = v
  }

  var json: JSON {
    var w = ObjectWriter(source)
    w.set("productId", productId)
    w.set("newPrice", newPriceMilli)
    w.set("requestedDate", requestedDate)
    w.set("response", response.rawValue)
    return w.json
  }
}

/// The start of a run of equal periods: the n-th renewal ends at `period.adding(n, to: date)`,
/// so day-of-month clamping (Jan 31 → Feb 28) does not drift into later months.
public struct PeriodAnchor: Equatable, Sendable {
  public var source: JSONObject
  public var date: Instant
  public var period: String
  public var count: Int

  public init(date: Instant, period: String, count: Int) {
    source = JSONObject()
    self.date = date
    self.period = period
    self.count = count
  }

  init(_ r: ObjectReader) throws(DecodeError) {
    source = r.object
    guard let d = try r.instant("date") else { throw DecodeError(r.path.appending("date"), "required date is missing") }
    date = d
    period = try r.requiredString("period")
    count = max(0, try r.int("count") ?? 0)
  }

  var json: JSON {
    var w = ObjectWriter(source)
    w.set("date", date)
    w.set("period", period)
    w.set("count", count)
    return w.json
  }
}
