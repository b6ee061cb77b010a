import DashModel
import DashRuntime
import DashView
#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif
import SubscriberIndex
import CoreValues
import SubscriberStorage

/// The list's rows through the SQLite index: the first screen comes from the index alone, then
/// every file is compared with it once (size, mtime, inode) and the watcher's names keep it up to
/// date. When the index cannot be used (a locked or unwritable database, a full disk) the list
/// carries on reading the files directly and says so once.
final class IndexedList: ListRowSource {
  private let directory: ListDirectory
  private var store: DirectoryStore?
  private var notice: String?
  private(set) var checksAfterFirstScreen = true
  /// Asked between two chunks of a first index build: a stop signal ends the build there.
  var interrupt: InterruptCheck?
  /// The signal that stopped the first index build (its rows were never stored; `loadAll`
  /// returned none), for the caller to exit with.
  private(set) var stoppedBy: Int32?
  /// The index file, and whether this open made it (a stopped build then removes it).
  private var indexPath: String?
  private var indexIsNew = false

  init(directory: String, indexPath: String?, readOnly: Bool = false) {
    self.directory = ListDirectory(path: directory, nowOverride: nil)
    guard let path = indexPath ?? IndexLocation.path(for: directory, readOnly: readOnly) else {
      notice = "no index (neither the directory nor ~/.cache is writable): every file is read"
      return
    }
    self.indexPath = path
    indexIsNew = access(path, F_OK) != 0
    do { store = try DirectoryStore(directory: directory, indexPath: path) } catch {
      notice = "no index (\(error)): every file is read"
    }
  }

  func loadAll(wall: Instant) throws(StateFileError) -> [ListRow] {
    if let store {
      do {
        var rows = try store.list()
        if rows.isEmpty {
          // A new (or rebuilt) index: every file is read now, on all cores, and stored. A large
          // directory takes seconds (100,000 files: about 6 s), so a person waiting sees a bar.
          let bar = IndexingProgress(directory: directory.path, ascii: !Terminal.localeIsUTF8())
          defer { bar?.finish() }
          bar?.start()
          let interrupt = interrupt
          _ = try store.refresh(names: nil, wall: wall, progress: bar.map { bar in { done, total in bar.update(done: done, total: total) } },
                                interrupted: { if let signal = interrupt?.signal { throw Stopped(signal: signal) } })
          rows = try store.list()
          checksAfterFirstScreen = false
        }
        // Rows as the index holds them; `checksAfterFirstScreen` then compares every file.
        return rows
      } catch let stopped as Stopped {
        abandonIndex()
        stoppedBy = stopped.signal
        return []
      } catch {
        fallBack(error)
      }
    }
    checksAfterFirstScreen = false
    return try directory.loadAll(wall: wall)
  }

  /// The first screen from SQL (the first rows in the opening order, the counts by status); the
  /// rest, read on another thread after it is drawn, is every row as stored and then every file
  /// compared with them (which `checksAfterFirstScreen` does otherwise). nil for a new (or
  /// rebuilt) index: `loadAll` fills it from the files first, with its progress bar.
  func firstPage(limit: Int, wall: Instant) -> ListFirstPageLoad? {
    guard let store else { return nil }
    do {
      let page = try store.firstPage(limit: limit)
      if page.total == 0 { return nil }
      checksAfterFirstScreen = false
      return ListFirstPageLoad(
        page: page,
        rest: { Result { try store.list() } },
        // After the rows were read, so what it finds is newer than they are. A failure is left
        // to the event loop's `changes(names: nil)`, which falls back to the files.
        compare: { (try? store.refresh(names: nil, wall: WallClock.now())).map { ($0.upserts, $0.removed) } })
    } catch {
      fallBack(error)
      return nil
    }
  }

  func restFailed(_ error: any Error, wall: Instant) throws(StateFileError) -> [ListRow] {
    fallBack(error)
    return try directory.loadAll(wall: wall)
  }

  func changes(names: Set<String>?, wall: Instant) -> (upserts: [ListRow], removed: [String]) {
    if let store {
      do {
        let changes = try store.refresh(names: names, wall: wall)
        return (changes.upserts, changes.removed)
      } catch {
        fallBack(error)
        // Everything is read again from the files: the rows may be from an index now gone.
        let rows = (try? directory.loadAll(wall: wall)) ?? []
        return (rows, [])
      }
    }
    return directory.changes(names: names, wall: wall)
  }

  func rows(due files: [String], wall: Instant) -> [ListRow] {
    if store != nil { return changes(names: Set(files), wall: wall).upserts }
    return directory.rows(due: files, wall: wall)
  }

  func filePath(_ name: String) -> String { directory.filePath(name) }

  /// The index holds the stamps, not this list: once the index answered, the follow takes its own.
  var loadedStamps: [String: FileStamp]? { store == nil ? directory.stamps : nil }

  func takeNotice() -> String? {
    defer { notice = nil }
    return notice
  }

  private struct Stopped: Error { var signal: Int32 }

  /// A stopped first build: the transaction was rolled back; closing the database ends its
  /// `-wal` and `-shm`, and an index this open made is removed, so nothing half made is left.
  private func abandonIndex() {
    store = nil
    guard indexIsNew, let indexPath else { return }
    for suffix in ["", "-wal", "-shm", "-journal"] { unlink(indexPath + suffix) }
  }

  private func fallBack(_ error: any Error) {
    store = nil
    notice = "index not used (\(error)): every file is read"
  }
}
