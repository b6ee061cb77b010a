import DashModel
import DashView
import Synchronization
import CoreValues
import SubscriberStorage

/// Reads the list's rows off the event loop after its first screen (issue 23). The first screen
/// is the index's first page and its counts, answered from SQL in milliseconds; reading every row
/// and building the list over them (sorting, the lookups by file and by id) takes a quarter of a
/// second at 100,000 rows, stamping every file for the follow and comparing every file with the
/// index as long again. They run here, on another thread, one after the other, while the loop
/// keeps answering keys; the list adopts each result as it is ready
/// (`ListReducer.finishLoading` replays what happened meanwhile).
package final class ListLoader: Sendable {
  /// The list over every row, or why the rows could not be read.
  package typealias All = Result<ListState, any Error>
  /// What comparing every file with the rows found; nil: the comparison could not be made.
  package typealias Changes = (upserts: [ListRow], removed: [String])?

  private let slot = Mutex<(all: All?, stamps: [String: FileStamp]?, changes: Changes?, compared: Bool)>((nil, nil, nil, false))

  /// Starts reading at once; `directory` and `now` are the first page's, so the list over every
  /// row is the same list. `stamp` takes every file's stamp, where the follow starts: after the
  /// watch began, before the comparison, so a write is seen by one or the other.
  package init(_ load: ListFirstPageLoad, directory: String, now: Instant, stamp: @escaping @Sendable () -> [String: FileStamp]) {
    let rest = load.rest, compare = load.compare
    Task.detached { [self] in
      let all = rest().map { ListState(directory: directory, rows: $0, now: now) }
      slot.withLock { $0.all = all }
      let stamps = stamp()
      slot.withLock { $0.stamps = stamps }
      // Rows that could not be read are read from the files by the list: nothing to compare.
      let changes: Changes = (try? all.get()) == nil ? nil : compare()
      slot.withLock {
        $0.changes = changes
        $0.compared = true
      }
    }
  }

  /// The list over every row, once, when it is ready; nil before.
  package func takeAll() -> All? {
    slot.withLock { s in
      defer { s.all = nil }
      return s.all
    }
  }

  /// Every file's stamp, once, when taken; nil before.
  package func takeStamps() -> [String: FileStamp]? {
    slot.withLock { s in
      defer { s.stamps = nil }
      return s.stamps
    }
  }

  /// What the comparison found, once, when it is done (after `takeAll`); nil before.
  package func takeChanges() -> Changes? {
    slot.withLock { s in
      guard s.compared else { return nil }
      s.compared = false
      return .some(s.changes ?? nil)
    }
  }
}
