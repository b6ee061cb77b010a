import DashModel

extension TransactionLookup {
  /// The file at `statePath` as it is on disk when asked (journal included).
  public static func file(_ statePath: String) -> TransactionLookup {
    TransactionLookup { id in try? StateFile.findTransaction(id, statePath: statePath) }
  }
}
