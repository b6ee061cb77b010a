#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif
import DashModel
import SubscriberStorage

/// Tells the event loop when one file has changed on disk.
///
/// inotify watches the file's *directory*, not the file: editors and atomic writers replace the
/// file by renaming a temp file over it, which a watch on the old inode would never see (and the
/// watch would die with the old inode). Events are filtered on the exact file name, so temp
/// files such as `.state.json.tmp` or Foundation's `.dat.nosync*` are ignored.
///
/// When inotify is unavailable (no kernel support, out of watches, a directory that does not
/// exist yet) or `SUBDASH_NO_INOTIFY=1`, it falls back to comparing inode, size and mtime,
/// which the loop does every `pollIntervalMs`.
///
/// Debouncing is the caller's job: `drain()` only reports "something happened".
///
/// inotify is Linux's; elsewhere this compiles to the polling watcher alone (docs/platforms.md),
/// the same one `useInotify: false` runs and the tests cover here.
package final class FileWatcher {
  package enum Mode: Equatable { case inotify, polling }

  package let path: String
  package private(set) var mode: Mode
  /// The inotify descriptor to poll for POLLIN, or nil when polling by stat.
  package private(set) var fd: Int32?
  /// How often the loop must call `drain()` when there is no descriptor to wait on.
  package let pollIntervalMs: Int32 = 250

  private let directory: String
  private let name: [UInt8]
  private var lastStat: FileStamp?
  /// Directory mode (the subscriber list): every `*.json` file in `directory` is watched, and
  /// the names that changed are collected for `takeChangedNames()`.
  private let watchesAllStateFiles: Bool
  private var changedNames: Set<String> = []
  private var lostNames = false

  #if os(Linux)
  /// Events subscribed to on the directory.
  private static let mask = UInt32(IN_CLOSE_WRITE | IN_MOVED_TO | IN_CREATE | IN_DELETE | IN_MOVED_FROM)
  /// The ones that mean "the content at `path` is now different": finished in-place writes,
  /// rename-over, and the file going away. IN_CREATE alone is not a change: the writer has not
  /// written yet and its IN_CLOSE_WRITE follows; IN_MODIFY is never subscribed, since it fires
  /// for every write(2) of a half-written file.
  private static let changeMask = UInt32(IN_CLOSE_WRITE | IN_MOVED_TO | IN_DELETE | IN_MOVED_FROM)
  #endif

  /// True when `SUBDASH_NO_INOTIFY=1`: a support switch for file systems where inotify is
  /// silent (NFS, some container bind mounts, WSL's /mnt).
  package static var inotifyDisabledByEnvironment: Bool {
    getenv("SUBDASH_NO_INOTIFY").map { String(cString: $0) == "1" } ?? false
  }

  package init(path: String, useInotify: Bool = !FileWatcher.inotifyDisabledByEnvironment) {
    self.path = path
    let slash = path.lastIndex(of: "/")
    self.directory = slash.map { $0 == path.startIndex ? "/" : String(path[..<$0]) } ?? "."
    self.name = Array((slash.map { String(path[path.index(after: $0)...]) } ?? path).utf8)
    self.mode = .polling
    self.lastStat = FileStamp(path: path)
    self.watchesAllStateFiles = false
    if useInotify { startInotify() }
  }

  /// Watches every state file (`*.json`, not hidden) in `directory`. Polling mode compares the
  /// directory's own identity, which renames (atomic writes), creations and deletions change.
  package init(directory: String, useInotify: Bool = !FileWatcher.inotifyDisabledByEnvironment) {
    self.path = directory
    self.directory = directory
    self.name = []
    self.mode = .polling
    self.lastStat = FileStamp(path: directory)
    self.watchesAllStateFiles = true
    if useInotify { startInotify() }
  }

  /// The file names (inside the directory) that changed since the last call; directory mode only.
  /// nil after an inotify overflow or in polling mode: the caller must compare every file.
  package func takeChangedNames() -> Set<String>? {
    defer { changedNames = []; lostNames = false }
    return lostNames || fd == nil ? nil : changedNames
  }

  /// A state file as the directory mode sees one: `*.json`, not a hidden temp file.
  package static func isStateFileName(_ name: [UInt8]) -> Bool { StateFileDirectory.isStateFileName(bytes: name) }

  deinit { if let fd { close(fd) } }

  private func startInotify() {
    #if os(Linux)
    let fd = inotify_init1(Int32(IN_NONBLOCK | IN_CLOEXEC))
    guard fd >= 0 else { return }
    guard inotify_add_watch(fd, directory, Self.mask) >= 0 else {
      close(fd)
      return
    }
    self.fd = fd
    self.mode = .inotify
    #endif
  }

  /// Consumes everything pending and returns true if the watched file may have changed.
  /// Cheap: one read(2) per call in inotify mode, one stat(2) in polling mode.
  package func drain() -> Bool {
    guard let fd else { return pollStat() }
    #if os(Linux)
    return drainInotify(fd)
    #else
    return pollStat()
    #endif
  }

  #if os(Linux)
  private func drainInotify(_ fd: Int32) -> Bool {
    var changed = false
    var lostWatch = false
    let bufferSize = 16 * 1024
    withUnsafeTemporaryAllocation(byteCount: bufferSize, alignment: MemoryLayout<inotify_event>.alignment) { buf in
      while true {
        let n = read(fd, buf.baseAddress, bufferSize)
        if n < 0 && errno == EINTR { continue }
        guard n > 0 else { return }  // EAGAIN: drained
        for event in Self.parse(UnsafeRawBufferPointer(rebasing: buf[..<n])) {
          if event.mask & UInt32(IN_Q_OVERFLOW) != 0 { changed = true; lostNames = true }  // events were lost: assume the worst
          if event.mask & UInt32(IN_IGNORED) != 0 { lostWatch = true }    // directory removed or unmounted
          if event.name == name, event.mask & Self.changeMask != 0 { changed = true }
          if watchesAllStateFiles, event.mask & Self.changeMask != 0, Self.isStateFileName(event.name) {
            changed = true
            changedNames.insert(String(decoding: event.name, as: UTF8.self))
          }
        }
      }
    }
    if lostWatch {
      // The directory itself went away; inotify cannot follow it back, stat polling can.
      close(fd)
      self.fd = nil
      mode = .polling
      lastStat = FileStamp(path: path)
      changed = true
    }
    return changed
  }
  #endif

  private func pollStat() -> Bool {
    let now = FileStamp(path: path)
    defer { lastStat = now }
    return now != lastStat
  }

  package struct Event: Equatable {
    package var mask: UInt32
    package var name: [UInt8]
  }

  #if os(Linux)
  /// Splits a read(2) buffer into events. `inotify_event` is 16 bytes followed by `len` bytes of
  /// NUL-padded name (the flexible array member does not import), and records are not aligned.
  package static func parse(_ bytes: UnsafeRawBufferPointer) -> [Event] {
    var events: [Event] = []
    let header = MemoryLayout<inotify_event>.size
    var offset = 0
    while offset + header <= bytes.count {
      let ev = bytes.loadUnaligned(fromByteOffset: offset, as: inotify_event.self)
      let nameStart = offset + header
      let nameEnd = min(bytes.count, nameStart + Int(ev.len))
      var name = Array(bytes[nameStart..<nameEnd])
      if let nul = name.firstIndex(of: 0) { name.removeSubrange(nul...) }
      events.append(Event(mask: ev.mask, name: name))
      offset = nameEnd
    }
    return events
  }
  #endif
}

/// The live watch of a directory store's follow: inotify names what was written (a stat poll,
/// or lost events, say only "compare").
extension FileWatcher: DirectoryWatch {
  package var descriptor: Int32? { fd }

  package func take() -> WatchReport {
    guard drain() else { return .nothing }
    if watchesAllStateFiles { return takeChangedNames().map { .written($0) } ?? .unknown }
    return fd != nil ? .written([String(decoding: name, as: UTF8.self)]) : .unknown
  }
}

extension DirectorySubscriberStore {
  /// The follow the dashboard (`only` its file) and the list (every state file) wait on in their
  /// loop: this store's `DirectoryFollower`, woken by a `FileWatcher` made now (so it should be
  /// made before the files are read). `SUBDASH_NO_INOTIFY=1` or no inotify: a stat poll.
  package func liveFollower(only name: String? = nil, known: [String: FileStamp]? = nil) -> DirectoryFollower {
    let watch = name.map { FileWatcher(path: path(of: $0)) } ?? FileWatcher(directory: directory)
    return follower(watch: watch, only: name, known: known)
  }
}
