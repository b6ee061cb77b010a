/// The refund an immediate plan change gives for the unused part of the current period.
///
/// Apple: "the user receives a prorated refund for the unused portion of the previous period"
/// (DID_CHANGE_RENEWAL_PREF / UPGRADE). SubDash computes it as
/// `price × (expiresDate − now) / (expiresDate − purchaseDate)`, in whole milliunits, rounded
/// half up. The arithmetic is exact integer arithmetic on microseconds (128-bit intermediate), so
/// a refund never depends on floating-point luck: 9990 × ½ is 4995, not 4994.
public enum Proration {
  public static func refundMilli(priceMilli: Int64, purchaseDate: Instant, expiresDate: Instant, at now: Instant) -> Int64 {
    guard priceMilli > 0 else { return 0 }
    let start = micros(purchaseDate), end = micros(expiresDate), at = micros(now)
    guard end > start else { return 0 }
    let total = UInt64(end - start)
    let unused = UInt64(min(max(end - at, 0), end - start))
    let product = UInt64(priceMilli).multipliedFullWidth(by: unused)
    // unused ≤ total, so the quotient fits (it is at most the price).
    let (q, r) = total.dividingFullWidth(product)
    return Int64(q) + (r >= total - r ? 1 : 0)
  }

  /// Whole microseconds (Xcode's fractional milliseconds keep three decimals). Dates read from a
  /// file lie in years 1900–3000; the clamp only keeps an absurd `now` from trapping.
  private static func micros(_ i: Instant) -> Int64 { Int64(min(max(i.ms * 1000, -4e18), 4e18).rounded()) }
}
