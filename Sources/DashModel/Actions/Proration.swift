import CoreValues
/// The refund an immediate plan change gives for the unused part of the current period.
///
/// Apple: "the user receives a prorated refund for the unused portion of the previous period"
/// (DID_CHANGE_RENEWAL_PREF / UPGRADE). SubDash computes it as
/// `price × (expiresDate − now) / (expiresDate − purchaseDate)` and rounds it ONCE, straight from
/// that exact fraction, to the currency's minor unit (cents for USD and EUR, whole yen for JPY,
/// fils for KWD; `Format.minorDigits`), because money is refunded in amounts a card can be
/// credited: "2.436 USD" is not a refund anyone receives. The result stays in milliunits (2440).
///
/// Rounding rule: half up (a tie goes to the customer). A tie needs the unused share to be an
/// exact fraction landing on half a minor unit (half a period of 9.99 is 4.995); the App Store
/// rounds a refund once per plan change, so half-even's advantage (no drift when many rounded
/// amounts are summed) does not apply, and half up matches what a customer would expect of
/// "the unused half of 9.99". Rounding from the exact fraction (not from a milliunit value
/// rounded first) avoids double rounding: 2.4349… is 2.43, never 2.435 → 2.44.
///
/// The arithmetic is exact integer arithmetic on microseconds (128-bit intermediate), so a refund
/// never depends on floating-point luck.
public enum Proration {
  public static func refundMilli(priceMilli: Int64, purchaseDate: Instant, expiresDate: Instant, at now: Instant, currency: String?) -> Int64 {
    guard priceMilli > 0 else { return 0 }
    let start = micros(purchaseDate), end = micros(expiresDate), at = micros(now)
    guard end > start else { return 0 }
    let total = UInt64(end - start)
    let unused = UInt64(min(max(end - at, 0), end - start))
    // Exact refund in milliunits: q + r/total (r < total), as before; unused ≤ total keeps q ≤ price.
    let (q, r) = total.dividingFullWidth(UInt64(priceMilli).multipliedFullWidth(by: unused))
    // Then to minor units: q = units × unit + m, and the exact value is units + (m + r/total)/unit.
    // It reaches half a unit when 2m ≥ unit (units are 10, 100, 1000: even), or, for a unit of one
    // milliunit (m = 0), when 2r ≥ total. Comparing this way never multiplies past 64 bits.
    let unit = minorUnitMilli(currency)
    let m = q % unit
    let up = unit == 1 ? r >= total - r : 2 * m >= unit
    let refund = (q / unit + (up ? 1 : 0)) * unit
    // A price with more decimals than the currency has (9.995 USD) must not refund more than paid.
    return min(Int64(refund), priceMilli)
  }

  /// Milliunits in one minor unit of `currency`: 10 for USD (a cent), 1000 for JPY, 1 for KWD.
  /// An unknown or missing currency uses two decimals, as `Format.money` shows it.
  static func minorUnitMilli(_ currency: String?) -> UInt64 {
    switch Format.minorDigits(currency ?? "") {
    case 0: return 1000
    case 1: return 100
    case 2: return 10
    default: return 1
    }
  }

  /// Whole microseconds (Xcode's fractional milliseconds keep three decimals). Dates read from a
  /// file lie in years 1900–3000; the clamp only keeps an absurd `now` from trapping.
  private static func micros(_ i: Instant) -> Int64 { Int64(min(max(i.ms * 1000, -4e18), 4e18).rounded()) }
}
