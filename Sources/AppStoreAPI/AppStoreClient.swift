import AsyncHTTPClient
import Foundation
import NIOCore
import NIOHTTP1
import NIOSSL
import OutboundHTTP

/// One HTTP conversation with the App Store Server API: bearer token, Apple's error bodies, retries.
/// Endpoint shapes live in AppStoreClient+Endpoints.swift; the whole-customer fetch in Fetcher.swift.
public final class AppStoreClient: Sendable {
  public struct Configuration: Sendable {
    /// Replaces Apple's production URL (tests, a local mock). Sandbox then lives at `<baseURL>/sandbox`.
    public var baseURL: String?
    /// Extra TLS roots (PEM or DER files) trusted for the server's certificate, as well as the system's.
    public var trustRootFiles: [String]
    public var retry: RetryPolicy
    public var connectTimeout: TimeInterval
    public var requestTimeout: TimeInterval

    public init(baseURL: String? = nil, trustRootFiles: [String] = [], retry: RetryPolicy = RetryPolicy(),
                connectTimeout: TimeInterval = 2, requestTimeout: TimeInterval = 30) {
      self.baseURL = baseURL
      self.trustRootFiles = trustRootFiles
      self.retry = retry
      self.connectTimeout = connectTimeout
      self.requestTimeout = requestTimeout
    }

    public func baseURL(for environment: AppStoreEnvironment) -> String {
      guard let baseURL else { return environment.appleBaseURL }
      let trimmed = baseURL.hasSuffix("/") ? String(baseURL.dropLast()) : baseURL
      return environment == .production ? trimmed : trimmed + "/sandbox"
    }
  }

  /// Time is an input: the token's `iat` and Retry-After arithmetic use `now`, waits go through `sleep`.
  public struct Clock: Sendable {
    public var now: @Sendable () -> Date
    public var sleep: @Sendable (TimeInterval) async throws -> Void
    public init(now: @escaping @Sendable () -> Date, sleep: @escaping @Sendable (TimeInterval) async throws -> Void) {
      self.now = now
      self.sleep = sleep
    }
    public static let system = Clock(now: { Date() }, sleep: { try await Task.sleep(nanoseconds: UInt64(max(0, $0) * 1e9)) })
  }

  public let configuration: Configuration
  /// The app the credentials are for: every answer must be its data.
  public let bundleID: String
  let token: BearerToken
  let clock: Clock
  let http: HTTPClient
  /// Called with "retrying …" lines, so a long wait is never silent.
  let notice: @Sendable (String) -> Void

  public init(credentials: Credentials, configuration: Configuration = Configuration(), clock: Clock = .system,
              notice: @escaping @Sendable (String) -> Void = { _ in }) throws(AppStoreAPIError) {
    self.configuration = configuration
    self.token = BearerToken(credentials: credentials)
    self.bundleID = credentials.bundleID
    self.clock = clock
    self.notice = notice
    var tls = TLSConfiguration.makeClientConfiguration()
    if !configuration.trustRootFiles.isEmpty {
      var roots: [NIOSSLCertificate] = []
      for path in configuration.trustRootFiles { roots += try Self.readCertificates(path) }
      tls.additionalTrustRoots = [.certificates(roots)]
    }
    let timeout = HTTPClient.Configuration.Timeout(connect: .milliseconds(Int64(configuration.connectTimeout * 1000)),
                                                   read: .milliseconds(Int64(configuration.requestTimeout * 1000)))
    self.http = HTTPClient(eventLoopGroupProvider: .singleton,
                           configuration: HTTPClient.Configuration(tlsConfiguration: tls, timeout: timeout))
  }

  /// Must be called once; AsyncHTTPClient traps in debug builds when a running client is released.
  public func shutdown() async {
    try? await http.shutdown()
  }

  static func readCertificates(_ path: String) throws(AppStoreAPIError) -> [NIOSSLCertificate] {
    guard let data = FileManager.default.contents(atPath: path) else { throw .credentials("\(path): cannot read --root certificate") }
    let bytes = [UInt8](data)
    if let pem = try? NIOSSLCertificate.fromPEMBytes(bytes), !pem.isEmpty { return pem }
    if let der = try? NIOSSLCertificate(bytes: bytes, format: .der) { return [der] }
    throw .credentials("\(path): not a certificate (PEM or DER)")
  }

  /// The largest answer read (a page of history is a few hundred kB).
  static let answerLimit = 4 << 20

  /// Sends one request, retrying what Apple says may succeed later. Returns the 2xx body.
  func send(endpoint: String, environment: AppStoreEnvironment, method: HTTPMethod, path: String,
            query: [(String, String)] = [], body: [UInt8]? = nil) async throws(AppStoreAPIError) -> [UInt8] {
    let url = configuration.baseURL(for: environment) + path + Self.queryString(query)
    let policy = configuration.retry
    var attempt = 0
    while true {
      attempt += 1
      let outcome = await once(endpoint: endpoint, environment: environment, method: method, url: url, body: body)
      switch outcome {
      case .success(let bytes):
        return bytes
      case .fail(let error):
        throw error
      case .retry(let error, let wait):
        guard attempt < policy.maxAttempts else {
          throw .gaveUp(endpoint: endpoint, attempts: attempt, last: Self.shortReason(error))
        }
        let delay = wait ?? policy.backoff(afterAttempt: attempt)
        if delay > policy.maxRetryAfter {
          throw .gaveUp(endpoint: endpoint, attempts: attempt,
                        last: Self.shortReason(error) + "; Apple asks to wait \(Int(delay.rounded(.up))) s")
        }
        notice("\(endpoint): \(Self.shortReason(error)); retrying in \(Self.seconds(delay)) (attempt \(attempt + 1) of \(policy.maxAttempts))")
        do { try await clock.sleep(delay) } catch { throw .network(endpoint: endpoint, detail: "cancelled") }
      }
    }
  }

