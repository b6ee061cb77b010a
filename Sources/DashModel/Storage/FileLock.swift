#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#elseif canImport(Darwin)
import Darwin
#endif

/// An advisory exclusive lock on `<file>.lock`, held while a writer re-reads, changes and saves,
/// so two writers (a dashboard key and the simulator) never overwrite each other's change.
///
/// The wait is bounded: writers hold the lock for milliseconds, but any local user who can open
/// the lock file can also hold it for as long as they like. Past `maxWait` the lock gives up with
/// a `.busy` error and nothing is changed, so a receiver answers 503 and the sender retries, and
/// a dashboard key says the file is locked instead of freezing.
public final class FileLock {
  /// How long a writer waits for another process's lock. Far longer than any real save holds
  /// it (milliseconds, or a second on a slow disk under load), short enough that a notification
  /// is answered before Apple's sender gives up on the request.
  public static let maxWait: Duration = .seconds(5)

  /// How long to try for the lock.
  public enum Wait: Sendable, Equatable {
    /// Poll until it is free, for at most this long.
    case upTo(Duration)
    /// Try once: a caller that waits elsewhere (a receiver, without holding a thread) retries.
    case tryOnce
  }

  private let fd: Int32

  public init(for path: String, wait: Wait = .upTo(FileLock.maxWait)) throws(StateFileError) {
    fd = try Self.acquire(path, wait)
  }

  /// The locked descriptor. Separate from `init`: a class whose properties are all set runs its
  /// `deinit` when `init` throws, which would close the descriptor a second time (by then,
  /// perhaps, another thread's newly opened file of the same number).
  ///
  /// Fair between writers: flock has no queue, so a writer saving event after event (the
  /// simulator) would take the lock back the instant it let go, before a writer polling for it (a
  /// dashboard key) ever saw it free. A writer that has to wait therefore first takes a second
  /// lock, `<file>.lock.wait` (the waiting room, created only when someone has had to wait), and
  /// keeps it until it holds the file's lock. A writer finding the file's lock free but the
  /// waiting room taken lets go and queues behind it. So a waiter is next once the holder lets
  /// go, whoever asks after it; writers queued at the same time take turns by chance. A `.tryOnce`
  /// caller (a receiver, which retries later without holding a thread) never queues, so it never
  /// creates the waiting room either.
  private static func acquire(_ path: String, _ wait: Wait) throws(StateFileError) -> Int32 {
    let lockPath = path + ".lock"
    let fd = try openLockFile(lockPath, create: true)
    switch tryLock(fd) {
    case .failed(let c):
      close(fd)
      throw cannotLock(lockPath, c)
    case .locked:
      // Free: ours, unless a writer is queued for it (then it is that writer's turn).
      guard case .upTo = wait, someoneIsWaiting(path) else { return fd }
      flock(fd, LOCK_UN)
    case .held:
      break
    }
    guard case .upTo(let limit) = wait else { close(fd); throw Self.busy(path, after: wait) }
    let deadline = ContinuousClock.now + limit
    do throws(StateFileError) {
      let room = try openLockFile(lockPath + ".wait", create: true)
      defer { flock(room, LOCK_UN); close(room) }
      try poll(room, path: lockPath + ".wait", until: deadline, busy: Self.busy(path, after: wait))
      try poll(fd, path: lockPath, until: deadline, busy: Self.busy(path, after: wait))
      return fd
    } catch {
      close(fd)
      throw error
    }
  }

  /// Opens (and with `create`, creates) a lock file: private, never through a symbolic link (a
  /// planted `<id>.json.lock` pointing at another file would otherwise be created or opened
  /// wherever it points), and non-blocking so a FIFO planted under the name is refused rather than
  /// waited on. -1 only without `create`, when there is no such file.
  private static func openLockFile(_ lockPath: String, create: Bool) throws(StateFileError) -> Int32 {
    let lockName = PathName.fileName(of: lockPath)
    let fd = create ? openOrCreate(lockPath) : open(lockPath, openFlags)
    if fd < 0 {
      let c = errno
      if c == ENOENT && !create { return -1 }
      let why = c == ELOOP ? "it is a symbolic link; SubDash locks only through a plain file" : Posix.errorText(c)
      throw StateFileError(file: lockName, message: "cannot open the lock file: \(why); nothing was saved")
    }
    var st = stat()
    if fstat(fd, &st) != 0 || Posix.notARegularFile(st.st_mode) != nil {
      let why = Posix.notARegularFile(st.st_mode) ?? Posix.errorText()
      close(fd)
      throw StateFileError(file: lockName, message: "cannot use the lock file: \(why); nothing was saved")
    }
    return fd
  }

