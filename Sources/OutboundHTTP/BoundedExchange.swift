import AsyncHTTPClient
import DashModel
import NIOCore
import NIOHTTP1
#if canImport(FoundationEssentials)
import struct FoundationEssentials.URL
#else
import struct Foundation.URL
#endif

/// One outbound HTTP exchange under one deadline: connecting, sending, the answer's head and its
/// whole body. Every request SubDash makes goes through here (notifications, realtime requests,
/// performance tests, the App Store Server API client).
///
/// Why not AsyncHTTPClient's own deadline: `execute(_:deadline:)` stops watching once the head has
/// arrived, and its read timeout is per read, so a server that answers 200 and then sends one byte
/// every 50 ms held a caller for minutes (`deliver --timeout 2` recorded "200 in 120031 ms", and a
/// `serve` performance test stayed PENDING). Here a timer races the whole exchange and cancels it,
/// which AsyncHTTPClient honours mid-body.
///
/// The URL is checked first (`OutboundURL`, then the reading AsyncHTTPClient will make of it must
/// agree on the port): SwiftNIO traps on a port outside 16 bits, so a bad URL, however it was
/// stored, is a failure with a reason and nothing is sent.
public enum BoundedExchange {
  public struct Answer: Sendable {
    public var status: Int
    public var headers: HTTPHeaders
    /// The body's first `bodyLimit` bytes.
    public var body: [UInt8]
    /// False when the body was longer than `bodyLimit`: the rest was read (within the deadline,
    /// so the connection stays usable) and dropped.
    public var bodyComplete: Bool
  }

  public enum Failure: Error, Sendable {
    /// The URL cannot be called (the validator's reason); nothing was sent.
    case badURL(String)
    /// The exchange, body included, did not end within the time limit.
    case timedOut
    /// What AsyncHTTPClient or SwiftNIO threw; each caller names it in its own terms.
    case transport(any Error)
  }

  /// How long after AsyncHTTPClient's deadline the whole-exchange timer rings.
  static let headGrace: Duration = .milliseconds(100)

  /// Runs `request` on `http`; whatever happens, returns within `limit` plus `headGrace` (and the
  /// moment a cancelled request takes to close its connection).
  public static func run(_ request: HTTPClientRequest, on http: HTTPClient, limit: Duration, bodyLimit: Int) async -> Result<Answer, Failure> {
    if let why = refusal(request.url) { return .failure(.badURL(why)) }
    let deadline = NIODeadline.now() + TimeAmount.nanoseconds(nanoseconds(limit))
    return await withTaskGroup(of: Result<Answer, Failure>?.self) { group in
      group.addTask {
        do {
          let response = try await http.execute(request, deadline: deadline)
          var body: [UInt8] = []
          var complete = true
          for try await part in response.body {
            let room = bodyLimit - body.count
            if part.readableBytes > room { complete = false }
            if room > 0 { body += part.readableBytesView.prefix(room) }
          }
          return .success(Answer(status: Int(response.status.code), headers: response.headers, body: body, bodyComplete: complete))
        } catch {
          if Task.isCancelled { return nil }
          if let e = error as? HTTPClientError, [.deadlineExceeded, .readTimeout, .connectTimeout, .writeTimeout].contains(e) {
            return .failure(.timedOut)
          }
          return .failure(.transport(error))
        }
      }
      // The timer rings a moment after AsyncHTTPClient's own deadline: until the head has come,
      // the client's answer at its deadline is the more exact one (a connection refused on every
      // try is SOCKET_ISSUE, not a time-out); after the head only the timer watches the body.
      group.addTask {
        try? await Task.sleep(for: limit + headGrace)
        return Task.isCancelled ? nil : .failure(.timedOut)
      }
      var first: Result<Answer, Failure> = .failure(.timedOut)
      for await result in group {
        if let result { first = result; break }
      }
      group.cancelAll()
      return first
    }
  }

  /// Why `url` cannot be called, or nil. The one validator first; then the reading AsyncHTTPClient
  /// makes (Foundation's URL) must name a host and the same port, so the port that was checked is
  /// the port that is dialled.
  public static func refusal(_ url: String) -> String? {
    let checked: OutboundURL
    switch OutboundURL.check(url) {
    case .failure(let refusal): return refusal.description
    case .success(let ok): checked = ok
    }
    guard let parsed = URL(string: url), let host = parsed.host, !host.isEmpty, parsed.port == checked.port else {
      return "the URL does not read the same way to the HTTP client (host or port)"
    }
    return nil
  }

  static func nanoseconds(_ d: Duration) -> Int64 {
    let (seconds, attoseconds) = d.components
    guard seconds >= 0 else { return 0 }
    // Limits here are seconds to minutes; anything near Int64's range is clamped, not trapped on.
    let (whole, overflow) = seconds.multipliedReportingOverflow(by: 1_000_000_000)
    return overflow ? Int64.max / 2 : whole &+ attoseconds / 1_000_000_000
  }
}
