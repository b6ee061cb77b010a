import AppStoreAuth
import Crypto
import DashModel
import Foundation
import HTTPTypes
import Hummingbird
import HummingbirdTLS
import NIOSSL
import Logging
import NIOCore

/// A loopback App Store Server API: the six read endpoints, Apple's paging and error bodies, and
/// faults queued by a test (429 with Retry-After, 5xx, slow answers). Production lives at `/`,
/// sandbox at `/sandbox`, matching AppStoreClient's `--base-url` rule.
public final class MockAppStore: @unchecked Sendable {
  public enum Fault: Sendable {
    /// Answer with this HTTP status and Apple error code (nil: no body); `retryAfter` sets the header verbatim.
    case status(Int, code: Int?, retryAfter: String? = nil)
    /// Sleep this long before answering normally (timeouts).
    case delay(TimeInterval)
  }

  /// Signs a decoded payload (JSON text) into a compact JWS. Tests plug in a test CA's leaf here.
  public typealias PayloadSigner = @Sendable (String) -> String

  public let check: BearerCheck
  public let pageSize: Int
  private let signer: PayloadSigner
  private let lock = NSLock()
  private var customers: [String: [MockCustomer]] = ["production": [], "sandbox": []]
  private var faults: [Fault] = []
  private var _requests: [String] = []
  private var _rejections: [String] = []

  public init(check: BearerCheck, pageSize: Int = 20, signer: @escaping PayloadSigner = MockAppStore.selfSignedSigner()) {
    self.check = check
    self.pageSize = pageSize
    self.signer = signer
  }