  enum Outcome {
    case success([UInt8])
    case fail(AppStoreAPIError)
    case retry(AppStoreAPIError, after: TimeInterval?)
  }

  private func once(endpoint: String, environment: AppStoreEnvironment, method: HTTPMethod, url: String, body: [UInt8]?) async -> Outcome {
    var request = HTTPClientRequest(url: url)
    request.method = method
    do {
      request.headers.add(name: "Authorization", value: "Bearer " + (try token.token(now: clock.now())))
    } catch {
      return .fail(.credentials("cannot sign the bearer token with this key"))
    }
    request.headers.add(name: "Accept", value: "application/json")
    request.headers.add(name: "User-Agent", value: "subdash-fetch")
    if let body {
      request.headers.add(name: "Content-Type", value: "application/json")
      request.body = .bytes(ByteBuffer(bytes: body))
    }
    // One deadline for the whole exchange, the body included (BoundedExchange): a server that
    // sends its head and then trickles the body is a time-out, retried like any other.
    let timeout = configuration.requestTimeout
    let limitMs = timeout.isFinite && timeout > 0 ? Int64(min(timeout, 86_400) * 1000) : 0
    let answer: BoundedExchange.Answer
    switch await BoundedExchange.run(request, on: http, limit: .milliseconds(limitMs), bodyLimit: Self.answerLimit) {
    case .success(let a): answer = a
    case .failure(.badURL(let why)):
      // Nothing was sent, and a retry would meet the same URL.
      return .fail(.network(endpoint: endpoint, detail: "cannot call \(Sanitize.line(url, limit: 120)): \(why)"))
    case .failure(.timedOut):
      return .retry(.network(endpoint: endpoint, detail: "timed out after \(Self.seconds(timeout))"), after: nil)
    case .failure(.transport(let error as HTTPClientError)) where error == .deadlineExceeded || error == .readTimeout || error == .connectTimeout:
      return .retry(.network(endpoint: endpoint, detail: "timed out after \(Self.seconds(timeout))"), after: nil)
    case .failure(.transport(let error)):
      return .retry(.network(endpoint: endpoint, detail: "cannot reach \(Self.host(of: url)): \(Self.networkReason(error))"), after: nil)
    }
    guard answer.bodyComplete else {
      return .fail(.malformedResponse(endpoint: endpoint, detail: "the answer is larger than \(Self.answerLimit >> 20) MiB"))
    }
    let bytes = answer.body
    let response = (status: answer.status, headers: answer.headers)
    let status = response.status
    if (200..<300).contains(status) { return .success(bytes) }
    if status == 401 { return .fail(.unauthorized(endpoint: endpoint, environment: environment)) }
    let (code, message) = Self.appleError(bytes)
    let error = AppStoreAPIError.apple(endpoint: endpoint, environment: environment, status: status, code: code, message: message)
    if status == 429 {
      return .retry(error, after: RetryPolicy.retryAfterDelay(response.headers.first(name: "Retry-After"), now: clock.now()))
    }
    if status >= 500 || code.map(AppStoreAPIError.retryableCodes.contains) == true { return .retry(error, after: nil) }
    return .fail(error)
  }

  /// Apple's body is `{"errorCode": Int, "errorMessage": String}`; 401 and proxies may send none.
  static func appleError(_ bytes: [UInt8]) -> (Int?, String?) {
    guard let object = try? JSONSerialization.jsonObject(with: Data(bytes)) as? [String: Any] else { return (nil, nil) }
    return ((object["errorCode"] as? NSNumber)?.intValue, object["errorMessage"] as? String)
  }

  static func queryString(_ query: [(String, String)]) -> String {
    guard !query.isEmpty else { return "" }
    var allowed = CharacterSet.alphanumerics
    allowed.insert(charactersIn: "-._~")
    return "?" + query.map { "\($0.0)=\($0.1.addingPercentEncoding(withAllowedCharacters: allowed) ?? "")" }.joined(separator: "&")
  }

  /// Path segments (ids from the user) are percent-encoded so `../` or `?` cannot change the request.
  static func segment(_ id: String) -> String {
    var allowed = CharacterSet.alphanumerics
    allowed.insert(charactersIn: "-._~")
    return id.addingPercentEncoding(withAllowedCharacters: allowed) ?? ""
  }

  static func host(of url: String) -> String { URL(string: url)?.host ?? url }
  static func seconds(_ t: TimeInterval) -> String { t < 10 ? String(format: "%.1f s", t) : "\(Int(t.rounded())) s" }

  static func shortReason(_ error: AppStoreAPIError) -> String {
    switch error {
    case .apple(_, _, let status, let code, _):
      return "HTTP \(status)" + (code.map { " \($0)" + (AppStoreAPIError.explanations[$0].map { " \($0)" } ?? "") } ?? "")
    case .network(_, let detail): return detail
    default: return error.description
    }
  }

  static func networkReason(_ error: Error) -> String {
    if let ssl = error as? NIOSSLError { return "TLS: \(ssl)" }
    if isConnectionRefused(error) { return "connection refused" }
    return Sanitize.line(String(describing: error), limit: 160)
  }

  /// Decided by the error's type and errno (ECONNREFUSED), never by its English description.
  static func isConnectionRefused(_ error: Error) -> Bool {
    if let io = error as? IOError { return io.errnoCode == ECONNREFUSED }
    return false
  }
}
