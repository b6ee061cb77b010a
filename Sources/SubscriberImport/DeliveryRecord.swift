import CoreValues
/// Get Notification History says how each notification reached the backend: `sendAttempts`
/// (`attemptDate`, `sendAttemptResult`) and, in newer responses, `firstSendAttemptResult`. The log
/// line names failed deliveries so support staff see what the backend never acknowledged.
enum DeliveryRecord {
  static let success = "SUCCESS"

  /// "delivered after 1 failed attempt (NO_RESPONSE)", "not delivered: CIRCULAR_REDIRECT (1
  /// attempt)", "first delivery failed: TIMED_OUT"; nil when every attempt succeeded or none is known.
  static func summary(of notification: JSONObject) -> String? {
    let results = (notification["sendAttempts"]?.arrayValue ?? []).compactMap { $0.objectValue?["sendAttemptResult"]?.stringValue }
    let failures = results.filter { $0 != success }
    if let last = results.last {
      if failures.isEmpty { return nil }
      let names = Array(Set(failures)).sorted().joined(separator: ", ")
      if last == success {
        return "delivered after \(counted(failures.count, "failed attempt")) (\(names))"
      }
      return "not delivered: \(names) (\(counted(results.count, "attempt")))"
    }
    if let first = notification["firstSendAttemptResult"]?.stringValue, first != success {
      return "first delivery failed: \(first)"
    }
    return nil
  }
}
