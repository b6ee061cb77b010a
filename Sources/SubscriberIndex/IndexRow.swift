import DashModel
import GRDB
import GRDBSQLite
import CoreValues
import SubscriberStorage

/// The `subscriber` table: one `ListRow` per file, with the file's stamp. Columns rather than a
/// JSON blob, so a future query can filter in SQL (status, product, ids) on indexes.
enum IndexRow {
  static let createTable = """
    CREATE TABLE subscriber (
      file TEXT PRIMARY KEY NOT NULL,
      size INTEGER NOT NULL, mtime_ns INTEGER NOT NULL, ctime_ns INTEGER NOT NULL, inode INTEGER NOT NULL, device INTEGER NOT NULL,
      original_transaction_id TEXT, app_account_token TEXT, product_id TEXT, product_name TEXT,
      status TEXT NOT NULL, due_kind TEXT, due_ms REAL, flags TEXT NOT NULL,
      last_event TEXT, last_event_ms REAL, other_ids TEXT NOT NULL, error TEXT,
      simulated_now_ms REAL, changes_at REAL
    ) WITHOUT ROWID;
    CREATE INDEX subscriber_otid ON subscriber(original_transaction_id);
    CREATE INDEX subscriber_token ON subscriber(app_account_token);
    CREATE INDEX subscriber_status ON subscriber(status);
    """

  /// The list's opening order (`ListSort()`: the originalTransactionId by its length in bytes,
  /// then its text, then the file name; no id sorts as an empty one), as SQL and as an index, so
  /// the first screen is the index's first rows (`DirectoryStore.firstPage`), not a sort of every
  /// row. SQLite compares text byte by byte, Swift by Unicode scalars: the same order for the
  /// digit ids Apple gives, and for any NFC text. Created on every open when missing: an index
  /// made before it gains it in one pass (100,000 rows: 0.2 s, once), and older builds keep it
  /// up to date without knowing it.
  static let openingOrder = "length(CAST(coalesce(original_transaction_id, '') AS BLOB)), coalesce(original_transaction_id, ''), file"
  static let createOpeningOrderIndex = "CREATE INDEX IF NOT EXISTS subscriber_opening_order ON subscriber(\(openingOrder))"

  /// The file's `FileStamp`, in its initializer's order.
  static let stampColumns = "size, mtime_ns, ctime_ns, inode, device"

  static let columns = """
    file, original_transaction_id, app_account_token, product_id, product_name, status, due_kind, due_ms, \
    flags, last_event, last_event_ms, other_ids, error, simulated_now_ms, changes_at
    """

  static let upsert = """
    INSERT OR REPLACE INTO subscriber (\(stampColumns), \(columns))
    VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)
    """

  /// Lists are stored joined by U+0001, which no id, flag or event name contains.
  static let separator: Character = "\u{1}"

  static func arguments(_ r: ListRow, _ s: FileStamp) -> StatementArguments {
    [s.size, s.mtimeNs, s.ctimeNs, s.inode, s.device,
     r.file, r.originalTransactionId, r.appAccountToken, r.productId, r.productName, r.status.rawValue,
     r.due?.kind.rawValue, r.due?.date.ms, r.flags.map(\.rawValue).joined(separator: String(separator)),
     r.lastEvent, r.lastEventDate?.ms, r.otherIds.joined(separator: String(separator)), r.error,
     r.simulatedNow?.ms, r.changesAt?.ms]
  }

  static func decode(_ row: Row) -> ListRow {
    let statusText: String = row[5]
    var r = ListRow(file: row[0], status: ListStatus(rawValue: statusText) ?? .fileError)
    r.originalTransactionId = row[1]
    r.appAccountToken = row[2]
    r.productId = row[3]
    r.productName = row[4]
    let dueKind: String? = row[6], dueMs: Double? = row[7]
    if let dueKind, let kind = ListRow.Due.Kind(rawValue: dueKind), let dueMs { r.due = .init(kind, Instant(ms: dueMs)) }
    let flags: String = row[8]
    r.flags = pieces(flags).compactMap { ListFlag(rawValue: $0) }
    r.lastEvent = row[9]
    r.lastEventDate = (row[10] as Double?).map(Instant.init(ms:))
    let ids: String = row[11]
    r.otherIds = pieces(ids)
    r.error = row[12]
    r.simulatedNow = (row[13] as Double?).map(Instant.init(ms:))
    r.changesAt = (row[14] as Double?).map(Instant.init(ms:))
    return r
  }

  /// The same row read straight from a stepped statement over `columns` (DirectoryStore.list).
  /// A NULL where text belongs reads as empty, and an unknown status as a file error, rather
  /// than trapping on a damaged index.
  static func decode(_ s: OpaquePointer) -> ListRow {
    var r = ListRow(file: text(s, 0) ?? "", status: ListStatus(rawValue: text(s, 5) ?? "") ?? .fileError)
    r.originalTransactionId = text(s, 1)
    r.appAccountToken = text(s, 2)
    r.productId = text(s, 3)
    r.productName = text(s, 4)
    if let dueKind = text(s, 6), let kind = ListRow.Due.Kind(rawValue: dueKind), let dueMs = real(s, 7) { r.due = .init(kind, Instant(ms: dueMs)) }
    r.flags = pieces(text(s, 8) ?? "").compactMap { ListFlag(rawValue: $0) }
    r.lastEvent = text(s, 9)
    r.lastEventDate = real(s, 10).map(Instant.init(ms:))
    r.otherIds = pieces(text(s, 11) ?? "")
    r.error = text(s, 12)
    r.simulatedNow = real(s, 13).map(Instant.init(ms:))
    r.changesAt = real(s, 14).map(Instant.init(ms:))
    return r
  }

  private static func text(_ s: OpaquePointer, _ column: Int32) -> String? {
    guard sqlite3_column_type(s, column) != SQLITE_NULL, let bytes = sqlite3_column_text(s, column) else { return nil }
    let count = Int(sqlite3_column_bytes(s, column))
    return String(decoding: UnsafeBufferPointer(start: bytes, count: max(0, count)), as: UTF8.self)
  }

  private static func real(_ s: OpaquePointer, _ column: Int32) -> Double? {
    sqlite3_column_type(s, column) == SQLITE_NULL ? nil : sqlite3_column_double(s, column)
  }

  /// Splits a stored list on its U+0001 separator by bytes (100,000 rows are decoded per open;
  /// Character-based splitting was a sixth of that time).
  static func pieces(_ joined: String) -> [String] {
    if joined.isEmpty { return [] }
    var out: [String] = []
    let utf8 = joined.utf8
    var start = utf8.startIndex
    var i = start
    while i != utf8.endIndex {
      if utf8[i] == 1 {
        if i != start { out.append(String(joined[start..<i])) }
        start = utf8.index(after: i)
      }
      i = utf8.index(after: i)
    }
    if start != utf8.endIndex { out.append(String(joined[start...])) }
    return out
  }
}
