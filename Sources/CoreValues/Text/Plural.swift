/// `counted(1, "notification") == "1 notification"`, `counted(3, "notification") == "3 notifications"`.
/// One place for count-and-noun text, so no message reads "1 notifications". `plural` is for
/// nouns that do not just add an "s".
public func counted(_ n: Int, _ noun: String, plural: String? = nil) -> String {
  "\(n) \(n == 1 ? noun : plural ?? noun + "s")"
}