  /// A signer without a certificate chain (verifiers must reject it as not Apple's); for client tests.
  public static func selfSignedSigner() -> PayloadSigner {
    let key = P256.Signing.PrivateKey()
    return { payload in
      let input = Base64URL.encode(Array(#"{"alg":"ES256","x5c":[]}"#.utf8)) + "." + Base64URL.encode(Array(payload.utf8))
      let signature = try! key.signature(for: Array(input.utf8))
      return input + "." + Base64URL.encode(signature.rawRepresentation)
    }
  }

  public func add(_ customer: MockCustomer, environment: String) { locked { customers[environment, default: []].append(customer) } }
  public func replace(_ customer: MockCustomer, environment: String) {
    locked { customers[environment] = customers[environment, default: []].filter { $0.originalTransactionID != customer.originalTransactionID } + [customer] }
  }
  public func enqueue(_ fault: Fault) { locked { faults.append(fault) } }
  /// "METHOD path?query" of every request, in order.
  public var requests: [String] { locked { _requests } }
  /// Why each rejected bearer token was rejected.
  public var rejections: [String] { locked { _rejections } }

  private func locked<T>(_ body: () -> T) -> T {
    lock.lock()
    defer { lock.unlock() }
    return body()
  }

  // MARK: serving

  /// Runs the server on 127.0.0.1 (port 0 = any free port) until the task is cancelled; `ready` gets the base URL.
  /// With `tls`, it speaks HTTPS (tests of `--root` for a private server certificate).
  public func run(port: Int = 0, tls: TLSConfiguration? = nil, ready: @escaping @Sendable (String) async -> Void) async throws {
    let router = Router()
    for prefix in ["", "/sandbox"] {
      let environment = prefix.isEmpty ? "production" : "sandbox"
      router.get("\(prefix)/inApps/v1/transactions/:id") { request, context in
        try await self.respond(request, context, environment) { try self.transactionInfo($0, context, environment) }
      }
      router.get("\(prefix)/inApps/v1/subscriptions/:id") { request, context in
        try await self.respond(request, context, environment) { try self.statuses($0, context, environment) }
      }
      router.get("\(prefix)/inApps/v2/history/:id") { request, context in
        try await self.respond(request, context, environment) { try self.history($0, context, environment, refunds: false) }
      }
      router.get("\(prefix)/inApps/v2/refund/lookup/:id") { request, context in
        try await self.respond(request, context, environment) { try self.history($0, context, environment, refunds: true) }
      }
      router.post("\(prefix)/inApps/v1/notifications/history") { request, context in
        var request = request
        let body = try await request.collectBody(upTo: 64 * 1024)
        return try await self.respond(request, context, environment) { try self.notificationHistory($0, body: body, environment) }
      }
      router.get("\(prefix)/inApps/v1/lookup/:id") { request, context in
        try await self.respond(request, context, environment) { _ in try self.lookup(context, environment) }
      }
    }
    var logger = Logger(label: "mock-app-store")
    logger.logLevel = .critical
    let scheme = tls == nil ? "http" : "https"
    let app = Application(router: router, server: try tls.map { try .tls(.http1(), tlsConfiguration: $0) } ?? .http1(),
                          configuration: .init(address: .hostname("127.0.0.1", port: port)),
                          onServerRunning: { channel in await ready("\(scheme)://127.0.0.1:\(channel.localAddress?.port ?? 0)") },
                          logger: logger)
    try await app.run()
  }

  struct Failure: Error { let status: Int; let code: Int?; let message: String?; var retryAfter: String? = nil }

  private func respond(_ request: Request, _ context: BasicRequestContext, _ environment: String,
                       _ body: (Request) throws -> String) async throws -> Response {
    let line = "\(request.method) \(request.uri.path)" + (request.uri.query.map { "?\($0)" } ?? "")
    let fault: Fault? = locked {
      _requests.append(line)
      return faults.isEmpty ? nil : faults.removeFirst()
    }
    switch fault {
    case .status(let status, let code, let retryAfter):
      return Self.error(Failure(status: status, code: code, message: code.map { _ in "Injected by the test." }, retryAfter: retryAfter))
    case .delay(let seconds):
      try await Task.sleep(nanoseconds: UInt64(seconds * 1e9))
    case nil:
      break
    }
    if let why = check.rejection(authorization: request.headers[.authorization], now: Date()) {
      locked { _rejections.append(why) }
      return Response(status: .unauthorized)  // Apple documents no body for 401.
    }
    do {
      let text = try body(request)
      return Response(status: .ok, headers: [.contentType: "application/json"], body: .init(byteBuffer: ByteBuffer(string: text)))
    } catch let failure as Failure {
      return Self.error(failure)
    }
  }

  private static func error(_ failure: Failure) -> Response {
    var headers: HTTPFields = [.contentType: "application/json"]
    if let retryAfter = failure.retryAfter { headers[HTTPField.Name("Retry-After")!] = retryAfter }
    let body = failure.code.map { #"{"errorCode":\#($0),"errorMessage":\#(JSONValue.string(failure.message ?? "").text)}"# } ?? ""
    return Response(status: .init(code: failure.status), headers: headers, body: .init(byteBuffer: ByteBuffer(string: body)))
  }

  private func customer(_ id: String, _ environment: String) throws -> MockCustomer {
    guard !id.isEmpty, id.allSatisfy(\.isNumber) else { throw Failure(status: 400, code: 4_000_006, message: "Invalid transaction id.") }
    guard let found = locked({ customers[environment, default: []].first { $0.owns(id) } }) else {
      throw Failure(status: 404, code: 4_040_010, message: "Transaction id not found.")
    }
    return found
  }

  private func sign(_ object: [String: JSONValue]) -> JSONValue { .string(signer(JSONValue.object(object).text)) }

  private func transactionInfo(_ request: Request, _ context: BasicRequestContext, _ environment: String) throws -> String {
    let id = context.parameters.get("id") ?? ""
    let c = try customer(id, environment)
    let tx = c.transactions.first { $0["transactionId"] == .string(id) } ?? c.transactions[0]
    return JSONValue.object(["signedTransactionInfo": sign(tx)]).text
  }

  private func statuses(_ request: Request, _ context: BasicRequestContext, _ environment: String) throws -> String {
    let c = try customer(context.parameters.get("id") ?? "", environment)
    // As Apple's: a status answer is signed when it is made (signedDate is the signing time), which
    // is how `fetch` learns the server's now for its notification-history window.
    let signedNow = JSONValue.number((Date().timeIntervalSince1970 * 1000).rounded())
    guard var transaction = c.transactions.last else { throw HTTPError(.notFound) }
    transaction["signedDate"] = signedNow
    var renewal = c.renewalInfo
    renewal["signedDate"] = signedNow
    let last: JSONValue = .object([
      "status": .number(1), "originalTransactionId": .string(c.originalTransactionID),
      "signedTransactionInfo": sign(transaction), "signedRenewalInfo": sign(renewal),
    ])
    return JSONValue.object([
      "environment": .string(environment == "production" ? "Production" : "Sandbox"), "bundleId": .string(check.bundleID),
      "data": .array([.object(["subscriptionGroupIdentifier": .string("21000001"), "lastTransactions": .array([last])])]),
    ]).text
  }

  private func history(_ request: Request, _ context: BasicRequestContext, _ environment: String, refunds: Bool) throws -> String {
    let c = try customer(context.parameters.get("id") ?? "", environment)
    let all = refunds ? c.transactions.filter { tx in c.refundedTransactionIDs.contains { tx["transactionId"] == .string($0) } } : c.transactions
    let offset: Int
    if let revision = request.uri.queryParameters.get("revision") {
      guard revision.hasPrefix("r"), let n = Int(revision.dropFirst()), n >= 0, n <= all.count else {
        throw Failure(status: 400, code: 4_000_005, message: "Invalid request revision.")
      }
      offset = n
    } else {
      offset = 0
    }
    let page = all[offset..<min(all.count, offset + pageSize)]
    let next = offset + page.count
    return JSONValue.object([
      "revision": .string("r\(next)"), "hasMore": .bool(next < all.count), "bundleId": .string(check.bundleID),
      "environment": .string(environment == "production" ? "Production" : "Sandbox"),
      "signedTransactions": .array(page.map(sign)),
    ]).text
  }

  private func notificationHistory(_ request: Request, body: ByteBuffer, _ environment: String) throws -> String {
    guard let object = try? JSONSerialization.jsonObject(with: Data(buffer: body)) as? [String: Any],
          let start = (object["startDate"] as? NSNumber)?.doubleValue, let end = (object["endDate"] as? NSNumber)?.doubleValue
    else { throw Failure(status: 400, code: 4_000_015, message: "Invalid start date.") }
    let days = environment == "production" ? 180.0 : 30.0
    guard start >= (Date().timeIntervalSince1970 - days * 86_400) * 1000 else {
      throw Failure(status: 400, code: 4_000_012, message: "Start date too far in past.")
    }
    guard start < end else { throw Failure(status: 400, code: 4_000_013, message: "Start date after end date.") }
    let c = try customer(object["transactionId"] as? String ?? "", environment)
    let offset: Int
    if let token = request.uri.queryParameters.get("paginationToken") {
      guard token.hasPrefix("p"), let n = Int(token.dropFirst()), n >= 0, n <= c.notifications.count else {
        throw Failure(status: 400, code: 4_000_014, message: "Invalid pagination token.")
      }
      offset = n
    } else {
      offset = 0
    }
    let page = c.notifications[offset..<min(c.notifications.count, offset + pageSize)]
    let next = offset + page.count
    let items: [JSONValue] = page.map { notification in
      var signed = notification
      if case .object(var data)? = notification["data"], let tx = data.removeValue(forKey: "transaction"), case .object(let t) = tx {
        data["signedTransactionInfo"] = sign(t)
        signed["data"] = .object(data)
      }
      let attempt: JSONValue = .object(["attemptDate": notification["signedDate"]!, "sendAttemptResult": .string("SUCCESS")])
      return .object(["signedPayload": sign(signed), "sendAttempts": .array([attempt]), "firstSendAttemptResult": .string("SUCCESS")])
    }
    return JSONValue.object([
      "paginationToken": .string("p\(next)"), "hasMore": .bool(next < c.notifications.count), "notificationHistory": .array(items),
    ]).text
  }

  private func lookup(_ context: BasicRequestContext, _ environment: String) throws -> String {
    // Look Up Order ID is production only; Apple has no sandbox route for it.
    guard environment == "production" else { throw Failure(status: 404, code: nil, message: nil) }
    let order = context.parameters.get("id") ?? ""
    guard let c = locked({ customers["production", default: []].first { $0.orderIDs.contains(order) } }) else {
      return #"{"status":1}"#
    }
    return JSONValue.object(["status": .number(0), "signedTransactions": .array(c.transactions.map(sign))]).text
  }
}
