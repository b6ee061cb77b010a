import AppStoreSigning
import DashModel
import Foundation
import NotificationDelivery
import CoreValues
import SubscriberStorage

/// The App Store Server API answered from a directory of state files (`subdash serve`,
/// `subdash listen --serve-api`), signed by the local test CA: what a developer's backend calls,
/// with the same paths, bearer-token rules, paging and error bodies as Apple's. Production is at
/// `/inApps/…`, sandbox at `/sandbox/inApps/…` (the `--base-url` rule of `subdash fetch`); a
/// subscriber answers only in its own file's environment, as Apple's do.
///
/// No HTTP here: `respond` takes a request and returns the answer, so it is tested directly.
public final class LocalAppStoreAPI: @unchecked Sendable {
  public struct Request: Sendable {
    public var method: String
    public var path: String
    public var query: [(String, String)]
    public var authorization: String?
    public var body: [UInt8]
    public init(method: String, path: String, query: [(String, String)] = [], authorization: String?, body: [UInt8] = []) {
      self.method = method
      self.path = path
      self.query = query
      self.authorization = authorization
      self.body = body
    }
  }

  public struct Response: Sendable, Equatable {
    public var status: Int
    public var body: [UInt8]
    /// One line for the server's log (no secrets, printable only).
    public var log: String
    /// A 429's `Retry-After`: when the next request may be sent, UNIX time in ms (Apple's form).
    public var retryAfter: Int64? = nil
  }

  public struct Settings: Sendable {
    public var check: BearerCheck
    public var appAppleId: Int64?
    /// Where Request a Test Notification sends its TEST (nil: the server's own receiver, once
    /// `receiverStarted` has told where it is).
    public var notifyURL: String?
    public var pageSize: Int
    /// Requests a second per endpoint (`--rate-limit N/s`); nil: no limit.
    public var rateLimit: Int?
    /// The time each performance-test request has for its whole answer (responseTimeThreshold;
    /// LocalAppStoreAPI+PerformanceTest.swift); tests make it small.
    public var performanceTestLimitMs: Int
    /// The time a TEST (or a mass extension's SUMMARY) has for its whole exchange with
    /// `notifyURL` before its attempt is TIMED_OUT and the request is answered (`--notify-timeout`;
    /// 5 s by default, Apple's "a few seconds"); tests make it small.
    public var notifyTimeoutMs: Int
    public init(check: BearerCheck, appAppleId: Int64? = nil, notifyURL: String? = nil, pageSize: Int = 20, rateLimit: Int? = nil,
                performanceTestLimitMs: Int = LocalAppStoreAPI.performanceThresholdMs, notifyTimeoutMs: Int = 5_000) {
      self.notifyTimeoutMs = notifyTimeoutMs
      self.rateLimit = rateLimit
      self.performanceTestLimitMs = performanceTestLimitMs
      self.check = check
      self.appAppleId = appAppleId
      self.notifyURL = notifyURL
      self.pageSize = pageSize
    }
  }

  let directory: SubscriberDirectory
  let settings: Settings
  let authority: LocalCertificateAuthority
  let wallClock: @Sendable () -> Date
  let sender: (any NotificationSending)?
  let lock = NSLock()
  let rateLimiter: RateLimiter?
  let retention: RetentionMessagingStore
  /// Retention Messaging performance tests by requestId, kept while the server runs.
  var performanceTests: [String: PerformanceRun] = [:]
  private var testNotifications: [String: AppLevelNotification] = [:]
  private var ownReceiver: String?
  /// Mass extensions by environment and requestIdentifier, one entry per run started (kept while
  /// the server runs, as test notifications are).
  var massExtensions: [String: MassExtensionProgress] = [:]
  /// `--fault`s the next requests meet (Fault.swift).
  var pendingFaults: [Fault] = []

  /// The URL of the notification receiver on the same server: TEST goes there without `notifyURL`.
  public func receiverStarted(at url: String) { lock.withLock { ownReceiver = url } }

  /// Where writes go when the subscribers are not the directory's own files (`serve --db`: the
  /// team database, and `directory` is its mirror). nil: the directory's files.
  let store: (any SubscriberStore)?

