/// Every way a fetch can fail, each rendered as one line a support person can act on.
public enum AppStoreAPIError: Error, Equatable, Sendable, CustomStringConvertible {
  case credentials(String)
  /// Apple answered with an error body (or a bare status). `endpoint` names the call, e.g. "Get Transaction Info".
  case apple(endpoint: String, environment: AppStoreEnvironment, status: Int, code: Int?, message: String?)
  case unauthorized(endpoint: String, environment: AppStoreEnvironment)
  case network(endpoint: String, detail: String)
  case malformedResponse(endpoint: String, detail: String)
  case gaveUp(endpoint: String, attempts: Int, last: String)
  case orderInvalid(orderID: String)
  /// The answer holds data of another app than the credentials' `--bundle-id`.
  case otherApp(endpoint: String, environment: AppStoreEnvironment, bundleID: String, expected: String)

  /// Apple's TransactionIdNotFoundError: the trigger for the production-then-sandbox rule.
  public var isTransactionNotFound: Bool {
    if case .apple(_, _, _, let code?, _) = self { return code == 4_040_010 }
    return false
  }

  public var description: String {
    switch self {
    case .credentials(let why):
      return "credentials: \(why)"
    case .unauthorized(let endpoint, let environment):
      return "\(endpoint) (\(environment.displayName)): 401 unauthorized: Apple rejected the token; check --key-id and the "
        + ".p8 key (same key, not revoked), --issuer-id, --bundle-id, and that this machine's clock is right "
        + "(a token issued in the future is refused); an app without a production release gets 401 from production"
    case .apple(let endpoint, let environment, let status, let code, let message):
      let name = code.map { " \($0)" + (Self.explanations[$0].map { " \($0)" } ?? "") } ?? ""
      let said = message.map { ": \(Sanitize.line($0))" } ?? ""
      return "\(endpoint) (\(environment.displayName)): HTTP \(status)\(name)\(said)"
    case .network(let endpoint, let detail):
      return "\(endpoint): \(detail)"
    case .malformedResponse(let endpoint, let detail):
      return "\(endpoint): unexpected response: \(detail)"
    case .gaveUp(let endpoint, let attempts, let last):
      return "\(endpoint): gave up after \(attempts) attempts: \(last)"
    case .orderInvalid(let orderID):
      return "Look Up Order ID: order \(Sanitize.line(orderID)) is not valid (Apple returned status 1: wrong order ID, or not this app's)"
    case .otherApp(let endpoint, let environment, let bundleID, let expected):
      return "\(endpoint) (\(environment.displayName)): the answer holds data for bundle id \(Sanitize.line(bundleID, limit: 100)), "
        + "not \(Sanitize.line(expected, limit: 100)) (--bundle-id); another app's customer is never written"
    }
  }

  /// Apple's codes (appstore-server-api.md §4.2) with the action they call for.
  static let explanations: [Int: String] = [
    4_000_000: "bad request (is the order ID copied whole?)",
    4_000_002: "invalid app identifier (check --bundle-id)",
    4_000_005: "invalid revision token",
    4_000_006: "invalid transaction id (malformed; copy the number again)",
    4_000_014: "invalid pagination token",
    4_000_017: "pagination token expired",
    4_040_001: "account not found",
    4_040_002: "account not found (retryable)",
    4_040_003: "app not found (check --bundle-id)",
    4_040_004: "app not found (retryable)",
    4_040_005: "original transaction id not found (check --bundle-id and --environment)",
    4_040_006: "original transaction id not found (retryable)",
    4_040_010: "transaction id not found (check --bundle-id and --environment)",
    4_290_000: "rate limit exceeded",
    5_000_000: "Apple internal error; try again later",
    5_000_001: "Apple internal error (retryable)",
  ]

  /// Codes Apple lists under "Errors to retry".
  static let retryableCodes: Set<Int> = [4_040_002, 4_040_004, 4_040_006, 5_000_001]
}

/// Text from the network reaches a terminal: keep it printable and on one line.
enum Sanitize {
  static func line(_ s: String, limit: Int = 200) -> String {
    var out = ""
    for scalar in s.unicodeScalars.prefix(limit) {
      if scalar.value < 0x20 || scalar.value == 0x7F || (0x80..<0xA0).contains(scalar.value) || scalar.properties.generalCategory == .format {
        out += "?"
      } else {
        out.unicodeScalars.append(scalar)
      }
    }
    return out
  }
}
