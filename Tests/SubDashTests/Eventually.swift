import Foundation

/// Waits for something a test can observe (a file's content, a process's exit, a count) instead
/// of sleeping a fixed time: checks `condition` every `pause` until it holds or `limit` has
/// passed. True when it held. A slow machine only makes the wait longer, never the test wrong.
func eventually(within limit: Duration, every pause: Duration = .milliseconds(5), _ condition: () throws -> Bool) rethrows -> Bool {
  let deadline = ContinuousClock.now + limit
  while true {
    if try condition() { return true }
    if ContinuousClock.now >= deadline { return false }
    Thread.sleep(forTimeInterval: Double(pause.components.seconds) + Double(pause.components.attoseconds) / 1e18)
  }
}
