import CoreValues
/// One subscriber as the list shows it: a summary of one state file at one moment. Plain values
/// only, so the index can store it, `list --json` can print it and tests can compare it.
public struct ListRow: Equatable, Sendable {
  /// The state file's name inside the directory (the row's identity; files stay the truth).
  public var file: String
  public var originalTransactionId: String?
  public var appAccountToken: String?
  public var productId: String?
  public var productName: String?
  public var status: ListStatus
  /// What happens next and when: renews, expires, switches, or nil when nothing is due.
  public var due: Due?
  public var flags: [ListFlag]
  /// The newest notification: its type (and subtype) and when it was signed.
  public var lastEvent: String?
  public var lastEventDate: Instant?
  /// Other ids a support person may paste: transactionId, webOrderLineItemId (order ids).
  public var otherIds: [String]
  /// Why the file could not be read (the row then shows only the file and this).
  public var error: String?
  /// The file's own simulated clock, when it keeps one: the row was derived at it, and its
  /// countdowns count from it rather than from the list's clock.
  public var simulatedNow: Instant?
  /// The next moment the row's status or due date can change by time alone (a renewal or
  /// expiry date, the end of grace or of billing retry): a stored row is re-derived after it.
  public var changesAt: Instant?

  public struct Due: Equatable, Sendable {
    /// `retryEnds`: Apple stops retrying the payment then (the subscription expires unless it is
    /// recovered first), the one thing due for a row in billing retry.
    public enum Kind: String, Sendable { case renews, expires, switches, ends, retryEnds = "retry-ends" }
    public var kind: Kind
    public var date: Instant
    public init(_ kind: Kind, _ date: Instant) {
      self.kind = kind
      self.date = date
    }
  }

  public init(file: String, status: ListStatus) {
    self.file = file
    self.status = status
    self.flags = []
    self.otherIds = []
  }

  /// A row for a file that could not be read: listed (so nothing silently disappears), never opened blind.
  public static func unreadable(file: String, error: String) -> ListRow {
    var row = ListRow(file: file, status: .fileError)
    row.error = error
    return row
  }
}

/// The dashboard's status words, one per row, in Apple's precedence.
public enum ListStatus: String, Sendable, CaseIterable, Comparable {
  case active, grace, retry, expired, revoked, none, fileError = "error"

  /// The badge the dashboard's banners use for the same state.
  public var word: String {
    switch self {
    case .active: return "ACTIVE"
    case .grace: return "GRACE PERIOD"
    case .retry: return "BILLING RETRY"
    case .expired: return "EXPIRED"
    case .revoked: return "REVOKED"
    case .none: return "NOT SUBSCRIBED"
    case .fileError: return "FILE ERROR"
    }
  }

  /// Apple's status code (1–5, as `show --json` and the App Store give it); nil when there is no
  /// subscription status (never subscribed, or the file could not be read).
  public var code: Int? {
    switch self {
    case .active: return SubscriptionStatus.active.rawValue
    case .grace: return SubscriptionStatus.billingGracePeriod.rawValue
    case .retry: return SubscriptionStatus.billingRetry.rawValue
    case .expired: return SubscriptionStatus.expired.rawValue
    case .revoked: return SubscriptionStatus.revoked.rawValue
    case .none, .fileError: return nil
    }
  }

  /// The status's name as `show --json` writes it (`statusName`): Apple's words for the code,
  /// "never subscribed" without one, "file error" for a file that could not be read.
  public var name: String {
    switch self {
    case .none: return LifecycleReport.neverSubscribedName
    case .fileError: return "file error"
    default: return code.map { SubscriptionStatus(rawValue: $0).description } ?? rawValue
    }
  }

  public static func < (a: ListStatus, b: ListStatus) -> Bool {
    allCases.firstIndex(of: a)! < allCases.firstIndex(of: b)!
  }
}

/// Things a support person scans for, beside the status.
public enum ListFlag: String, Sendable, CaseIterable {
  case grace, retry = "billing-retry", refunded, priceIncrease = "price-increase", pendingChange = "pending-change",
       autoRenewOff = "auto-renew-off", checkFile = "check-file"
  /// Imported data whose signature chained to Apple, or imported data that did not (unverified,
  /// unsigned, RevenueCat). Files the simulator made carry neither.
  case appleSigned = "apple-signed", notAppleSigned = "not-apple-signed"
  /// Imported data a root given with `--root` signed (a test CA): signed, so never "unsigned", and
  /// not Apple's. `flag:not-apple` finds it with the data that is not signed at all.
  case locallySigned = "locally-signed"

  /// Short words for the flags column.
  public var word: String {
    switch self {
    case .grace: return "grace"
    case .retry: return "retry"
    case .refunded: return "refunded"
    case .priceIncrease: return "price+"
    case .pendingChange: return "change"
    case .autoRenewOff: return "renew-off"
    case .checkFile: return "check"
    case .appleSigned: return "signed"
    case .notAppleSigned: return "unsigned"
    case .locallySigned: return "not-apple"
    }
  }
}
