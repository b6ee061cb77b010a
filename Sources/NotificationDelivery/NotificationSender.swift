import AsyncHTTPClient
import DashModel
import NIOCore
import NIOHTTP1
import NIOPosix
import NIOSSL
import OutboundHTTP

/// What one POST came to, in Apple's result names.
public struct SendOutcome: Sendable, Equatable {
  public var result: SendAttemptResult
  public var httpStatus: Int?
  /// A short reason for the log when it failed without a status ("connection refused").
  public var detail: String?

  public init(result: SendAttemptResult, httpStatus: Int? = nil, detail: String? = nil) {
    self.result = result
    self.httpStatus = httpStatus
    self.detail = detail
  }
}

/// Sends one notification body; the deliverer's only way out, so its tests can answer anything.
public protocol NotificationSending: Sendable {
  func send(_ body: [UInt8], to url: String, timeout: Double) async -> SendOutcome
}

/// POSTs with AsyncHTTPClient, as a backend's load balancer would see the App Store: HTTP/1.1,
/// `Content-Type: application/json`, redirects not followed (Apple's behaviour with them is not
/// documented; a 3xx is a failed attempt and retried).
public final class HTTPNotificationSender: NotificationSending {
  private let http: HTTPClient

  public init() {
    var configuration = HTTPClient.Configuration(redirectConfiguration: .disallow)
    configuration.timeout = .init(connect: .seconds(5))
    http = HTTPClient(eventLoopGroupProvider: .singleton, configuration: configuration)
  }

  /// Must be called once before the sender is released.
  public func shutdown() async { try? await http.shutdown() }

  /// The answer's whole body counts against `timeout` (BoundedExchange): a 200 whose body
  /// trickles past it is TIMED_OUT, as the App Store's "a few seconds at most" has it.
  public func send(_ body: [UInt8], to url: String, timeout: Double) async -> SendOutcome {
    var request = HTTPClientRequest(url: url)
    request.method = .POST
    request.headers.add(name: "Content-Type", value: "application/json")
    request.headers.add(name: "User-Agent", value: "subdash-deliver (App Store Server Notifications V2, local test CA)")
    request.body = .bytes(ByteBuffer(bytes: body))
    // Seconds from a flag or a caller's constant; a non-finite or negative one is no time at all.
    let limitMs = timeout.isFinite && timeout > 0 ? Int64(min(timeout, 86_400) * 1000) : 0
    switch await BoundedExchange.run(request, on: http, limit: .milliseconds(limitMs), bodyLimit: 64 << 10) {
    case .success(let answer):
      // The answer's body is not Apple's concern, but a refusal's first line is the backend
      // saying why (listen's "refused: …"): kept for the log.
      let status = answer.status
      let outcome = SendOutcome(result: .forStatus(status), httpStatus: status)
      guard outcome.result != .success else { return outcome }
      let firstLine = String(decoding: answer.body.prefix(400), as: UTF8.self)
        .split(whereSeparator: \.isNewline).first.map(String.init) ?? ""
      return SendOutcome(result: outcome.result, httpStatus: status, detail: firstLine.isEmpty ? nil : firstLine)
    case .failure(.badURL(let why)):
      return SendOutcome(result: .other, detail: "bad URL: \(why)")
    case .failure(.timedOut):
      return SendOutcome(result: .timedOut, detail: "no whole answer within \(limitMs) ms")
    case .failure(.transport(let error)):
      return Self.classify(error)
    }
  }

  /// Transport failures in Apple's words.
  static func classify(_ error: Error) -> SendOutcome {
    if let e = error as? HTTPClientError {
      if [.deadlineExceeded, .readTimeout, .connectTimeout, .writeTimeout].contains(e) {
        return SendOutcome(result: .timedOut, detail: "no answer in time")
      }
      if e == .remoteConnectionClosed { return SendOutcome(result: .prematureClose, detail: "the connection closed before an answer") }
      if e == .redirectCycleDetected || e == .redirectLimitReached { return SendOutcome(result: .circularRedirect, detail: "redirect loop") }
      if e == .invalidURL || e == .emptyHost || e == .emptyScheme { return SendOutcome(result: .other, detail: "bad URL") }
      return SendOutcome(result: .invalidResponse, detail: "\(e)")
    }
    if error is NIOSSLError || "\(type(of: error))".contains("SSL") {
      return SendOutcome(result: .tlsIssue, detail: "TLS: \(error)")
    }
    if let e = error as? NIOConnectionError {
      let refused = e.connectionErrors.contains { ($0.error as? IOError)?.errnoCode == ECONNREFUSED }
      return SendOutcome(result: .socketIssue, detail: refused ? "connection refused" : "cannot connect")
    }
    if let e = error as? IOError {
      let reason = e.errnoCode == ECONNREFUSED ? "connection refused" : String(cString: strerror(e.errnoCode))
      return SendOutcome(result: .socketIssue, detail: reason)
    }
    if error is ChannelError {
      return SendOutcome(result: .socketIssue, detail: "\(error)")
    }
    return SendOutcome(result: .other, detail: "\(error)")
  }
}
