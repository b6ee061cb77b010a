import CoreValues
/// A directory's configuration stored over the one a team's `serve --db` keeps (`subdash db import`).
extension RetentionSetup {
  /// `document` (a directory's configuration file) with the `inAppPurchaseKeys` of `stored` (the
  /// database's document, nil when there is none) in place of its own.
  ///
  /// Why: the key list is not the directory's to bring. `serve` records in it the one key *it*
  /// checks bearer tokens with, the key the App Store verifies promotional-offer signatures with
  /// (`RetentionMessagingStore.recordDeveloperKey`), and the running `serve --db` only records it
  /// again at start or on its next API change. Replaced by the old server's keys, every offer the
  /// team's server signs would fail to verify until then. Messages, default messages and the
  /// realtime URL are the directory's, as rows are.
  ///
  /// The bytes are `document`'s own when the keys already agree or nothing is stored (an import
  /// into an empty database, then an export, gives the file back byte for byte); rewritten
  /// otherwise. Both are documents a reader accepted; one that is not an object is left as given.
  public static func keepingStoredKeys(_ stored: [UInt8]?, in document: [UInt8]) -> [UInt8] {
    guard let stored, case .object(var fields)? = try? JSONParser.parse(document),
          case .object(let storedFields)? = try? JSONParser.parse(stored) else { return document }
    let keys = storedFields["inAppPurchaseKeys"]
    guard fields["inAppPurchaseKeys"] != keys else { return document }
    fields["inAppPurchaseKeys"] = keys
    return JSONWriter.write(.object(fields))
  }
}
