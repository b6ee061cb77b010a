import Synchronization
import CoreValues

/// The catalog a state file holds inline, read once for files that hold the same one.
///
/// Why: the files of one app carry the same catalog (a population's members are copies of one
/// template; the Examples share one), and reading it into a `Catalog` was 18 % of the samples of
/// a first `list` open of 100,000 such files (perf, release). A `Catalog` is a function of its
/// JSON alone (`StoreKitReader.read`, always at `$.catalog`), so a catalog whose JSON is *the same
/// bytes* as the last one read is that one's. Not `==`: Swift's string equality takes canonically
/// equivalent text as equal ("K" and the Kelvin sign U+212A), while the reader's key lookup does
/// not, so two catalogs `==` could still read differently. Only a catalog that read without an
/// error is kept, and only the last one: a directory of many apps reads as before.
package final class InlineCatalogMemo: Sendable {
  /// The one `StateFile.decode` uses.
  package static let shared = InlineCatalogMemo()

  private let last = Mutex<(json: JSONObject, catalog: Catalog)?>(nil)

  package func catalog(_ json: JSONObject, read: (JSONObject) throws(DecodeError) -> Catalog) throws(DecodeError) -> Catalog {
    // Compared outside the lock: another thread reading another file only waits for the copy.
    if let kept = last.withLock({ $0 }), Self.identical(kept.json, json) { return kept.catalog }
    let catalog = try read(json)
    // The replaced entry is handed out and let go after the lock, not under it.
    _ = last.withLock { (entry) -> (json: JSONObject, catalog: Catalog)? in
      defer { entry = (json, catalog) }
      return entry
    }
    return catalog
  }

  /// The same keys in the same order and the same values, strings compared as UTF-8 bytes.
  static func identical(_ a: JSONObject, _ b: JSONObject) -> Bool {
    a.entries.count == b.entries.count
      && zip(a.entries, b.entries).allSatisfy { sameText($0.key, $1.key) && identical($0.value, $1.value) }
  }

  static func identical(_ a: JSON, _ b: JSON) -> Bool {
    switch (a, b) {
    case (.object(let x), .object(let y)): return identical(x, y)
    case (.array(let x), .array(let y)): return x.count == y.count && zip(x, y).allSatisfy { identical($0, $1) }
    case (.string(let x), .string(let y)), (.number(let x), .number(let y)): return sameText(x, y)
    default: return a == b  // null and booleans
    }
  }

  private static func sameText(_ a: String, _ b: String) -> Bool {
    guard a.utf8.count == b.utf8.count else { return false }  // O(1) for the parser's native strings
    var a = a, b = b
    return a.withUTF8 { x in b.withUTF8 { y in x.elementsEqual(y) } }
  }
}
