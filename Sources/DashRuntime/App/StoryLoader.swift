import DashModel
import Synchronization
import SubscriberStorage

/// Reads a long history off the event loop. Opening a file reads only the newest page of its
/// events (the first frame costs the same at 1,300 or 100,000 events), but the summary and the
/// timeline need the whole history: for a long one that read runs on another thread and the
/// dashboard adopts it when it is done, so the first frame and the keys never wait for it.
package final class StoryLoader: Sendable {
  /// Up to this much history is read before the first frame (it costs a few milliseconds):
  /// small files show their summary at once, as tests and tickets expect.
  package static let readAtOnceJournalBytes: Int64 = 1 << 20
  package static let readAtOnceInlineEntries = 2_000

  private let slot = Mutex<(request: Int, history: CustomerHistory?)>((0, nil))

  package init() {}

  package static func isShort(_ state: SubscriptionState) -> Bool {
    (state.document.journal?.committedBytes ?? 0) <= readAtOnceJournalBytes
      && state.subscriber.transactions.count + state.subscriber.notifications.count <= readAtOnceInlineEntries
  }

  /// Starts reading `state`'s history; a later request replaces an earlier one still running
  /// (its result is dropped). Returns the request, for `take`.
  package func start(_ state: SubscriptionState, statePath: String) -> Int {
    let request = slot.withLock { s -> Int in
      s.request += 1
      s.history = nil
      return s.request
    }
    Task.detached { [self] in
      let history = CustomerHistory.load(state, statePath: statePath)
      slot.withLock { s in if s.request == request { s.history = history } }
    }
    return request
  }

  /// The history read for `request`, once it is ready.
  package func take(_ request: Int) -> CustomerHistory? {
    slot.withLock { s in s.request == request ? s.history : nil }
  }
}
