/// Whitespace trimming without Foundation's `trimmingCharacters(in:)`, which lives in the full
/// Foundation (NSString bridging). DashModel imports only FoundationEssentials so that the
/// executables do not load Foundation, FoundationInternationalization and ICU at start-up
/// (docs/benchmarks-dashboard.md, "show vs jq").
extension StringProtocol {
  /// The text without leading and trailing spaces, tabs and carriage returns: the characters a
  /// hand-edited line may carry around a value. Newlines are never inside one line here.
  public var trimmedSpaces: String {
    let isSpace: (Character) -> Bool = { $0 == "\r" || ($0.isWhitespace && !$0.isNewline) }
    guard let first = firstIndex(where: { !isSpace($0) }) else { return "" }
    let last = lastIndex(where: { !isSpace($0) })!
    return String(self[first...last])
  }
}
