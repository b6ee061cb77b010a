#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#elseif canImport(Darwin)
import Darwin
#endif
import CoreValues
import DashModel

/// Subscribers as state files in one directory: `<name>` is the state document, its journal sits
/// beside it, and its byte of the directory's `.subdash.lock` (`FileLock`; `<name>.lock` off
/// Linux) is what a writer holds. Every write, a new file included, is: lock, re-read what is on
/// disk (never through a symbolic link), let the change decide from that, append the journal and
/// fsync, rename the document into place (`AtomicWriter`, 0600 for a new file), unlock.
public struct DirectorySubscriberStore: SubscriberStore {
  public let directory: String
  /// How often `follow` looks at the directory (a portable stat poll; the dashboard's runtime
  /// watches with inotify where it has it).
  public var followInterval: Duration
  /// Where the async `update` runs its blocking file work: inline by default; a server whose
  /// cooperative threads must never block passes its own threads (the receiver's workers).
  public var blockingWork: BlockingWork
  /// Saves of an existing file swap in one of the directory's kept spares instead of a new file
  /// each time (`SpareFileSwap`): for a writer that saves the same subscribers again and again
  /// (the receiver), where a new inode per save was the tail of its latency.
  public var keepsSpareFiles = false
  /// How long the async `update` waits for another writer's lock before answering `.busy`: Apple
  /// gives a notification's sender no such bound, so this is ours (`FileLock.maxWait`, 5 s);
  /// tests pass a short one and wait on what they can observe.
  public var lockWait: Duration = FileLock.maxWait

  public init(directory: String, followInterval: Duration = .milliseconds(100), blockingWork: BlockingWork = .inline) {
    self.directory = directory
    self.followInterval = followInterval
    self.blockingWork = blockingWork
  }

  /// The store that holds the state file at `path`, and the file's name in it.
  public static func holding(_ path: String) -> (store: DirectorySubscriberStore, name: String) {
    (DirectorySubscriberStore(directory: PathName.directory(of: path)), PathName.fileName(of: path))
  }

  public func path(of name: String) -> String { StateFileDirectory.path(name, in: directory) }

  // MARK: Reading

  /// Visible `*.json` files, sorted (SubDash's own files are hidden or not JSON).
  public func list() throws(StateFileError) -> [String] { try StateFileDirectory.names(in: directory) }

  public func get(_ name: String) throws(StateFileError) -> SubscriberSnapshot? {
    try Self.check(name)
    let path = path(of: name)
    var st = stat()
    if lstat(path, &st) != 0, errno == ENOENT { return nil }
    return snapshot(name, try StateFile.load(path: path))
  }


  /// A name is one plain entry of the directory: never a path that leaves it.
  static func check(_ name: String) throws(StateFileError) {
    guard !name.isEmpty, name != ".", name != "..", !name.contains("/"),
          !name.unicodeScalars.contains(where: { $0.value < 0x20 || $0.value == 0x7F }) else {
      throw StateFileError(file: StateFileError.oneLine(name), message: "is not a subscriber's file name (a plain file name in the directory); nothing was changed")
    }
  }

  func snapshot(_ name: String, _ state: SubscriptionState) -> SubscriberSnapshot {
    let journal = state.document.journal.map { (path: path(of: $0.file), committed: $0.committedBytes) }
    return SubscriberSnapshot(name: name, state: state, history: { () throws(StateFileError) -> [Journal.Entry] in
      guard let journal else { return [] }
      return try Journal.readAll(path: journal.path, committedBytes: journal.committed)
    }, held: { (keys) throws(StateFileError) -> HistoryKeys in
      guard let journal else { return HistoryKeys() }
      return try Journal.held(keys, path: journal.path, committedBytes: journal.committed)
    })
  }

  // MARK: Following

  /// The changes as they happen, for an async caller: the same `DirectoryFollower` the dashboard
  /// and the list wait on in their loop, here with a portable watch that compares every file's
  /// stamp each `followInterval` (the stamps are taken when the stream is made).
  public func follow() -> AsyncStream<SubscriberEvent> {
    let store = self
    return AsyncStream { continuation in
      // Made here, where the stream is made (so are its stamps), and owned by the task alone.
      let follower = DirectoryFollower(store: store, watch: ComparingWatch(pollIntervalMs: 0))
      let interval = store.followInterval
      let task = Task {
        while !Task.isCancelled {
          try? await Task.sleep(for: interval)
          for event in follower.take() { continuation.yield(event) }
        }
        continuation.finish()
      }
      continuation.onTermination = { _ in task.cancel() }
    }
  }

  /// A follow for a loop that waits on descriptors (the dashboard's and the list's): `watch`
  /// wakes it, the follower decides what changed. `only`: one subscriber; `known`: see
  /// `DirectoryFollower.init`.
  public func follower(watch: any DirectoryWatch, only name: String? = nil, known: [String: FileStamp]? = nil) -> DirectoryFollower {
    DirectoryFollower(store: self, watch: watch, only: name, known: known)
  }
}

/// Where blocking file work runs for an async caller.
public struct BlockingWork: Sendable {
  public let run: @Sendable (@escaping @Sendable () -> Void) async -> Bool
  /// `run` performs `work` (returning true) or could not (false: shutting down).
  public init(_ run: @escaping @Sendable (@escaping @Sendable () -> Void) async -> Bool) { self.run = run }
  /// On the caller's own thread.
  public static let inline = BlockingWork { work in work(); return true }
}

extension FileLock.Wait {
  /// The bounded wait every writer uses unless it waits elsewhere: `FileLock.maxWait`.
  public static var bounded: FileLock.Wait { .upTo(FileLock.maxWait) }
}
