import DashModel
import CoreValues

/// One subscriber as the database holds it: the state file's bytes exactly as SubDash wrote them,
/// and the committed part of its journal, so a subscriber exported again is byte-identical to the
/// file that was imported (`show --json` and every field SubDash does not understand included).
public struct StoredSubscriber: Equatable, Sendable {
  /// The state file's name (`2000000123.json`): the row's key and the file's name on export.
  public var name: String
  public var document: [UInt8]
  /// The journal's file name (from the document's `journal.file`) and its committed bytes.
  public var journal: (name: String, bytes: [UInt8])?
  /// The `.storekit` file the document names (`catalogFile`), kept once per name in its own table.
  public var catalogName: String?
  /// Bumped by every write: what a reader compares to know a row changed.
  public var version: Int64

  public init(name: String, document: [UInt8], journal: (name: String, bytes: [UInt8])?, catalogName: String?, version: Int64 = 0) {
    self.name = name
    self.document = document
    self.journal = journal
    self.catalogName = catalogName
    self.version = version
  }

  public static func == (a: StoredSubscriber, b: StoredSubscriber) -> Bool {
    a.name == b.name && a.document == b.document && a.journal?.name == b.journal?.name && a.journal?.bytes == b.journal?.bytes
      && a.catalogName == b.catalogName && a.version == b.version
  }

  /// `originalTransactionId` of the latest transaction, for lookups by id (nil for a new customer).
  public var originalTransactionId: String? {
    guard case .object(let o)? = try? JSONParser.parse(document) else { return nil }
    switch o["subscriber"]?.objectValue?["latestTransaction"]?.objectValue?["originalTransactionId"] {
    case .string(let id)?: return id
    case .number(let digits)?: return digits
    default: return nil
    }
  }

  /// A plain file name: no directory part, not hidden, no control characters. Names come from
  /// directories and from rows someone else wrote; neither may place a file outside the directory.
  public static func isPlainFileName(_ name: String) -> Bool {
    !name.isEmpty && !name.hasPrefix(".") && !name.contains("/") && name != ".." && name.utf8.count <= 255
      && !name.unicodeScalars.contains { $0.value < 0x20 || $0.value == 0x7F }
  }
}