  public init(directory: String, settings: Settings, authority: LocalCertificateAuthority,
              sender: (any NotificationSending)?, store: (any SubscriberStore)? = nil,
              retentionStorage: (any RetentionConfigurationStorage)? = nil, wallClock: @escaping @Sendable () -> Date = { Date() }) {
    self.store = store
    self.directory = SubscriberDirectory(path: directory, bundleId: settings.check.bundleID)
    self.directory.learnInBackground()
    self.settings = settings
    self.rateLimiter = settings.rateLimit.map(RateLimiter.init(perSecond:))
    // serve --db keeps it in the database (the directory is only a mirror of the rows there).
    let key = settings.check.inAppPurchaseKey
    self.retention = retentionStorage.map { RetentionMessagingStore(storage: $0, developerKey: key) }
      ?? RetentionMessagingStore(directory: directory, developerKey: key)
    self.authority = authority
    self.sender = sender
    self.wallClock = wallClock
  }

  /// Whether `path` is one of the API's (the server sends everything else to the notification receiver).
  public static func handles(_ path: String) -> Bool {
    path.hasPrefix("/inApps/") || path.hasPrefix("/sandbox/inApps/")
  }

  public func respond(_ request: Request) async -> Response {
    var path = request.path
    let environment: AppStoreEnvironment
    if path.hasPrefix("/sandbox/") {
      environment = .sandbox
      path.removeFirst("/sandbox".count)
    } else {
      environment = .production
    }
    let line = "\(request.method) \(LogText.clip(request.path, limit: 120))"
    // In front of everything, as a gateway's failures are: even a request with a bad token meets it.
    if let failed = await meetFault(line) { return failed }
    if let why = settings.check.rejection(authorization: request.authorization, now: wallClock()) {
      return Response(status: 401, body: [], log: "401 \(line): bearer token refused: \(why)")
    }
    if let retry = rateLimiter?.admit(method: request.method, path: request.path, at: wallNow.ms) {
      return Response(status: 429, body: RateLimiter.body, log: "429 \(line): over --rate-limit \(rateLimiter?.perSecond ?? 0)/s", retryAfter: retry)
    }
    do {
      let answer = try await route(request.method, path, request, environment)
      return Response(status: answer.status, body: answer.body, log: "\(answer.status) \(line)\(answer.note.map { ": \(LogText.clip($0, limit: 200))" } ?? "")")
    } catch let failure as APIFailure {
      var log = "\(failure.status) \(line)"
      if case .unreadable(let file, let why) = failure { log += ": \(LogText.clip(file, limit: 120)): \(LogText.clip(why, limit: 200))" }
      if case .extensionRefused(_, let why) = failure { log += ": \(LogText.clip(why, limit: 200))" }
      return Response(status: failure.status, body: failure.body, log: log)
    } catch {
      return Response(status: 500, body: APIFailure.unreadable("", "").body, log: "500 \(line): \(LogText.clip("\(error)", limit: 200))")
    }
  }

