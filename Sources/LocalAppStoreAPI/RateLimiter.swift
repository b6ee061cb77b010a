import DashModel
import Foundation
import CoreValues

/// Apple's rate limiting (App Store Server API, "Identifying rate limits"): limits apply per app
/// and per endpoint; a request over the limit is refused with HTTP 429, RateLimitExceededError
/// (4290000) in the body, and a `Retry-After` header holding "a UNIX time, in milliseconds, that
/// informs you when you can next send a request". Apple's limits are tens of requests a second,
/// enforced hourly; `serve --rate-limit N/s` sets one limit for every endpoint, counted in
/// one-second windows, so a test can make a client meet a 429 and retry without waiting an hour.
final class RateLimiter: @unchecked Sendable {
  let perSecond: Int
  private let lock = NSLock()
  private var window: Int64 = -1
  private var counts: [String: Int] = [:]

  init(perSecond: Int) { self.perSecond = perSecond }

  /// Parses `N/s` (or a bare N), 1…1000000; nil when it does not read.
  static func parse(_ text: String) -> Int? {
    let number = text.hasSuffix("/s") ? String(text.dropLast(2)) : text
    guard !number.isEmpty, number.count <= 7, number.allSatisfy({ $0.isASCII && $0.isNumber }), let n = Int(number), n >= 1 else { return nil }
    return n
  }

  /// nil when the request may go on, else the moment (ms since 1970) the next may be sent.
  func admit(method: String, path: String, at nowMs: Double) -> Int64? {
    let second = Int64((nowMs / 1000).rounded(.down))
    let key = method + " " + Self.endpoint(path)
    return lock.withLock {
      if second != window {
        window = second
        counts.removeAll(keepingCapacity: true)
      }
      let used = counts[key, default: 0]
      guard used < perSecond else { return (second + 1) * 1000 }
      counts[key] = used + 1
      return nil
    }
  }

  /// The endpoint a path names: its identifiers (transaction ids, UUIDs, product ids after a
  /// fixed word) do not make another endpoint. Segments with a digit are identifiers; so is
  /// anything past the fourth segment other than Apple's fixed words.
  static func endpoint(_ path: String) -> String {
    let fixed: Set<String> = ["inApps", "sandbox", "v1", "v2", "transactions", "subscriptions", "history", "refund", "lookup", "notifications",
                              "test", "extend", "mass", "consumption", "appAccountToken", "appTransactions", "finish", "messaging", "message",
                              "image", "list", "default", "realtime", "url", "performanceTest", "result"]
    return path.split(separator: "/").map { fixed.contains(String($0)) ? String($0) : "{}" }.joined(separator: "/")
  }

  static let body: [UInt8] = JSONWriter.write(.object(JSONObject([("errorCode", .int(4_290_000)), ("errorMessage", .string("Rate limit exceeded."))])))
}

extension LocalAppStoreAPI {
  /// `--rate-limit`'s value: requests a second, or nil when it does not read.
  public static func rateLimit(_ text: String) -> Int? { RateLimiter.parse(text) }
}
