import CoreValues

/// What the list's first screen needs without reading every row (issue 23): the first rows in the
/// list's opening order (`ListSort()`), how many rows there are of each status, and how many rows
/// carry each of those rows' originalTransactionIds. An index answers it from SQL in a few
/// milliseconds; reading and sorting 100,000 rows takes a quarter of a second longer.
public struct ListFirstPage: Equatable, Sendable {
  /// The first rows of `ListSort()`'s order over every row, as many as were asked for.
  public var rows: [ListRow]
  /// Rows per status, over every row (the counts line, and how many there are in all).
  public var counts: [ListStatus: Int]
  /// For each originalTransactionId in `rows`: how many rows carry it in all (two files of one
  /// subscriber show their file names).
  public var idCounts: [String: Int]

  public init(rows: [ListRow], counts: [ListStatus: Int], idCounts: [String: Int]) {
    self.rows = rows
    self.counts = counts
    self.idCounts = idCounts
  }

  /// How many rows there are in all.
  public var total: Int { counts.values.reduce(0, +) }
}