  private func route(_ method: String, _ path: String, _ request: Request, _ env: AppStoreEnvironment) async throws -> Answer {
    let parts = path.split(separator: "/", omittingEmptySubsequences: false).map(String.init)
    // "", "inApps", version, name, …
    guard parts.count >= 4, parts[0].isEmpty, parts[1] == "inApps" else { throw APIFailure.notFound }
    let (version, name, rest) = (parts[2], parts[3], Array(parts.dropFirst(4)))
    if version == "v1", name == "messaging", let answer = try await retentionMessaging(method, rest, request.body) { return answer }
    if version == "v1", name == "messaging", method == "POST", rest == ["performanceTest"] { return try await initiatePerformanceTest(request.body, env) }
    if version == "v1", name == "messaging", method == "GET", rest.count == 3, rest[0] == "performanceTest", rest[1] == "result" {
      return try performanceTestResult(rest[2])
    }
    switch (method, version, name, rest.count) {
    case ("GET", "v1", "transactions", 1): return Answer(try transactionInfo(rest[0], env))
    case ("GET", "v1", "transactions", 2) where rest[0] == "appTransactions": return try appTransactionInfo(rest[1], env)
    case ("POST", "v1", "transactions", 2) where rest[1] == "finish": return try await finishTransaction(rest[0], env)
    case ("GET", "v1", "subscriptions", 1): return Answer(try statuses(rest[0], request.query, env))
    case ("PUT", "v1", "subscriptions", 2) where rest[0] == "extend": return Answer(try await extend(rest[1], request.body, env))
    case ("POST", "v1", "subscriptions", 2) where rest == ["extend", "mass"]: return Answer(try extendAll(request.body, env))
    case ("GET", "v1", "subscriptions", 4) where rest[0] == "extend" && rest[1] == "mass":
      return Answer(try massExtensionStatus(productId: rest[2], requestIdentifier: rest[3], env))
    // v1 of both is deprecated but still what clients call by default (Apple's Python library's
    // get_transaction_history): answered with v2's pages, a superset of v1's fields.
    case ("GET", "v1", "history", 1), ("GET", "v2", "history", 1): return Answer(try history(rest[0], request.query, env, refundsOnly: false))
    case ("GET", "v1", "refund", 2) where rest[0] == "lookup", ("GET", "v2", "refund", 2) where rest[0] == "lookup":
      return Answer(try history(rest[1], request.query, env, refundsOnly: true))
    case ("POST", "v1", "notifications", 1) where rest[0] == "history": return Answer(try notificationHistory(request.query, request.body, env))
    case ("POST", "v1", "notifications", 1) where rest[0] == "test": return Answer(try await requestTest(env))
    case ("GET", "v1", "notifications", 2) where rest[0] == "test": return Answer(try testStatus(rest[1]))
    case ("PUT", "v2", "transactions", 2) where rest[0] == "consumption": return try await sendConsumption(rest[1], request.body, env)
    case ("PUT", "v1", "transactions", 2) where rest[1] == "appAccountToken": return try await setAppAccountToken(rest[0], request.body, env)
    case ("GET", "v1", "lookup", 1):
      // Look Up Order ID is production only: Apple has no sandbox route for it.
      guard env == .production else { throw APIFailure.notFound }
      return Answer(lookup(rest[0]))
    default:
      throw APIFailure.notFound
    }
  }

  /// An answer: 200 with a body, or another success (202 Accepted, no body) with a note for the log.
  struct Answer {
    var status = 200
    var body: [UInt8] = []
    var note: String?
    init(_ body: [UInt8]) { self.body = body }
    init(status: Int, note: String?) {
      self.status = status
      self.note = note
    }
  }

  // MARK: - Endpoints

  /// Get Transaction Info.
  private func transactionInfo(_ id: String, _ env: AppStoreEnvironment) throws -> [UInt8] {
    let s: SubscriberRecord
    do { s = try directory.subscriber(owning: id, environment: env) } catch {
      // Apple's page lists AppTransactionIdNotSupportedError for this endpoint: its path takes a
      // transaction id, "which may be an original transaction identifier", not an app's.
      if error == .transactionNotFound, directory.subscriber(appTransactionId: id, environment: env) != nil { throw APIFailure.appTransactionIdNotSupported }
      throw error
    }
    guard let t = s.transactions.last(where: { $0.transactionId == id }) ?? s.transactions.last else { throw APIFailure.transactionNotFound }
    return object([("signedTransactionInfo", .string(try sign(stamped(s, t.json))))])
  }

