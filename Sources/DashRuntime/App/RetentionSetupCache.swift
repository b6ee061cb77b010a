import DashModel
import CoreValues
import SubscriberStorage
import RetentionMessaging

/// The Retention Messaging configuration beside the dashboard's file, read again at most once a
/// second (the model is derived at every tick; `serve` may change the file at any time).
final class RetentionSetupCache {
  private var last: (at: Instant, setup: RetentionSetup?, problem: String?)?

  func current(besideStateFile path: String, wall: Instant) -> (RetentionSetup?, String?) {
    if let last, wall >= last.at, wall < last.at + Span.seconds(1) { return (last.setup, last.problem) }
    let read: (RetentionSetup?, String?)
    do { read = (try RetentionSetup.load(besideStateFile: path), nil) } catch { read = (nil, error.description) }
    last = (wall, read.0, read.1)
    return read
  }
}
