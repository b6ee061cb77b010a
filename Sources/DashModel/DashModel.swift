/// DashModel: the pure model behind SubDash. It never reads the wall clock: every function
/// that depends on time takes `now` as an argument.
public enum DashModelInfo {
  public static let stateFormat = "subdash-state/1"
}