  /// Get All Subscription Statuses (optionally `?status=1&status=4`).
  private func statuses(_ id: String, _ query: [(String, String)], _ env: AppStoreEnvironment) throws -> [UInt8] {
    let s = try directory.subscriber(owningAny: id, environment: env)
    let wanted = try query.filter { $0.0 == "status" }.map { (_, v) -> Int in
      guard let n = Int(v), (1...5).contains(n) else { throw APIFailure.invalidRequest(code: 4_000_031, message: "Invalid status.") }
      return n
    }
    var groups: [JSON] = []
    if let latest = s.state.subscriber.latestTransaction {
      let status = Lifecycle.derive(s.state, at: now(of: s.state)).status?.rawValue ?? 2
      if wanted.isEmpty || wanted.contains(status) {
        // Apple signs an answer when it gives it: signedDate is the server's now (here the
        // file's clock), which is how `fetch` places the notification-history window.
        var signedNow = latest
        signedNow.signedDate = now(of: s.state)
        var last: [(String, JSON)] = [("status", .int(status)), ("originalTransactionId", .string(latest.originalTransactionId ?? id)),
                                      ("signedTransactionInfo", .string(try sign(stamped(s, signedNow.json))))]
        if var r = s.state.subscriber.renewalInfo {
          r.signedDate = signedNow.signedDate
          last.append(("signedRenewalInfo", .string(try sign(stamped(s, r.json)))))
        }
        groups.append(.object(JSONObject([
          ("subscriptionGroupIdentifier", .string(latest.subscriptionGroupIdentifier ?? "")),
          ("lastTransactions", .array([.object(JSONObject(last))])),
        ])))
      }
    }
    return object(appFields(s, env) + [("data", .array(groups))])
  }

  /// Get Transaction History v2 (paged by `revision`, `sort`, `productId`, dates, `revoked`), and
  /// Get Refund History (the revoked transactions).
  private func history(_ id: String, _ query: [(String, String)], _ env: AppStoreEnvironment, refundsOnly: Bool) throws -> [UInt8] {
    // The query is checked before the subscriber is looked up, as Apple answers a bad parameter
    // with its 400 whatever the id.
    let filter = refundsOnly ? HistoryFilter.refunds : try HistoryFilter(query)
    let s = try directory.subscriber(owningAny: id, environment: env)
    var all = s.transactions.filter(filter.keeps)
    if filter.descending { all.reverse() }
    let offset = try cursor(query.first { $0.0 == "revision" }?.1, prefix: "r", limit: all.count, failure: .invalidRevision)
    let page = Array(all[offset..<min(all.count, offset + settings.pageSize)])
    let next = offset + page.count
    return object([("revision", .string("r\(next)")), ("hasMore", .bool(next < all.count))] + appFields(s, env)
                  + [("signedTransactions", .array(try page.map { .string(try sign(stamped(s, $0.json))) }))])
  }

