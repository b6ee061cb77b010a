import Synchronization

/// The catalog a state file holds inline, read once for files that hold the same one.
///
/// Why: the files of one app carry the same catalog (a population's members are copies of one
/// template; the Examples share one), and reading it into a `Catalog` was 18 % of the samples of
/// a first `list` open of 100,000 such files (perf, release). A `Catalog` is a function of its
/// JSON alone (`StoreKitReader.read`, always at `$.catalog`), so a catalog whose JSON equals the
/// last one read is that one's; comparing the two allocates nothing. Only a catalog that read
/// without an error is kept, and only the last one: a directory of many apps reads as before.
enum InlineCatalogMemo {
  private static let last = Mutex<(json: JSONObject, catalog: Catalog)?>(nil)

  static func catalog(_ json: JSONObject, read: (JSONObject) throws(DecodeError) -> Catalog) throws(DecodeError) -> Catalog {
    // Compared outside the lock: another thread reading another file only waits for the copy.
    if let kept = last.withLock({ $0 }), kept.json == json { return kept.catalog }
    let catalog = try read(json)
    last.withLock { $0 = (json, catalog) }
    return catalog
  }
}
