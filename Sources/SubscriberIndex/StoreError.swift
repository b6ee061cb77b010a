/// One line, naming the index or directory, for the house rule on errors.
public struct StoreError: Error, CustomStringConvertible, Sendable {
  public var description: String
  init(_ d: String) { description = d }
}
