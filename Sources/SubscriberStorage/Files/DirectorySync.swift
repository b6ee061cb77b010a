#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#elseif canImport(Darwin)
import Darwin
#endif

/// The directory fsync that makes a rename durable, shared by the saves of one process that need
/// one at the same time.
///
/// A save's rename is durable once an fsync of its directory that *began after the rename* has
/// returned; which save's fsync that is does not matter. So a save that finds another fsync of the
/// directory under way waits for the next one rather than starting its own, and that next fsync
/// covers every save that arrived meanwhile. Under `listen`'s load (eight threads saving into one
/// directory) every save still waits for a covering fsync before it answers, with about half as
/// many fsyncs, and none of them queued behind another's write of the same directory block.
final class DirectorySync: @unchecked Sendable {
  /// The one instance for `directory` in this process.
  static func shared(for directory: String) -> DirectorySync { registry.instance(for: directory) }

  private let directory: String
  private let mutex = UnsafeMutablePointer<pthread_mutex_t>.allocate(capacity: 1)
  private let condition = UnsafeMutablePointer<pthread_cond_t>.allocate(capacity: 1)
  /// Saves that asked (each one's ticket), and the highest ticket an fsync has covered.
  private var requested: UInt64 = 0
  private var covered: UInt64 = 0
  private var syncing = false
  /// How many fsyncs this instance made (for tests).
  private(set) var fsyncs: UInt64 = 0

  init(directory: String) {
    self.directory = directory
    pthread_mutex_init(mutex, nil)
    pthread_cond_init(condition, nil)
  }

  deinit {
    pthread_cond_destroy(condition)
    pthread_mutex_destroy(mutex)
    mutex.deallocate()
    condition.deallocate()
  }

  /// Returns once an fsync of the directory that began after this call has completed. As with a
  /// single save's own fsync, a failing one is not reported: the rename itself has happened.
  func sync() {
    pthread_mutex_lock(mutex)
    requested &+= 1
    let ticket = requested
    while covered < ticket {
      if syncing {
        pthread_cond_wait(condition, mutex)
        continue
      }
      // Every ticket up to here was taken after its rename: this fsync covers them all.
      let target = requested
      syncing = true
      pthread_mutex_unlock(mutex)
      let fd = open(directory, O_RDONLY | O_DIRECTORY | O_CLOEXEC)
      if fd >= 0 {
        _ = fsync(fd)
        close(fd)
      }
      pthread_mutex_lock(mutex)
      fsyncs &+= 1
      covered = max(covered, target)
      syncing = false
      pthread_cond_broadcast(condition)
    }
    pthread_mutex_unlock(mutex)
  }

  private static let registry = Registry()

  private final class Registry: @unchecked Sendable {
    private let mutex = UnsafeMutablePointer<pthread_mutex_t>.allocate(capacity: 1)
    private var byDirectory: [String: DirectorySync] = [:]
    init() { pthread_mutex_init(mutex, nil) }
    func instance(for directory: String) -> DirectorySync {
      pthread_mutex_lock(mutex)
      defer { pthread_mutex_unlock(mutex) }
      if let existing = byDirectory[directory] { return existing }
      let made = DirectorySync(directory: directory)
      byDirectory[directory] = made
      return made
    }
  }
}
