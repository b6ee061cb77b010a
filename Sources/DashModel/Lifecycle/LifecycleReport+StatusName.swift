extension LifecycleReport {
  /// `statusName` when there is no status code: `show --json` and `list --json` both write it, so
  /// a script reading either sees one set of names.
  public static let neverSubscribedName = "never subscribed"

  /// The status's name as `show --json` and `list --json` write it (`statusName`).
  public var statusName: String { status?.description ?? Self.neverSubscribedName }
}
