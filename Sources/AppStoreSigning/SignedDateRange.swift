/// The `signedDate`s a JWS may carry: 1900-01-01 to 3000-01-01 (UTC), in milliseconds since 1970.
///
/// The chain is validated at the payload's own `signedDate`, before the signature can be checked
/// (the key that checks it is the leaf's, which the chain vouches for). So the date is the one
/// payload value that reaches a library before anything proves who wrote it, and swift-certificates
/// traps (`try!` in `GeneralizedTime(Date)`) on a year outside 0001-9999. The range is DashModel's
/// `Instant.fileRange` (a state file refuses any other date, so nothing outside it could be imported
/// anyway), well inside what X.509 and `Int64` milliseconds can represent; a date outside it is
/// invalid input, refused with a reason before any library sees it.
enum SignedDateRange {
  static let milliseconds: ClosedRange<Double> = -2_208_988_800_000...32_503_680_000_000

  /// Throws unless `value` is a finite number of milliseconds in the range.
  static func check(_ value: Double) throws {
    guard value.isFinite, milliseconds.contains(value) else {
      throw SigningError("payload signedDate \(text(value)) is not a date from 1900-01-01 to 3000-01-01 (milliseconds since 1970)")
    }
  }

  /// The number as a person wrote it: whole milliseconds without a `.0`, anything else as Swift prints it.
  static func text(_ value: Double) -> String {
    if value.isFinite, value == value.rounded(), abs(value) < 1e18 { return String(Int64(value)) }
    return "\(value)"
  }
}
