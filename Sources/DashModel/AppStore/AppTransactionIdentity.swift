/// A customer's `appTransactionId`: Apple's one identifier per Apple Account and app, the same
/// after a redownload, a refund or a storefront change, and one per family member (Get App
/// Transaction Info). StoreKit and the App Store Server API carry it in every transaction and in
/// the renewal info (App Store Server API 1.15, 2025).
///
/// A file that was imported or fetched keeps Apple's own value. A file that carries none (the
/// simulator's customers, older examples) gets one derived from the app and the subscription's
/// original transaction id, so it is the same on every read and differs between customers, and a
/// family member's (a FAMILY_SHARED transaction, its own originalTransactionId) differs from the
/// purchaser's. The digits and length are SubDash's choice (Apple's look alike: 18 digits); Apple
/// documents no format.
public enum AppTransactionIdentity {
  public static let key = "appTransactionId"

  /// The subscriber's appTransactionId: the latest transaction's, the renewal info's, any earlier
  /// transaction's, else the derived one (nil only when the file names no subscription at all).
  public static func id(of subscriber: Subscriber, history: [TransactionPayload] = [], bundleId: String?) -> String? {
    if let own = subscriber.latestTransaction?.source[key]?.stringValue ?? subscriber.renewalInfo?.source[key]?.stringValue { return own }
    if let earlier = history.reversed().lazy.compactMap({ $0.source[key]?.stringValue }).first { return earlier }
    guard let original = subscriber.originalTransactionId else { return nil }
    return derived(bundleId: bundleId ?? subscriber.latestTransaction?.bundleId ?? "", originalTransactionId: original)
  }

  /// Gives the renewal info the latest transaction's appTransactionId when it has none (Apple's
  /// JWSRenewalInfoDecodedPayload carries it too): what the simulator and the plan actions call on
  /// the state they are about to save, so a renewal info built before the first transaction (a
  /// purchase) or kept from an older file matches the transactions.
  static func stampRenewalInfo(_ state: inout SubscriptionState) {
    guard var info = state.subscriber.renewalInfo, info.source[key] == nil,
          let id = state.subscriber.latestTransaction?.source[key] else { return }
    info.source[key] = id
    state.subscriber.renewalInfo = info
  }

  /// 18 digits from FNV-1a over the app and the original transaction id: "7" then 17 digits.
  public static func derived(bundleId: String, originalTransactionId: String) -> String {
    var hash: UInt64 = 0xcbf2_9ce4_8422_2325
    for byte in (bundleId + "|" + originalTransactionId).utf8 {
      hash ^= UInt64(byte)
      hash = hash &* 0x0000_0100_0000_01b3
    }
    let digits = String(hash % 100_000_000_000_000_000)
    return "7" + String(repeating: "0", count: 17 - digits.count) + digits
  }
}
