@testable import DashModel
@testable import DashView
@testable import CoreValues

/// The Examples directory as the list sees it: each file's row derived at the file's own
/// simulated clock (as `subdash DIR` derives it), and one unreadable file.
enum ListFixture {
  static let wall = Instant(ms: 1_778_770_000_000)  // 2026-05-14 14:46:40 UTC, near the examples' clocks

  static func row(_ stem: String) -> ListRow {
    let s = Scenarios.example(stem)
    var row = ListRow.derive(file: "\(stem).json", state: s.state, at: s.now)
    row.simulatedNow = s.now
    return row
  }

  static var rows: [ListRow] {
    Scenarios.exampleNames.map(row) + [.unreadable(file: "broken.json", error: "broken.json:3:17: expected a value")]
  }

  static func state(_ rows: [ListRow] = rows) -> ListState {
    ListState(directory: "/srv/subscribers", rows: rows, now: wall)
  }

  /// The visible rows' files, in screen order.
  static func files(_ s: ListState) -> [String] { s.visible.map { s.rows[$0].file } }
}
