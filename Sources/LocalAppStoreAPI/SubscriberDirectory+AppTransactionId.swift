import DashModel

extension SubscriberDirectory {
  /// The subscriber whose appTransactionId is `id`, in `environment`, if any. Asked only after a
  /// lookup by transaction id missed (Get App Transaction Info, and to tell Finish Transaction's
  /// 4000048 from 4040010), so it reads the directory's files in order instead of keeping a table.
  func subscriber(appTransactionId id: String, environment: AppStoreEnvironment) -> SubscriberRecord? {
    guard !id.isEmpty, id.count <= 30, id.allSatisfy({ $0.isASCII && $0.isNumber }) else { return nil }
    for file in stateFiles() {
      guard let state = try? StateFile.load(path: file), isOurs(state, in: environment),
            let record = try? SubscriberRecord(path: file, state: state) else { continue }
      if AppTransactionIdentity.id(of: state.subscriber, history: record.transactions, bundleId: record.bundleId ?? bundleId) == id { return record }
    }
    return nil
  }
}
