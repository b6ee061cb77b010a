import CoreValues
/// Shared wording for action previews, messages and notification summaries.
enum ActionText {
  /// "9.99 USD"; the bare amount when the currency is unknown.
  static func money(_ milli: Int64, _ currency: String?) -> String { Format.money(milliunits: milli, currency: currency ?? "") }
}
