import CoreValues
import DashModel
/// Reading a `CustomerHistory` from a loaded state and its journal, and keeping one up to date
/// as the journal grows: while a simulation runs the dashboard reloads after every renewal, and
/// re-reading a long journal each time would make the live update cost grow with the history.
extension CustomerHistory {
  /// The whole history of `state` (which must still hold its inline entries: load it, then call
  /// this, then `forViewing()`). A journal that cannot be read leaves `journalProblem` set and
  /// the history to the inline part, so the summary says it is incomplete instead of failing.
  public static func load(_ state: SubscriptionState, statePath: String) -> CustomerHistory {
    load(state, statePath: statePath, parallelFrom: parallelFrom)
  }

  /// From this many inline entries on, they are read on every core. Measured (2 cores, release,
  /// reading the entries alone): 100,000 took 43 ms on two instead of 55 ms on one (medians of
  /// 25); 20,000 about the same either way; 5,000 slower on two (3.2 ms against 2.8 ms).
  static let parallelFrom = 20_000

  /// `load`, with the length from which a list is read on every core (tests compare both ways).
  static func load(_ state: SubscriptionState, statePath: String, parallelFrom: Int) -> CustomerHistory {
    var h = CustomerHistory()
    h.origin = Origin(state)
    let inline = state.subscriber.transactions
    if let viewed = inline.viewed {
      // Loaded to be viewed: the entries were read for the story as the file was parsed.
      h.transactions = viewed.story
    } else {
      let entries = inline.entries, path = inline.path
      h.transactions = OrderedParallelMap.compactMap(count: entries.count, minimum: parallelFrom) { k in
        try? StoryTransaction(ObjectReader(entries[k], in: path, index: k))
      }
    }
    // An entry whose other fields have wrong types is left out and said, not fatal: the
    // summary and timeline are a reading aid, and the state itself loaded.
    h.skippedEntries = inline.count - h.transactions.count
    // Read in place: iterating by value would copy every record (its source object and strings).
    // One thread: copying a record's few fields is cheap, and two were slower, not faster, for
    // 100,000 records (6.1 ms against 3.9 ms, medians of 20).
    state.subscriber.notifications.withUnsafeBufferPointer { log in
      h.events.reserveCapacity(log.count)
      for k in log.indices { h.add(log[k]) }
    }
    h.readJournal(of: state, statePath: statePath)
    return h
  }

  /// `previous` brought up to `state`: only the journal bytes appended since it was read, when
  /// the inline part and the journal are the ones it read; otherwise read whole again.
  public static func refreshed(_ previous: CustomerHistory?, for state: SubscriptionState, statePath: String) -> CustomerHistory {
    guard var h = previous, h.journalProblem == nil, h.origin == Origin(state),
          let j = state.document.journal, j.committedBytes >= h.journalBytes else {
      return load(state, statePath: statePath)
    }
    guard j.committedBytes > h.journalBytes else { return h }
    do {
      let path = PathName.directory(of: statePath) + "/" + j.file
      // A viewer: whoever's journal the user opened (`Journal.readAll`'s `owner`).
      for e in try Journal.entries(path: path, after: h.journalBytes, committedBytes: j.committedBytes, owner: .anyone) { h.add(e) }
      h.journalBytes = j.committedBytes
      return h
    } catch {
      // Not the journal it read before (replaced, cut): start over.
      return load(state, statePath: statePath)
    }
  }

  private mutating func readJournal(of state: SubscriptionState, statePath: String) {
    guard let j = state.document.journal, j.committedBytes > 0 else { return }
    do {
      let entries = try Journal.readAll(path: PathName.directory(of: statePath) + "/" + j.file, committedBytes: j.committedBytes, owner: .anyone)
      for e in entries { add(e) }
      journalBytes = j.committedBytes
    } catch {
      journalProblem = error.description
    }
  }
}
