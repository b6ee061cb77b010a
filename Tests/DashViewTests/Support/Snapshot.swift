import Foundation
import Testing
@testable import DashView

/// Compares a frame with `Snapshots/<name>.txt` beside this test source (found through
/// `#filePath`, so recording writes into the source tree, not the build's resource copy).
///
/// The file holds the text, then `--- styles ---` and the style runs, then the cursor if any.
/// A missing file, or RECORD_SNAPSHOTS=1, records it and FAILS saying so: a recording never
/// passes silently.
func assertSnapshot(_ frame: Frame, named name: String, sourceLocation: SourceLocation = #_sourceLocation) {
  var actual = frame.textDump + "--- styles ---\n" + frame.styleDump
  if let cursor = frame.cursor { actual += "--- cursor ---\n\(cursor.x),\(cursor.y)\n" }
  // This file lives in Tests/DashViewTests/Support; the snapshots in Tests/DashViewTests/Snapshots.
  let dir = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent().appendingPathComponent("Snapshots")
  let file = dir.appendingPathComponent("\(name).txt")
  let record = ProcessInfo.processInfo.environment["RECORD_SNAPSHOTS"] == "1"
  guard !record, let expected = try? String(contentsOf: file, encoding: .utf8) else {
    try? FileManager.default.createDirectory(at: dir, withIntermediateDirectories: true)
    do {
      try actual.write(to: file, atomically: true, encoding: .utf8)
      Issue.record("Recorded snapshot \(name).txt; review it and run the tests again", sourceLocation: sourceLocation)
    } catch {
      Issue.record("Could not record snapshot \(file.path): \(error)", sourceLocation: sourceLocation)
    }
    return
  }
  guard expected != actual else { return }
  let e = expected.split(separator: "\n", omittingEmptySubsequences: false)
  let a = actual.split(separator: "\n", omittingEmptySubsequences: false)
  let i = (0..<min(e.count, a.count)).first { e[$0] != a[$0] } ?? min(e.count, a.count)
  let want = i < e.count ? String(e[i]) : "<end>"
  let got = i < a.count ? String(a[i]) : "<end>"
  Issue.record("""
    Snapshot \(name).txt differs at line \(i + 1):
      expected: \(want)
      actual:   \(got)
    Run with RECORD_SNAPSHOTS=1 to re-record after reviewing.
    --- actual ---
    \(actual)
    """, sourceLocation: sourceLocation)
}
