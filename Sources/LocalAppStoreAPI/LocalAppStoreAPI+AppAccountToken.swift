import DashModel
import CoreValues

/// Set App Account Token: `PUT /inApps/v1/transactions/{originalTransactionId}/appAccountToken`
/// with `{"appAccountToken": UUID}`; 200 with no body. Checked as Apple checks it: a token that is
/// not a UUID is 4000183, a transaction id that is not the subscription's original one 4000187, a
/// Family Sharing member's transaction 4000185. Written through the locked path at the file's clock.
extension LocalAppStoreAPI {
  func setAppAccountToken(_ originalTransactionId: String, _ body: [UInt8], _ env: AppStoreEnvironment) async throws -> Answer {
    let s = try directory.subscriber(owning: originalTransactionId, environment: env)
    guard case .object(let o)? = try? JSONParser.parse(body), let raw = o["appAccountToken"]?.stringValue,
          let token = AppAccountTokenUpdate.normalized(raw) else {
      throw APIFailure.invalidRequest(code: 4_000_183, message: "Invalid request. The app account token field must be a valid UUID.")
    }
    guard s.state.subscriber.originalTransactionId == originalTransactionId else {
      throw APIFailure.invalidRequest(code: 4_000_187, message: "Invalid request. The transaction ID provided is not an original transaction ID.")
    }
    guard s.state.subscriber.latestTransaction?.isFamilyShared != true else {
      throw APIFailure.invalidRequest(code: 4_000_185, message: "Invalid request. Family Sharing transactions aren't supported by this endpoint.")
    }
    switch await change(s, { (current) throws(ActionError) -> Change in
      try AppAccountTokenUpdate.apply(token: token, to: current, at: self.now(of: current)).get()
    }) {
    case .applied(let c), .created(let c): return Answer(status: 200, note: c.message)
    case .unchanged: return Answer(status: 200, note: "nothing changed")
    // SubDash does not change Production data (a fetched customer's file stays Apple's).
    case .refused(let why): throw APIFailure.invalidRequest(code: 4_000_000, message: "Bad request: \(why.message)")
    case .busy(let e), .failed(let e): throw APIFailure.unreadable(s.path, e.description)
    }
  }
}