  /// Get Notification History: the body's `startDate`/`endDate` (ms, start within 180 days in
  /// production, 30 in sandbox), optional `transactionId`, `notificationType`,
  /// `notificationSubtype`, `onlyFailures`; paged by `paginationToken`.
  private func notificationHistory(_ query: [(String, String)], _ body: [UInt8], _ env: AppStoreEnvironment) throws -> [UInt8] {
    let invalidStart = APIFailure.invalidRequest(code: 4_000_015, message: "Invalid start date.")
    let invalidType = APIFailure.invalidRequest(code: 4_000_018, message: "Invalid notification type or subtype.")
    let o = try RequestBody.object(body, fields: ["startDate": invalidStart, "endDate": APIFailure.invalidRequest(code: 4_000_016, message: "Invalid end date."),
                                                  "transactionId": .invalidTransactionId, "originalTransactionId": .invalidTransactionId,
                                                  "notificationType": invalidType, "notificationSubtype": invalidType], unreadable: invalidStart)
    guard let start = RequestBody.number(o["startDate"]) else { throw invalidStart }
    guard let end = RequestBody.number(o["endDate"]) else { throw APIFailure.invalidRequest(code: 4_000_016, message: "Invalid end date.") }
    guard start < end else { throw APIFailure.invalidRequest(code: 4_000_013, message: "Start date after end date.") }
    // A filter of the wrong type is refused, never dropped: a numeric transactionId ignored
    // would have answered every customer's notifications instead of one's.
    func text(_ key: String, else failure: APIFailure) throws(APIFailure) -> String? {
      switch o[key] {
      case nil, .null?: return nil
      case .string(let s)?: return s
      default: throw failure
      }
    }
    let id = try text("transactionId", else: .invalidTransactionId) ?? text("originalTransactionId", else: .invalidTransactionId)
    let type = try text("notificationType", else: invalidType)
    let subtype = try text("notificationSubtype", else: invalidType)
    // Apple's rules for the filters: one customer or one type, not both; a subtype needs its type,
    // and the pair must be one Apple sends.
    if id != nil && type != nil { throw APIFailure.invalidRequest(code: 4_000_019, message: "Invalid request. Only one of transactionId and notificationType may be provided.") }
    guard NotificationPairs.isValidFilter(type: type, subtype: subtype) else {
      throw APIFailure.invalidRequest(code: 4_000_018, message: "Invalid notification type or subtype.")
    }
    let one = try id.map { try directory.subscriber(owning: $0, environment: env) }
    // Apple's window is 180 days back in production, 30 in sandbox, from now: for one subscriber
    // that is its file's clock (a simulated one may be months from the wall clock), else the wall.
    let days = env == .production ? 180.0 : 30.0
    let reference = one.map { now(of: $0.state).ms } ?? wallNow.ms
    guard start >= reference - days * 86_400_000 else {
      throw APIFailure.invalidRequest(code: 4_000_012, message: "Start date too far in past.")
    }
    let subscribers: [SubscriberRecord]
    if let one { subscribers = [one] } else {
      subscribers = directory.stateFiles().compactMap { file in
        guard let state = try? StateFile.load(path: file), directory.isOurs(state, in: env) else { return nil }
        return try? SubscriberRecord(path: file, state: state)
      }
    }
    let onlyFailures: Bool
    switch o["onlyFailures"] {
    case nil, .null?: onlyFailures = false
    case .bool(let b)?: onlyFailures = b
    default: throw APIFailure.invalidRequest(code: 4_000_000, message: "Bad request: onlyFailures must be true or false.")
    }
    // Chosen and ordered first; only the page asked for is signed (three signatures each).
    enum Payload { case toSign(NotificationEnvelope), signed(String) }
    var items: [(date: Double, payload: Payload, attempts: [DeliveryAttempt])] = []
    for s in subscribers {
      let book = s.state.document.deliveries
      for (n, t) in s.notifications {
        guard let date = n.signedDate?.ms, date >= start, date < end else { continue }
        if let type, n.notificationType.rawValue != type { continue }
        if let subtype, n.subtype?.rawValue != subtype { continue }
        let attempts = book.map { b in n.notificationUUID.map { b.deliveries(of: $0).filter { !$0.isDuplicate }.flatMap(\.sendAttempts) } ?? [] } ?? []
        if onlyFailures && Self.reached(attempts) { continue }
        let envelope = NotificationEnvelope(n, transaction: t, renewalInfo: s.state.subscriber.renewalInfo, appAppleId: settings.appAppleId)
        items.append((date, .toSign(envelope), attempts))
      }
    }
    // A mass extension's SUMMARY concerns no transaction: listed when the request names none.
    if id == nil {
      for a in lock.withLock({ massExtensions.values.compactMap(\.summary) }) where a.environment == env {
        let date = a.signedDate.ms
        guard date >= start, date < end, type == nil || type == a.type, subtype == nil || subtype == a.subtype else { continue }
        if onlyFailures && Self.reached(a.attempts) { continue }
        items.append((date, .signed(a.signedPayload), a.attempts))
      }
    }
    items.sort { $0.date < $1.date }
    let offset = try cursor(query.first { $0.0 == "paginationToken" }?.1, prefix: "p", limit: items.count, failure: .invalidPaginationToken)
    let signer = NotificationSigner(authority: authority)
    let page: [JSON] = try items[offset..<min(items.count, offset + settings.pageSize)].map { item in
      let signed = switch item.payload {
      case .toSign(let envelope): try signer.signedPayload(envelope)
      case .signed(let payload): payload
      }
      var fields: [(String, JSON)] = [("signedPayload", .string(signed)),
                                      ("sendAttempts", .array(item.attempts.prefix(6).map { Self.attemptJSON($0) }))]
      if let first = item.attempts.first { fields.append(("firstSendAttemptResult", .string(first.result.rawValue))) }
      return .object(JSONObject(fields))
    }
    let next = offset + page.count
    return object([("paginationToken", .string("p\(next)")), ("hasMore", .bool(next < items.count)), ("notificationHistory", .array(page))])
  }

