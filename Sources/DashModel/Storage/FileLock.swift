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
  private static func acquire(_ path: String, _ wait: Wait) throws(StateFileError) -> Int32 {
    let lockPath = path + ".lock"
    let lockName = PathName.fileName(of: lockPath)
    // Created private, never through a symbolic link (a planted `<id>.json.lock` pointing at
    // another file would otherwise be created or opened wherever it points), and non-blocking so a
    // FIFO planted under the name is refused rather than waited on.
    let fd = open(lockPath, O_RDWR | O_CREAT | O_CLOEXEC | O_NOFOLLOW | O_NONBLOCK, 0o600)
    if fd < 0 {
      let c = errno
      let why = c == ELOOP ? "it is a symbolic link; SubDash locks only through a plain file" : Posix.errorText(c)
      throw StateFileError(file: lockName, message: "cannot open the lock file: \(why); nothing was saved")
    }
    var st = stat()
    if fstat(fd, &st) != 0 || Posix.notARegularFile(st.st_mode) != nil {
      let why = Posix.notARegularFile(st.st_mode) ?? Posix.errorText()
      close(fd)
      throw StateFileError(file: lockName, message: "cannot use the lock file: \(why); nothing was saved")
    }
    let clock = ContinuousClock()
    let start = clock.now
    var pause: Duration = .milliseconds(1)
    while flock(fd, LOCK_EX | LOCK_NB) != 0 {
      let c = errno
      if c == EINTR { continue }
      guard c == EWOULDBLOCK || c == EAGAIN else {
        close(fd)
        throw StateFileError(file: lockName, message: "cannot lock: \(Posix.errorText(c)); nothing was saved")
      }
      let waited = clock.now - start
      guard case .upTo(let limit) = wait, waited < limit else {
        close(fd)
        throw Self.busy(path, after: wait)
      }
      // Short first pauses: the usual holder is another save that ends within milliseconds.
      Self.sleep(min(pause, limit - waited))
      // Never more than 2 ms: a writer saving event after event frees the lock only briefly.
      pause = min(pause * 2, .milliseconds(2))
    }
    return fd
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
