import DashModel
import CoreValues

/// Everything the list screen shows, as a value: the rows, the filter being typed, the sort, the
/// selection (by file, so it survives re-sorting and live changes) and the rows recently changed.
public struct ListState: Equatable, Sendable {
  public private(set) var rows: [ListRow] = []
  /// What the filter scans (parallel to `rows`), kept up to date on every change, not rebuilt per
  /// keystroke; built at the first filter rather than at open (100,000 rows: ~40 ms the first
  /// screen does not wait for).
  private var search: ListSearch?
  /// How many rows of each status, over all rows (not only the filtered ones); kept up to date
  /// on every change, so a redraw does not count 100,000 rows.
  public private(set) var counts: [ListStatus: Int] = [:]
  private var byFile: [String: Int] = [:]
  /// How many rows carry each originalTransactionId: two files of one subscriber (a copy, an
  /// import beside a simulation) must be told apart on screen, so their rows show the file too.
  private var idCounts: [String: Int] = [:]
  /// Indices into `rows` that pass the filter, in sort order.
  public private(set) var visible: [Int] = []
  /// All indices in sort order: sorted when rows or the sort change, so a keystroke in the
  /// filter only walks this (100,000 rows: no sort per keystroke).
  private var sorted: [Int] = []

  public var directory: String
  public private(set) var filterText = ""
  public var editingFilter = false
  public private(set) var sort = ListSort()
  public private(set) var selectedFile: String?
  /// The first visible row on screen; kept so the selection moves within a page before scrolling.
  public var top = 0
  public var showingHelp = false
  /// The moment rows were derived at; countdowns on screen are relative to it.
  public var now: Instant
  /// Files whose row changed in a live update, highlighted until the instant given.
  public private(set) var highlightedUntil: [String: Instant] = [:]
  public var message: String?

  /// How long a changed row stays highlighted (like the dashboard's changed fields).
  public static let highlightSpan = Span.seconds(3)

  /// While only the first page is here (`init(directory:firstPage:now:)`): how many rows there
  /// are in all, and what happened meanwhile that needs every row (a filter, a sort, a changed
  /// file), replayed on every row by `ListReducer.finishLoading`. nil once every row is here.
  public internal(set) var loading: Loading?

  public struct Loading: Equatable, Sendable {
    public var total: Int
    public var deferred: [ListAction] = []
    /// A key the first page could not answer was pressed: later keys wait for every row too.
    public var waiting = false
  }

  public init(directory: String, rows: [ListRow], now: Instant) {
    self.directory = directory
    self.now = now
    replaceAll(rows)
  }

  /// The list before every row is read: the first page as an index answered it, with the counts
  /// over every row. Until `ListReducer.finishLoading` brings the rest, the title and counts
  /// line say what every row says, and only keys the first page can answer act at once.
  public init(directory: String, firstPage: ListFirstPage, now: Instant) {
    self.directory = directory
    self.now = now
    rows = firstPage.rows
    for i in rows.indices where byFile[rows[i].file] == nil { byFile[rows[i].file] = i }
    sorted = sort.order(rows)
    visible = sorted
    select(visibleIndex: 0)
    counts = firstPage.counts
    idCounts = firstPage.idCounts
    loading = Loading(total: firstPage.total)
  }

  /// How many rows there are in all (every row's, also while only the first page is here).
  public var totalRows: Int { loading?.total ?? rows.count }

  /// How many rows the filter keeps (no filter acts until every row is here).
  public var shownRows: Int { loading?.total ?? visible.count }

  public var selectedIndex: Int? {
    guard let f = selectedFile, let i = byFile[f] else { return nil }
    return visible.firstIndex(of: i)
  }

  public var selectedRow: ListRow? { selectedFile.flatMap { byFile[$0] }.map { rows[$0] } }

  public func row(_ file: String) -> ListRow? { byFile[file].map { rows[$0] } }

  public mutating func replaceAll(_ newRows: [ListRow]) {
    rows = newRows
    search = nil
    counts = [:]
    // Sized up front: growing two dictionaries of 100,000 keys step by step rehashed every key
    // many times over (a quarter of the list's first screen, issue 23).
    var ids = [String: Int](minimumCapacity: newRows.count)
    var files = [String: Int](minimumCapacity: newRows.count)
    // By index, reading the three fields: a loop variable would copy (retain and release) every
    // field of every row.
    for i in newRows.indices {
      counts[newRows[i].status, default: 0] += 1
      if let id = newRows[i].originalTransactionId { ids[id, default: 0] += 1 }
      // The first row of a file name wins, as before.
      let file = newRows[i].file
      if let earlier = files.updateValue(i, forKey: file) { files[file] = earlier }
    }
    idCounts = ids
    byFile = files
    refresh()
  }