  /// Look Up Order ID: a subscriber fetched by that order ID (`fetchedFrom.orderId`), else status 1.
  private func lookup(_ orderId: String) -> [UInt8] {
    guard let s = directory.subscriber(orderId: orderId) else { return object([("status", .int(1))]) }
    let signed = s.transactions.compactMap { try? sign($0.json) }
    return object([("status", .int(0)), ("signedTransactions", .array(signed.map(JSON.string)))])
  }

  /// Request a Test Notification: a TEST signed now; sent to `notifyURL` when there is one.
  private func requestTest(_ env: AppStoreEnvironment) async throws -> [UInt8] {
    let now = wallNow
    let token = UUID().uuidString.lowercased() + "_" + String(Int64(now.ms))
    let n = NotificationRecord(type: .test, uuid: UUID().uuidString.lowercased(), signedDate: now, status: nil)
    let sent = try await sendAppLevel(n, env, summary: nil)
    lock.withLock { testNotifications[token] = sent }
    return object([("testNotificationToken", .string(token))])
  }

  /// Signs a notification about the app (TEST, a mass extension's SUMMARY) and sends it to
  /// `notifyURL`, else to this server's own receiver, once (no retries here, unlike a deliverer's).
  func sendAppLevel(_ n: NotificationRecord, _ env: AppStoreEnvironment, summary: JSONObject?) async throws -> AppLevelNotification {
    var envelope = NotificationEnvelope(n, transaction: nil, renewalInfo: nil, appAppleId: settings.appAppleId)
    envelope.environment = env.rawValue
    envelope.bundleId = settings.check.bundleID
    envelope.summary = summary
    let payload = try NotificationSigner(authority: authority).signedPayload(envelope)
    var attempts: [DeliveryAttempt] = []
    if let url = settings.notifyURL ?? lock.withLock({ ownReceiver }), let sender {
      let started = wallNow
      let outcome = await sender.send(NotificationSigner.body(payload), to: url, timeout: Double(settings.notifyTimeoutMs) / 1000)
      attempts.append(DeliveryAttempt(attemptDate: started, result: outcome.result, httpStatus: outcome.httpStatus))
    }
    return AppLevelNotification(environment: env, signedDate: n.signedDate ?? wallNow, type: n.notificationType.rawValue,
                                subtype: n.subtype?.rawValue, signedPayload: payload, attempts: attempts)
  }

  /// Get Test Notification Status.
  private func testStatus(_ token: String) throws -> [UInt8] {
    guard let found = lock.withLock({ testNotifications[token] }) else {
      throw APIFailure.invalidRequest(code: 4_040_008, message: "Test notification not found.")
    }
    var fields: [(String, JSON)] = [("signedPayload", .string(found.signedPayload)), ("sendAttempts", .array(found.attempts.map { Self.attemptJSON($0) }))]
    if let first = found.attempts.first { fields.append(("firstSendAttemptResult", .string(first.result.rawValue))) }
    return object(fields)
  }