  private static let openFlags = O_RDWR | O_CLOEXEC | O_NOFOLLOW | O_NONBLOCK

  /// The lock file, made when missing: unnamed first and then named (`UnnamedFile`), so a new
  /// subscriber's lock file is not allocated under the directory's lock. One made by another
  /// writer meanwhile is the one used, as `O_CREAT` without `O_EXCL` would. -1 with `errno` set.
  private static func openOrCreate(_ lockPath: String) -> Int32 {
    let existing = open(lockPath, openFlags)
    if existing >= 0 || errno != ENOENT { return existing }
    if let fd = UnnamedFile.make(in: PathName.directory(of: lockPath), mode: 0o600) {
      // Holds no data: its name need not outlast a crash (it is made again when missing).
      if UnnamedFile.link(fd, at: lockPath, durably: false) == .linked { return fd }
      close(fd)
    }
    return open(lockPath, openFlags | O_CREAT, 0o600)
  }

  private static func cannotLock(_ lockPath: String, _ c: Int32) -> StateFileError {
    StateFileError(file: PathName.fileName(of: lockPath), message: "cannot lock: \(Posix.errorText(c)); nothing was saved")
  }

  /// One non-blocking try.
  private static func tryLock(_ fd: Int32, _ operation: Int32 = LOCK_EX) -> Try {
    while flock(fd, operation | LOCK_NB) != 0 {
      let c = errno
      if c == EINTR { continue }
      return c == EWOULDBLOCK || c == EAGAIN ? .held : .failed(errno: c)
    }
    return .locked
  }

  private enum Try { case locked, held, failed(errno: Int32) }

  /// True while a writer holds `<file>.lock.wait`, i.e. waits for the file's lock. A waiting room
  /// that cannot be opened counts as empty: the writer then just takes the free lock.
  private static func someoneIsWaiting(_ path: String) -> Bool {
    guard let room = try? openLockFile(path + ".lock.wait", create: false), room >= 0 else { return false }
    defer { close(room) }
    guard case .locked = tryLock(room, LOCK_SH) else { return true }
    flock(room, LOCK_UN)
    return false
  }

  /// Tries `fd` until it is locked or `deadline` passes. Short first pauses: the usual holder is
  /// another save that ends within milliseconds.
  private static func poll(_ fd: Int32, path: String, until deadline: ContinuousClock.Instant, busy: StateFileError) throws(StateFileError) {
    var pause: Duration = .milliseconds(1)
    while true {
      switch tryLock(fd) {
      case .locked: return
      case .failed(let c): throw cannotLock(path, c)
      case .held:
        let left = deadline - ContinuousClock.now
        guard left > .zero else { throw busy }
        Self.sleep(min(pause, left))
        pause = min(pause * 2, .milliseconds(2))
      }
    }
  }

  deinit {
    flock(fd, LOCK_UN)
    close(fd)
  }

  /// The `.busy` error for `path`, in words a dashboard's status line and a log can show as they are.
  public static func busy(_ path: String, after wait: Wait) -> StateFileError {
    let held: String
    switch wait {
    case .upTo(let limit): held = "for more than \(Self.seconds(limit)) s"
    case .tryOnce: held = "right now"
    }
    return StateFileError(file: PathName.fileName(of: path), message: "locked by another process \(held) (\(PathName.fileName(of: path)).lock); nothing was changed", kind: .busy)
  }

  static func seconds(_ d: Duration) -> String {
    let ms = d.components.seconds * 1000 + d.components.attoseconds / 1_000_000_000_000_000
    return ms % 1000 == 0 ? "\(ms / 1000)" : String(Double(ms) / 1000)
  }

  private static func sleep(_ d: Duration) {
    let ns = max(0, d.components.seconds) * 1_000_000_000 + max(0, d.components.attoseconds) / 1_000_000_000
    var request = timespec(tv_sec: Int(ns / 1_000_000_000), tv_nsec: Int(ns % 1_000_000_000))
    var remaining = timespec()
    while nanosleep(&request, &remaining) != 0 && errno == EINTR { request = remaining }
  }
}
