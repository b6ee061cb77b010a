#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#elseif canImport(Darwin)
import Darwin
#endif
import CoreValues
import DashModel

/// An advisory exclusive lock on one state file, held while a writer re-reads, changes and saves,
/// so two writers (a dashboard key and the simulator) never overwrite each other's change.
///
/// Where the lock lives (Linux): one file per directory, `.subdash.lock`, and in it one byte per
/// state file: an open-file-description lock (`F_OFD_SETLK`) on the byte at
/// `FileLock.offset(of: name)` (FNV-1a of the file name, 61 bits). Why not a lock file per state
/// file, as before: a new subscriber then made a new file just to lock it, and on ext4 without a
/// journal each new inode is found by scanning past every inode freed in the last minutes
/// (`recently_deleted`). Right after a removal of thousands of files (a benchmark's clean-up, a
/// support engineer's `rm -r` of an old test directory), `listen`'s first thousand new subscribers
/// paid that scan once per file; with one lock file per directory and a young subscriber's history
/// inline (`StateFile.commit`), a new subscriber is one new file (docs/benchmarks.md, `listen`).
/// Bytes from `2^62` on are the directory's spare slots (`claimSpareSlot`).
/// Another program takes the same lock with `fcntl` on that byte: Python's
/// `fcntl.lockf(fd, fcntl.LOCK_EX, 1, offset)` (classic record locks and OFD locks conflict), or
/// it runs under `subdash lock FILE -- COMMAND`.
/// Elsewhere (no OFD locks): `flock` on `<file>.lock`, one per state file.
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

  /// The directory's lock file (Linux).
  public static let directoryLockName = ".subdash.lock"

  private let fd: Int32

  public init(for path: String, wait: Wait = .upTo(FileLock.maxWait)) throws(StateFileError) {
    fd = try Self.acquire(path, wait)
  }

  /// The byte of `.subdash.lock` that locks the state file named `name`: FNV-1a (64 bits) of the
  /// name's UTF-8 bytes, its low 61 bits. Two names sharing a byte (one pair in 2^61) only take
  /// turns. The waiting room of that file is the byte `offset + 2^61`.
  public static func offset(of name: String) -> Int64 {
    var hash: UInt64 = 0xcbf2_9ce4_8422_2325
    for byte in name.utf8 { hash = (hash ^ UInt64(byte)) &* 0x0000_0100_0000_01b3 }
    return Int64(hash & Self.offsetMask)
  }

  private static let offsetMask: UInt64 = (1 << 61) - 1
  private static let waitingRoomDistance: Int64 = 1 << 61

  /// Where `path`'s lock is: the file to open, and the byte of it for the file and for its waiting
  /// room (the whole file, and a second file, where there are no byte locks).
  private struct Place {
    var lockPath: String
    var fileByte: Int64
    var roomPath: String
    var roomByte: Int64

    init(_ path: String) {
      #if os(Linux)
      lockPath = PathName.directory(of: path) + "/" + FileLock.directoryLockName
      fileByte = FileLock.offset(of: PathName.fileName(of: path))
      roomPath = lockPath
      roomByte = fileByte + FileLock.waitingRoomDistance
      #else
      lockPath = path + ".lock"
      fileByte = 0
      roomPath = path + ".lock.wait"
      roomByte = 0
      #endif
    }

    /// The name a `.busy` error gives for where the lock is held.
    var lockName: String { PathName.fileName(of: lockPath) }
  }

  /// The locked descriptor. Separate from `init`: a class whose properties are all set runs its
  /// `deinit` when `init` throws, which would close the descriptor a second time (by then,
  /// perhaps, another thread's newly opened file of the same number).
  ///
  /// Fair between writers: a lock has no queue, so a writer saving event after event (the
  /// simulator) would take the lock back the instant it let go, before a writer polling for it (a
  /// dashboard key) ever saw it free. A writer that has to wait therefore first takes a second
  /// lock, the file's waiting room (its byte `offset + 2^61`; elsewhere `<file>.lock.wait`, created
  /// only when someone has had to wait), and keeps it until it holds the file's lock. A writer
  /// finding the file's lock free but the waiting room taken lets go and queues behind it. So a
  /// waiter is next once the holder lets go, whoever asks after it; writers queued at the same time
  /// take turns by chance. A `.tryOnce` caller (a receiver, which retries later without holding a
  /// thread) never queues.
  private static func acquire(_ path: String, _ wait: Wait) throws(StateFileError) -> Int32 {
    let place = Place(path)
    let fd = try openLockFile(place.lockPath, for: path, create: true)
    switch ByteLock.tryLock(fd, byte: place.fileByte) {
    case .failed(let c):
      close(fd)
      throw cannotLock(path, place, c)
    case .locked:
      // Free: ours, unless a writer is queued for it (then it is that writer's turn).
      guard case .upTo = wait, someoneIsWaiting(place, for: path) else { return fd }
      ByteLock.unlock(fd, byte: place.fileByte)
    case .held:
      break
    }
    guard case .upTo(let limit) = wait else { close(fd); throw Self.busy(path, after: wait) }
    let deadline = ContinuousClock.now + limit
    do throws(StateFileError) {
      let room = place.roomPath == place.lockPath ? fd : try openLockFile(place.roomPath, for: path, create: true)
      defer {
        ByteLock.unlock(room, byte: place.roomByte)
        if room != fd { close(room) }
      }
      try poll(room, byte: place.roomByte, path: path, place, until: deadline, busy: Self.busy(path, after: wait))
      try poll(fd, byte: place.fileByte, path: path, place, until: deadline, busy: Self.busy(path, after: wait))
      return fd
    } catch {
      close(fd)
      throw error
    }
  }

  /// Opens (and with `create`, creates) a lock file: private, never through a symbolic link (a
  /// planted `.subdash.lock` pointing at another file would otherwise be created or opened wherever
  /// it points), and non-blocking so a FIFO planted under the name is refused rather than waited
  /// on. It must be this user's, with no other name (`Posix.FileOwner.ours`): in a directory others
  /// can write, a lock file a neighbour planted is one they can open too, and hold every
  /// subscriber's lock through for as long as they like. -1 only without `create`, when there is
  /// no such file. Errors name the state file, and the lock file in the message.
  private static func openLockFile(_ lockPath: String, for path: String, create: Bool) throws(StateFileError) -> Int32 {
    let name = PathName.fileName(of: path)
    let lockName = PathName.fileName(of: lockPath)
    let fd = create ? openOrCreate(lockPath) : open(lockPath, openFlags)
    if fd < 0 {
      let c = errno
      if c == ENOENT && !create { return -1 }
      let why = c == ELOOP ? "it is a symbolic link; SubDash locks only through a plain file" : Posix.errorText(c)
      throw StateFileError(file: name, message: "cannot open the lock file \(lockName): \(why); nothing was saved")
    }
    var st = stat()
    if fstat(fd, &st) != 0 || Posix.notARegularFile(st.st_mode) != nil || Posix.notOurs(st, path: lockPath, owner: .ours) != nil {
      let why = Posix.notARegularFile(st.st_mode) ?? Posix.notOurs(st, path: lockPath, owner: .ours) ?? Posix.errorText()
      close(fd)
      throw StateFileError(file: name, message: "cannot use the lock file \(lockName): \(why); nothing was saved")
    }
    return fd
  }

  private static let openFlags = O_RDWR | O_CLOEXEC | O_NOFOLLOW | O_NONBLOCK

  /// The lock file, made when missing: unnamed first and then named (`UnnamedFile`), so it is not
  /// allocated under the directory's lock. One made by another writer meanwhile is the one used,
  /// (and then checked as any existing one). By name, it is created with `O_EXCL`: the file
  /// returned is one made here or one opened as existing, which the caller checks. -1 with
  /// `errno` set.
  private static func openOrCreate(_ lockPath: String) -> Int32 {
    let existing = open(lockPath, openFlags)
    if existing >= 0 || errno != ENOENT { return existing }
    if let fd = UnnamedFile.make(in: PathName.directory(of: lockPath), mode: 0o600) {
      // Holds no data: its name need not outlast a crash (it is made again when missing).
      if UnnamedFile.link(fd, at: lockPath, durably: false) == .linked { return fd }
      close(fd)
    }
    let made = open(lockPath, openFlags | O_CREAT | O_EXCL, 0o600)
    return made < 0 && errno == EEXIST ? open(lockPath, openFlags) : made
  }

  private static func cannotLock(_ path: String, _ place: Place, _ c: Int32) -> StateFileError {
    StateFileError(file: PathName.fileName(of: path), message: "cannot lock (\(place.lockName)): \(Posix.errorText(c)); nothing was saved")
  }


  /// True while a writer holds the file's waiting room, i.e. waits for the file's lock. A waiting
  /// room that cannot be opened or tried counts as empty: the writer then just takes the free lock.
  private static func someoneIsWaiting(_ place: Place, for path: String) -> Bool {
    guard let room = try? openLockFile(place.roomPath, for: path, create: false), room >= 0 else { return false }
    defer { close(room) }
    switch ByteLock.tryLock(room, byte: place.roomByte, shared: true) {
    case .held: return true
    case .locked: ByteLock.unlock(room, byte: place.roomByte); return false
    case .failed: return false
    }
  }

  /// Tries `byte` of `fd` until it is locked or `deadline` passes. Short first pauses: the usual
  /// holder is another save that ends within milliseconds.
  private static func poll(_ fd: Int32, byte: Int64, path: String, _ place: Place, until deadline: ContinuousClock.Instant, busy: StateFileError) throws(StateFileError) {
    var pause: Duration = .milliseconds(1)
    while true {
      switch ByteLock.tryLock(fd, byte: byte) {
      case .locked: return
      case .failed(let c): throw cannotLock(path, place, c)
      case .held:
        let left = deadline - ContinuousClock.now
        guard left > .zero else { throw busy }
        Self.sleep(min(pause, left))
        pause = min(pause * 2, .milliseconds(2))
      }
    }
  }

  /// Leaves the lock's descriptor open across `exec`, so the program exec'd holds the lock (and
  /// any child it passes the descriptor to) until it exits: `subdash lock FILE -- COMMAND`. False
  /// with `errno` set when the descriptor's flag cannot be changed.
  public func keepAcrossExec() -> Bool {
    fcntl(fd, F_SETFD, 0) == 0
  }

  /// How many spare files a directory keeps at most: one per save swapping one in at the same
  /// moment (`SpareFileSwap`), far more than `listen`'s writers.
  static let spareSlotCount = 64
  /// The spare slots' bytes of `.subdash.lock`, past every file's byte and waiting room.
  private static let spareSlotBase: Int64 = 1 << 62

  /// Claims the first free one of the directory's spare slots for the save this lock is held for
  /// (one at a time: asked again, a lock finds its own slot free and claims it again):
  /// an exclusive lock on the byte `2^62 + slot`, taken through this lock's own descriptor, never
  /// waited for, and let go with `releaseSpareSlot` or with this lock. Spares are the directory's,
  /// not a subscriber's, so a directory of 1,000 subscribers keeps a spare per concurrent save, not
  /// 1,000 of them (and a new subscriber's second save makes no new file). nil when every slot is
  /// held or there are no byte locks here: the save is then the plain one.
  func claimSpareSlot() -> Int? {
    #if os(Linux)
    for slot in 0..<Self.spareSlotCount {
      switch ByteLock.tryLock(fd, byte: Self.spareSlotBase + Int64(slot)) {
      case .locked: return slot
      case .held: continue
      case .failed: return nil
      }
    }
    #endif
    return nil
  }

  func releaseSpareSlot(_ slot: Int) {
    #if os(Linux)
    ByteLock.unlock(fd, byte: Self.spareSlotBase + Int64(slot))
    #endif
  }

  /// Closing the descriptor lets go of every lock taken through it.
  deinit {
    close(fd)
  }

  /// The `.busy` error for `path`, in words a dashboard's status line and a log can show as they are.
  public static func busy(_ path: String, after wait: Wait) -> StateFileError {
    let held: String
    switch wait {
    case .upTo(let limit): held = "for more than \(Self.seconds(limit)) s"
    case .tryOnce: held = "right now"
    }
    return StateFileError(file: PathName.fileName(of: path), message: "locked by another process \(held) (\(Place(path).lockName)); nothing was changed", kind: .busy)
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
