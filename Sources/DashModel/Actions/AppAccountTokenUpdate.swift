import CoreValues
/// Set App Account Token (App Store Server API): the developer's backend links a subscription to
/// one of its customer accounts after the fact (a purchase made outside the app, or a token to
/// correct). The latest transaction gets the token as a new version of itself (signed now, kept in
/// the history, so Get Transaction History and a fetch show it), and the renewal info carries it,
/// so every later renewal does too. Apple sends no notification for it.
public enum AppAccountTokenUpdate {
  /// Apple's appAccountToken is a UUID; kept lowercase, as StoreKit writes it.
  public static func normalized(_ token: String) -> String? {
    let parts = token.split(separator: "-", omittingEmptySubsequences: false)
    guard parts.map(\.count) == [8, 4, 4, 4, 12], parts.allSatisfy({ $0.allSatisfy(\.isHexDigit) }) else { return nil }
    return token.lowercased()
  }

  public static func apply(token: String, to state: SubscriptionState, at now: Instant) -> Result<Change, ActionError> {
    guard state.subscriber.environment != .production else { return .failure(.productionData("Setting the app account token")) }
    guard var latest = state.subscriber.latestTransaction else { return .failure(.noSubscription) }
    guard let token = normalized(token) else { return .failure(.other("\(token) is not a UUID")) }
    var next = state
    let before = latest.appAccountToken
    latest.appAccountToken = token
    latest.signedDate = now
    next.subscriber.latestTransaction = latest
    if var info = next.subscriber.renewalInfo {
      info.appAccountToken = token
      info.signedDate = now
      next.subscriber.renewalInfo = info
    }
    let what = before.map { "changed from \($0) to \(token)" } ?? "set to \(token)"
    return .success(Change(state: next, transactions: [latest], message: "App account token \(what) (Set App Account Token)"))
  }
}