  /// Applies a live change: rows added or replaced, files gone. Changed and new rows are
  /// highlighted until `now + highlightSpan`; a row whose summary did not change is not.
  public mutating func apply(upserts: [ListRow], removed: [String], at now: Instant) {
    self.now = now
    for row in upserts {
      let i: Int
      if let old = byFile[row.file] {
        guard rows[old] != row else { continue }
        i = old
        counts[rows[i].status, default: 0] -= 1
        Self.count(rows[i].originalTransactionId, by: -1, in: &idCounts)
        rows[i] = row
        search?.set(i, row)
        sorted.remove(at: sorted.firstIndex(of: i)!)
      } else {
        i = rows.count
        byFile[row.file] = i
        rows.append(row)
        search?.append(row)
      }
      counts[row.status, default: 0] += 1
      Self.count(row.originalTransactionId, by: 1, in: &idCounts)
      highlightedUntil[row.file] = now + Self.highlightSpan
      // One changed file re-places one row (binary search), not a sort of the whole directory.
      let sort = self.sort, rows = self.rows
      var lo = 0, hi = sorted.count
      while lo < hi {
        let mid = (lo + hi) / 2
        if sort.before(rows[sorted[mid]], row) { lo = mid + 1 } else { hi = mid }
      }
      sorted.insert(i, at: lo)
    }
    if removed.isEmpty {
      refresh(resort: false)
      return
    }
    do {
      let gone = Set(removed)
      var keep: [Int] = []
      for (i, r) in rows.enumerated() {
        if gone.contains(r.file) {
          counts[r.status, default: 0] -= 1
          Self.count(r.originalTransactionId, by: -1, in: &idCounts)
        } else {
          keep.append(i)
        }
      }
      rows = keep.map { rows[$0] }
      search?.keep(keep)
      byFile = Dictionary(rows.enumerated().map { ($1.file, $0) }, uniquingKeysWith: { a, _ in a })
      for f in gone { highlightedUntil[f] = nil }
    }
    refresh()
  }

  /// Files whose row may read differently at `now` by time alone (a renewal, expiry or end of
  /// grace has passed since it was derived), and the next such moment after `now`.
  public func rowsDue(at now: Instant) -> (files: [String], next: Instant?) {
    var files: [String] = []
    var next: Instant?
    for r in rows {
      guard let at = r.changesAt, r.simulatedNow == nil else { continue }  // a simulated clock moves only with its file
      if at <= now { files.append(r.file) } else if next == nil || at < next! { next = at }
    }
    return (files, next)
  }

  /// True when another row has this row's originalTransactionId (the list then shows its file).
  public func sharesId(_ row: ListRow) -> Bool {
    guard let id = row.originalTransactionId else { return false }
    return (idCounts[id] ?? 0) > 1
  }

  private static func count(_ id: String?, by n: Int, in counts: inout [String: Int]) {
    guard let id else { return }
    let next = (counts[id] ?? 0) + n
    counts[id] = next > 0 ? next : nil
  }

  public func isHighlighted(_ file: String) -> Bool { (highlightedUntil[file].map { $0 > now }) ?? false }

  /// Forgets highlights that ended; returns the next instant one ends (when to redraw), if any.
  public mutating func pruneHighlights(at now: Instant) -> Instant? {
    self.now = now
    highlightedUntil = highlightedUntil.filter { $0.value > now }
    return highlightedUntil.values.min()
  }

  public mutating func setFilter(_ text: String) {
    filterText = text
    refresh(resort: false)
  }

  public mutating func setSort(_ sort: ListSort) {
    self.sort = sort
    refresh()
  }

  public mutating func select(visibleIndex i: Int) {
    guard !visible.isEmpty else { return }
    selectedFile = rows[visible[min(max(0, i), visible.count - 1)]].file
  }

  /// Recomputes the visible rows. The selection stays on its file when that file is still
  /// visible, else moves to the row now at its old position.
  private mutating func refresh(resort: Bool = true) {
    let oldPosition = selectedIndex ?? 0
    if resort {
      sorted = sort.order(rows)
    }
    let filter = ListFilter(filterText)
    if filter.isEmpty {
      visible = sorted
    } else {
      if search == nil { search = ListSearch(rows) }
      visible = search!.matching(filter, in: sorted)
    }
    if selectedIndex == nil { select(visibleIndex: oldPosition) }
  }
}
