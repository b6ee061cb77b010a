/// Which `subtype` each `notificationType` can carry, from Apple's notificationType and subtype
/// pages (docs/appstore-server-api.md §5, corrections §8): Get Notification History refuses a pair
/// outside this table with 4000018, as Apple does. `nil` in a set means "no subtype".
public enum NotificationPairs {
  public static let subtypes: [String: Set<String?>] = [
    "SUBSCRIBED": ["INITIAL_BUY", "RESUBSCRIBE"],
    "DID_CHANGE_RENEWAL_PREF": ["UPGRADE", "DOWNGRADE", nil],
    "DID_CHANGE_RENEWAL_STATUS": ["AUTO_RENEW_ENABLED", "AUTO_RENEW_DISABLED"],
    "DID_FAIL_TO_RENEW": ["GRACE_PERIOD", nil],
    "DID_RENEW": ["BILLING_RECOVERY", nil],
    "EXPIRED": ["VOLUNTARY", "BILLING_RETRY", "PRICE_INCREASE", "PRODUCT_NOT_FOR_SALE", nil],
    "GRACE_PERIOD_EXPIRED": [nil],
    "OFFER_REDEEMED": ["INITIAL_BUY", "RESUBSCRIBE", "UPGRADE", "DOWNGRADE", nil],
    "PRICE_INCREASE": ["PENDING", "ACCEPTED"],
    "REFUND": [nil], "REFUND_DECLINED": [nil], "REFUND_REVERSED": [nil],
    "RENEWAL_EXTENDED": [nil],
    "RENEWAL_EXTENSION": ["SUMMARY", "FAILURE"],
    "REVOKE": [nil], "TEST": [nil], "CONSUMPTION_REQUEST": [nil], "METADATA_UPDATE": [nil], "MIGRATION": [nil],
    "PRICE_CHANGE": [nil], "ONE_TIME_CHARGE": [nil], "RESCIND_CONSENT": [nil],
    "EXTERNAL_PURCHASE_TOKEN": ["UNREPORTED", "CREATED", "ACTIVE_TOKEN_REMINDER"],
  ]

  /// Whether a history filter names a real pair: a known type, and a subtype that type carries.
  public static func isValidFilter(type: String?, subtype: String?) -> Bool {
    guard let type else { return subtype == nil }
    guard let allowed = subtypes[type] else { return false }
    guard let subtype else { return true }
    return allowed.contains(subtype)
  }
}
