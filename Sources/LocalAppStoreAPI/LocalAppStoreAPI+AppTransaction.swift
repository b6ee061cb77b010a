import DashModel
import CoreValues

/// Get App Transaction Info (`GET /inApps/v1/transactions/appTransactions/{transactionId}`, App
/// Store Server API 1.17) and Finish Transaction (`POST /inApps/v1/transactions/{transactionId}/finish`, 1.20).
///
/// The app transaction is the customer's purchase of the app, signed like a transaction, with the
/// fields of Apple's AppTransaction. Apple's page: "You can provide any transaction ID that belongs
/// to the customer"; the customer's appTransactionId is taken too (SubDash's reading: it names the
/// customer). What a state file does not know (the app's versions, the platform) is SubDash's
/// stand-in: "1.0" and iOS, and versionExternalIdentifier 0, which is what Apple's sandbox sends.
extension LocalAppStoreAPI {
  func appTransactionInfo(_ id: String, _ env: AppStoreEnvironment) throws -> Answer {
    guard let s = try customer(id, env) ?? directory.subscriber(appTransactionId: id, environment: env) else {
      throw APIFailure.invalidRequest(code: 4_040_019, message: "No app transaction exists for the customer.")
    }
    let bundleId = s.bundleId ?? settings.check.bundleID
    guard let appTransactionId = AppTransactionIdentity.id(of: s.state.subscriber, history: s.transactions, bundleId: bundleId) else {
      throw APIFailure.invalidRequest(code: 4_040_019, message: "No app transaction exists for the customer.")
    }
    let firstPurchase = s.transactions.compactMap { $0.originalPurchaseDate ?? $0.purchaseDate }.min()
      ?? s.state.subscriber.latestTransaction?.originalPurchaseDate
    let environment = env == .production ? "Production" : "Sandbox"
    var fields: [(String, JSON)] = [("receiptType", .string(environment))]
    if let app = settings.appAppleId { fields.append(("appAppleId", .int(app))) }
    fields += [("bundleId", .string(bundleId)), ("applicationVersion", .string("1.0")), ("versionExternalIdentifier", .int(0)),
               ("receiptCreationDate", .double(now(of: s.state).ms)), ("requestDate", .double(now(of: s.state).ms)),
               ("signedDate", .double(now(of: s.state).ms))]
    if let firstPurchase { fields.append(("originalPurchaseDate", .double(firstPurchase.ms))) }
    fields += [("originalApplicationVersion", .string("1.0")), ("appTransactionId", .string(appTransactionId)),
               ("originalPlatform", .string("iOS"))]
    let signed = try authority.sign(payloadJSON: JSONWriter.write(.object(JSONObject(fields))))
    return Answer(object([("signedAppTransactionInfo", .string(signed))]))
  }

  /// Finish Transaction: 200 with no body; recorded in the subscriber's file (locked, at its clock).
  func finishTransaction(_ transactionId: String, _ env: AppStoreEnvironment) async throws -> Answer {
    guard let s = try customer(transactionId, env) else {
      // Apple: "Invalid request. App transactions aren't supported by this endpoint."
      if directory.subscriber(appTransactionId: transactionId, environment: env) != nil {
        throw APIFailure.appTransactionIdNotSupported
      }
      throw APIFailure.transactionNotFound
    }
    switch await change(s, { (current) throws(ActionError) -> Change in
      FinishedTransactions.apply(transactionId: transactionId, to: current, at: self.now(of: current))
    }) {
    case .applied(let c), .created(let c): return Answer(status: 200, note: c.message)
    case .unchanged: return Answer(status: 200, note: "nothing changed")
    case .refused(let why): throw APIFailure.invalidRequest(code: 4_000_000, message: "Bad request: \(why.message)")
    case .busy(let e), .failed(let e): throw APIFailure.unreadable(s.path, e.description)
    }
  }

  /// A transaction or renewal info as signed for `s`: with the customer's appTransactionId when the
  /// file's payload has none (written before the simulator stamped it), the one Get App
  /// Transaction Info answers with, so every payload of a customer names the same app transaction.
  func stamped(_ s: SubscriberRecord, _ payload: JSON) -> JSON {
    guard case .object(var o) = payload, o[AppTransactionIdentity.key] == nil,
          let id = AppTransactionIdentity.id(of: s.state.subscriber, history: s.transactions, bundleId: s.bundleId ?? settings.check.bundleID)
    else { return payload }
    o[AppTransactionIdentity.key] = .string(id)
    return .object(o)
  }

  /// The subscriber owning a transaction id, nil when none does (other failures thrown).
  private func customer(_ id: String, _ env: AppStoreEnvironment) throws -> SubscriberRecord? {
    do { return try directory.subscriber(owning: id, environment: env) } catch {
      if error == .transactionNotFound { return nil }
      throw error
    }
  }
}
