/// How one POST of a notification went, in Apple's words (`sendAttemptResult` in Get Notification
/// History), so a developer reads the same names in SubDash as in App Store Connect.
public enum SendAttemptResult: String, Sendable, CaseIterable {
  case success = "SUCCESS"
  case timedOut = "TIMED_OUT"
  case tlsIssue = "TLS_ISSUE"
  case circularRedirect = "CIRCULAR_REDIRECT"
  case noResponse = "NO_RESPONSE"
  case socketIssue = "SOCKET_ISSUE"
  case unsupportedCharset = "UNSUPPORTED_CHARSET"
  case invalidResponse = "INVALID_RESPONSE"
  case prematureClose = "PREMATURE_CLOSE"
  case unsuccessfulHTTPResponseCode = "UNSUCCESSFUL_HTTP_RESPONSE_CODE"
  case other = "OTHER"

  /// Apple counts 200–206 as received; every other status (redirects included) is a failure
  /// that is retried.
  public static func forStatus(_ status: Int) -> SendAttemptResult {
    (200...206).contains(status) ? .success : .unsuccessfulHTTPResponseCode
  }
}