  /// Extend a Subscription Renewal Date: the same rule and write as `subdash extend` (sandbox
  /// files only; RENEWAL_EXTENDED joins the file's log, so a deliverer sends it).
  private func extend(_ originalId: String, _ body: [UInt8], _ env: AppStoreEnvironment) async throws -> [UInt8] {
    let invalidDays = APIFailure.invalidRequest(code: 4_000_009, message: ExtensionRefusal.sentence(forCode: 4_000_009))
    let invalidReason = APIFailure.invalidRequest(code: 4_000_010, message: ExtensionRefusal.sentence(forCode: 4_000_010))
    let invalidRequestId = APIFailure.invalidRequest(code: 4_000_011, message: "Invalid request identifier.")
    let o = try RequestBody.object(body, fields: ["extendByDays": invalidDays, "extendReasonCode": invalidReason, "requestIdentifier": invalidRequestId],
                                   unreadable: invalidDays)
    // `true`, `1.9`, `"3"` and a number past 64 bits are not a number of days (Apple's 4000009);
    // a whole number outside 1–90 is refused by the extension's own rule, which names it.
    guard let days = RequestBody.integer(o["extendByDays"]).flatMap({ Int(exactly: $0) }) else { throw invalidDays }
    guard let code = RequestBody.integer(o["extendReasonCode"]).flatMap({ Int(exactly: $0) }), let reason = ExtendReasonCode(rawValue: code) else {
      throw invalidReason
    }
    guard let requestId = o["requestIdentifier"]?.stringValue, !requestId.isEmpty, requestId.count <= 128 else { throw invalidRequestId }
    let s = try directory.subscriber(owning: originalId, environment: env)
    let wall = wallNow
    let saved: Change
    // A subscriber locked past the bound is a 500 with the retryable 5000001, as Apple answers
    // a temporary failure; the wait holds no thread (other requests go on).
    switch await change(s, { (current) throws(ActionError) -> Change in
      let at = (try? Simulator.settings(current))?.now ?? wall
      return try Actions.apply(.extendRenewalDate(days: days, reason: reason), to: current, at: at, timing: Simulator.timing(current)).get()
    }) {
    case .applied(let c), .created(let c): saved = c
    case .unchanged(let state): saved = Change(state: state ?? s.state, message: "nothing changed")
    case .refused(.extensionRefused(let r)): throw APIFailure.extensionRefused(code: r.errorCode, message: r.apiMessage)
    case .refused(let other): throw APIFailure.extensionRefused(code: 4_030_004, message: other.message)
    case .busy(let e), .failed(let e): throw APIFailure.unreadable(s.path, e.description)
    }
    // Family members follow the purchaser's new date (Apple: automatically), through the same store.
    let (directoryStore, name) = DirectorySubscriberStore.holding(s.path)
    // A member that cannot follow (its own access ended) is its own business: the purchaser's answer stands.
    _ = await FamilyExtension.extendMembers(after: saved, in: store ?? directoryStore, skipping: name, wall: wall)
    let t = saved.state.subscriber.latestTransaction
    return object([("originalTransactionId", .string(t?.originalTransactionId ?? originalId)),
                   ("webOrderLineItemId", .string(t?.webOrderLineItemId ?? "")), ("success", .bool(true)),
                   ("effectiveDate", t?.expiresDate.map { JSON.double($0.ms) } ?? .null)])
  }

  // MARK: - Helpers

  private func sign(_ json: JSON) throws -> String { try authority.sign(payloadJSON: JSONWriter.write(json)) }

  func object(_ fields: [(String, JSON)]) -> [UInt8] { JSONWriter.write(.object(JSONObject(fields))) }

  private func appFields(_ s: SubscriberRecord, _ env: AppStoreEnvironment) -> [(String, JSON)] {
    var out: [(String, JSON)] = [("environment", .string(env == .production ? "Production" : "Sandbox")),
                                 ("bundleId", .string(s.bundleId ?? settings.check.bundleID))]
    if let id = settings.appAppleId { out.append(("appAppleId", .int(id))) }
    return out
  }

  /// The moment a status is as of: the file's simulated clock, else now.
  func now(of state: SubscriptionState) -> Instant {
    (try? Simulator.settings(state))?.now ?? wallNow
  }

  /// The server's wall clock, to the millisecond.
  var wallNow: Instant { Instant(ms: (wallClock().timeIntervalSince1970 * 1000).rounded(.down)) }

  private func cursor(_ token: String?, prefix: Character, limit: Int, failure: APIFailure) throws -> Int {
    guard let token else { return 0 }
    // Exactly what this server issues (`r12`): `Int` alone also takes `r+12`, `r-0` and `r012`.
    let digits = token.utf8.dropFirst()
    guard token.first == prefix, !digits.isEmpty, digits.count <= 18, digits.allSatisfy({ $0 >= UInt8(ascii: "0") && $0 <= UInt8(ascii: "9") }),
          digits.first != UInt8(ascii: "0") || digits.count == 1,
          let n = Int(token.dropFirst()), n <= limit else { throw failure }
    return n
  }

  /// `onlyFailures` keeps "notifications that never reached you, plus those still being retried":
  /// those with no successful attempt. One that failed first and then got through is not a failure.
  static func reached(_ attempts: [DeliveryAttempt]) -> Bool { attempts.contains { $0.result == .success } }

  static func attemptJSON(_ a: DeliveryAttempt) -> JSON {
    .object(JSONObject([("attemptDate", .double(a.attemptDate.ms)), ("sendAttemptResult", .string(a.result.rawValue))]))
  }
}
