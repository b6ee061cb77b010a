import DashModel
/// A directory store's follow, as a value a loop can wait on: its watch's descriptor in poll(2)
/// (or its interval), then `take()` for the subscribers written or removed since. This is how the
/// dashboard and the list learn of changes, and `DirectorySubscriberStore.follow()` is this with
/// a portable watch, so there is one rule for "changed": a file's stamp (size, mtime, ctime,
/// inode, device) differs from when it was last reported or first seen, or the watch saw it written.
public final class DirectoryFollower {
  public let store: DirectorySubscriberStore
  /// Set: only this subscriber is followed (a dashboard); nil: every state file (the list).
  public let only: String?
  private let watch: any DirectoryWatch
  /// Each followed file's stamp when it was last reported (or when following began).
  private var stamps: [String: FileStamp]

  /// `known`: the stamps a reader took before it read the files (so what was written after is
  /// reported); nil: the files' stamps now. The watch should exist before the reader reads, so
  /// nothing written while it reads is missed.
  public init(store: DirectorySubscriberStore, watch: any DirectoryWatch, only: String? = nil, known: [String: FileStamp]? = nil) {
    self.store = store
    self.watch = watch
    self.only = only
    if let known {
      stamps = known
    } else if let only {
      stamps = FileStamp(path: store.path(of: only)).map { [only: $0] } ?? [:]
    } else {
      var now: [String: FileStamp] = [:]
      for name in (try? store.list()) ?? [] { now[name] = FileStamp(path: store.path(of: name)) }
      stamps = now
    }
  }

  public var descriptor: Int32? { watch.descriptor }
  public var pollIntervalMs: Int32 { watch.pollIntervalMs }

  /// The subscribers written or removed since the last call, each once; empty when nothing was.
  /// A directory that cannot be read reports nothing: what was known stays until it can.
  public func take() -> [SubscriberEvent] {
    let written: Set<String>
    let look: Set<String>?
    switch watch.take() {
    case .nothing: return []
    case .written(let names):
      written = only.map { names.contains($0) ? [$0] : [] } ?? names
      if written.isEmpty { return [] }
      look = written
    case .unknown:
      written = []
      look = only.map { [$0] }
    }
    let known = stamps
    guard let found = try? StateFileDirectory.changes(
      in: store.directory, reported: look, known: { known[$0] }, knownNames: Array(known.keys), due: { written.contains($0) }) else { return [] }
    var events: [SubscriberEvent] = []
    for (name, stamp) in found.changed {
      stamps[name] = stamp
      events.append(.changed(name))
    }
    for name in found.removed {
      stamps[name] = nil
      events.append(.removed(name))
    }
    return events
  }
}
