/// What wakes a directory store's follower, and where it says to look. A watch never decides
/// what changed: `DirectoryFollower` does, by the files' stamps, so every follower of a directory
/// (the dashboard, the list, `follow()`) agrees on what a change is whatever wakes it.
///
/// DashRuntime's `FileWatcher` is the live one (inotify names the files written, where the
/// platform has it; a stat poll elsewhere); `ComparingWatch` is the portable one `follow()` uses.
public protocol DirectoryWatch: AnyObject {
  /// Readable when there may be something to take; nil: take every `pollIntervalMs`.
  var descriptor: Int32? { get }
  var pollIntervalMs: Int32 { get }
  /// What was noticed since the last call (never blocks).
  func take() -> WatchReport
}

/// What a watch noticed.
public enum WatchReport: Equatable, Sendable {
  case nothing
  /// These names were written, created, renamed or removed: the kernel said so, so each is read
  /// again even when its stamp looks the same (two same-size writes within one clock tick).
  case written(Set<String>)
  /// Something may have changed (a stat poll, lost events): compare every file's stamp.
  case unknown
}

/// A watch that always says "compare": the portable follow, a stat of every file per look.
public final class ComparingWatch: DirectoryWatch {
  public let pollIntervalMs: Int32
  public var descriptor: Int32? { nil }

  public init(pollIntervalMs: Int32) { self.pollIntervalMs = pollIntervalMs }

  public func take() -> WatchReport { .unknown }
}
