import DashModel
import Foundation
import CoreValues

extension LocalAppStoreAPI {
  /// `serve --fault`: a failure the next request meets instead of its answer. Apple's API fails
  /// now and then (an internal error, a gateway's 503, an answer that takes too long) and a
  /// backend must ride that out; with `--rate-limit` (429 and Retry-After) these let a client's
  /// retries be tested against the server itself, in the order they were given, one per request.
  public enum Fault: Sendable, Equatable {
    /// This HTTP status, with Apple's error body for `code` (nil: no body, as a gateway answers).
    case status(Int, code: Int?)
    /// The normal answer, after this many seconds (a client's request timeout).
    case delay(seconds: Double)

    /// `STATUS[:CODE]` (`500:5000001`, `503`) or `delay:SECONDS` (`delay:8`); nil when it does not read.
    public init?(_ text: String) {
      let parts = text.split(separator: ":", omittingEmptySubsequences: false).map(String.init)
      guard parts.count <= 2, parts.allSatisfy({ !$0.isEmpty && $0.count <= 8 }) else { return nil }
      if parts[0] == "delay" {
        guard parts.count == 2, let seconds = Double(parts[1]), seconds.isFinite, seconds > 0, seconds <= 600 else { return nil }
        self = .delay(seconds: seconds)
        return
      }
      guard parts.allSatisfy({ $0.allSatisfy { $0.isASCII && $0.isNumber } }), let status = Int(parts[0]), (400...599).contains(status) else {
        return nil
      }
      // Apple's codes begin with their status (5000001 is a 500): another pairing is no answer Apple gives.
      guard parts.count == 2 else {
        self = .status(status, code: nil)
        return
      }
      guard let code = Int(parts[1]), APIFailure.status(of: code) == status else { return nil }
      self = .status(status, code: code)
    }
  }

  /// Adds failures for the next requests to meet, after any already waiting.
  public func inject(_ faults: [Fault]) { lock.withLock { pendingFaults += faults } }

  /// The answer the next waiting fault gives (nil: none, or a delay that has passed).
  func meetFault(_ line: String) async -> Response? {
    let fault: Fault? = lock.withLock { pendingFaults.isEmpty ? nil : pendingFaults.removeFirst() }
    switch fault {
    case nil:
      return nil
    case .delay(let seconds):
      // Cancelled (the server stopping): answered at once, as the wait was only for the client.
      try? await Task.sleep(for: .milliseconds(Int64(seconds * 1000)))
      return nil
    case .status(let status, let code):
      let body = code.map { JSONWriter.write(.object(JSONObject([("errorCode", .int($0)), ("errorMessage", .string("Injected by serve --fault."))]))) }
      return Response(status: status, body: body ?? [], log: "\(status) \(line): --fault")
    }
  }
}
