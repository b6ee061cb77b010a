import DashModel
import DashView
import CoreValues
import SubscriberStorage

/// Where the list's rows come from: the files read directly (`ListDirectory`), or the SQLite
/// index beside them (`subdash-list`, which links GRDB so `subdash` itself never loads it).
/// Either way the files are the truth and a row is derived from one file at one moment.
package protocol ListRowSource: AnyObject {
  /// Every row, for the first screen.
  func loadAll(wall: Instant) throws(StateFileError) -> [ListRow]
  /// The stop signal that ended `loadAll` early (a Ctrl-C during a first index build, whose
  /// half-made index was removed); nil when the rows are all there.
  var stoppedBy: Int32? { get }
  /// The files' stamps `loadAll` took before reading them, where the store's follow starts; nil
  /// when the rows came from the index (the follow then stamps the files itself).
  var loadedStamps: [String: FileStamp]? { get }
  /// Rows for files that changed since they were read, and names that are gone. `names` is what
  /// the store's follow reported; nil means "compare every file".
  func changes(names: Set<String>?, wall: Instant) -> (upserts: [ListRow], removed: [String])
  /// The rows of these files derived again at `wall` (their renewal or expiry passed).
  func rows(due files: [String], wall: Instant) -> [ListRow]
  /// Where a row's file is, to open its dashboard.
  func filePath(_ name: String) -> String
  /// True when rows on the first screen may be stale and every file must be compared once
  /// after it is drawn (an index read before its files were checked).
  var checksAfterFirstScreen: Bool { get }
  /// Something the list should say once (the index could not be used, say); nil when all is well.
  func takeNotice() -> String?
  /// The first screen without reading every row, and how to read them all off the event loop
  /// afterwards; called instead of `loadAll`. nil when there is no faster way than `loadAll`
  /// (the files read directly, an index still to be built).
  func firstPage(limit: Int, wall: Instant) -> ListFirstPageLoad?
  /// Every row after all, when `ListFirstPageLoad.rest` could not read them (the index failed
  /// meanwhile): from the files, as `loadAll` would.
  func restFailed(_ error: any Error, wall: Instant) throws(StateFileError) -> [ListRow]
}

/// The first page of the list, and the rest of it to read on another thread.
package struct ListFirstPageLoad: Sendable {
  package var page: ListFirstPage
  /// Every row.
  package var rest: @Sendable () -> Result<[ListRow], any Error>
  /// Then every file compared with them (as `changes(names: nil)` says it); nil when the
  /// comparison could not be made there, and the list makes it on the event loop instead.
  package var compare: @Sendable () -> (upserts: [ListRow], removed: [String])?
  package init(page: ListFirstPage, rest: @escaping @Sendable () -> Result<[ListRow], any Error>,
               compare: @escaping @Sendable () -> (upserts: [ListRow], removed: [String])?) {
    self.page = page
    self.rest = rest
    self.compare = compare
  }
}

extension ListDirectory: ListRowSource {
  package var stoppedBy: Int32? { nil }
  package var loadedStamps: [String: FileStamp]? { stamps }
  package func rows(due files: [String], wall: Instant) -> [ListRow] { files.map { row($0, wall: wall) } }
  package var checksAfterFirstScreen: Bool { false }
  package func takeNotice() -> String? { nil }
  package func firstPage(limit: Int, wall: Instant) -> ListFirstPageLoad? { nil }
  package func restFailed(_ error: any Error, wall: Instant) throws(StateFileError) -> [ListRow] { try loadAll(wall: wall) }
}
