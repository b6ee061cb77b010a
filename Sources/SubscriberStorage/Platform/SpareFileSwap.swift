#if os(Linux)
#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#endif
import SystemPackage

/// A locked save that swaps the new version into place and keeps the replaced file as a later
/// save's temporary file, so a subscriber saved again and again costs no new inode and frees none.
///
/// Why: a plain atomic save creates a new file and frees the old one each time. On ext4 without a
/// journal (this project's CI root file system) every new inode is found by scanning past each
/// inode freed in the last minutes (`recently_deleted`), holding the directory's lock; under
/// `listen`'s load that scan grew with every save and was the tail of the latency.
///
/// Still a whole-file atomic replace: the new version is written in full to a hidden spare and
/// fsynced, then `renameat2(RENAME_EXCHANGE)` swaps the two names in one
/// step (a reader or a crash sees the old version or the new one) and the directory is fsynced
/// (`DirectorySync`: one fsync covers the saves of this process waiting for one at that moment).
/// The spare then holds the previous version, whole, with the file's mode.
///
/// The spares are the directory's, not a subscriber's: `.subdash-spare-<slot>`, one per save
/// swapping at the same moment, each claimed for one save by a byte lock (`FileLock.claimSpareSlot`).
/// So after the swap, the spare holding subscriber A's previous version is rewritten by the next
/// save of any subscriber, and a new subscriber's second save makes no new file: a directory of
/// 1,000 subscribers under `listen` is 1,000 state files and a few spares, where a spare per
/// subscriber was 2,000 files, 1,000 of them new inodes in the first minute (docs/benchmarks.md,
/// "one spare per concurrent save"). A killed writer's half-written spare is the next save's spare.
///
/// Reusing a file a reader still has open would change bytes under it, so the spare is rewritten
/// only under a write lease (`F_SETLEASE`), which the kernel grants only when no other open file
/// (any process, this one included, an mmap too) refers to it, and which makes a later opener wait
/// until the new version is complete. Anything else at the spare's name (a link, a file with
/// another link, another owner's file, a FIFO) or a spare someone holds open is removed and a new
/// file is made: unnamed, and named once written and fsynced (`UnnamedFile`: its inode is not
/// allocated under the directory's lock), or where that cannot be done exclusively by name, as a
/// plain save does. On a file system without leases or without the exchange, or with every slot
/// claimed, the save is a plain temp + fsync + rename and leaves no spare.
enum SpareFileSwap {
  /// The name of the directory's spare in `slot`.
  static func spareName(slot: Int) -> String { ".subdash-spare-\(slot)" }

  /// Saves `bytes` at `path` (an existing plain file; the caller holds its lock, `held`, through
  /// which a spare slot is claimed). False when this directory cannot swap now (no `renameat2` in
  /// this libc, or every spare slot claimed): the caller saves the plain way.
  static func write(_ bytes: [UInt8], to path: String, name: String, dir: String, mode: mode_t, held lock: FileLock) throws(StateFileError) -> Bool {
    guard let exchange = Self.renameat2, let slot = lock.claimSpareSlot() else { return false }
    defer { lock.releaseSpareSlot(slot) }
    func fail(_ what: String, _ code: Int32 = errno) -> StateFileError {
      StateFileError(file: name, message: "could not save: \(what): \(Posix.errorText(code)); the file on disk is unchanged")
    }
    let spare = "\(dir)/\(spareName(slot: slot))"
    // O_NONBLOCK: a FIFO planted at the name is not waited on, O_NOCTTY: a terminal is not taken
    // as ours (either is refused below).
    var fd = open(spare, O_RDWR | O_NOFOLLOW | O_CLOEXEC | O_NONBLOCK | O_NOCTTY)
    var takenOver = fd < 0 && errno != ENOENT
    var leased = false
    if fd >= 0 {
      if isOurOnlyLink(fd), lease(fd) {
        leased = true
      } else {
        close(fd)
        fd = -1
        takenOver = true
      }
    }
    // A new spare made unnamed, named only once written in full (`UnnamedFile`).
    var unnamed = false
    if fd < 0 {
      // Missing, or not ours to rewrite: its name is taken over by a new file of our own (a reader
      // holding the old one keeps it; a planted link is removed, never followed). Not unlinked
      // when it was simply missing: an unlink takes the directory's lock.
      if takenOver { unlink(spare) }
      // Unnamed first: its inode is then not allocated under the directory's lock.
      if let made = UnnamedFile.make(in: dir, mode: 0o600) {
        fd = made
        unnamed = true
      } else {
        fd = open(spare, O_RDWR | O_CREAT | O_EXCL | O_NOFOLLOW | O_CLOEXEC, 0o600)
      }
      // Something that cannot be removed holds the name (a directory): the plain way.
      if fd < 0 { return false }
      // A new file nobody else can have open: a refused lease means this file system has none,
      // and then no spare is kept.
      leased = lease(fd)
    } else if ftruncate(fd, 0) != 0 {
      let c = errno
      close(fd)
      unlink(spare)
      throw fail("cannot reuse the temporary file", c)
    }
    // The mode first: a reused spare has the previous version's, and the bytes it is about to
    // hold must never be readable under a wider one.
    var failure: Errno? = fchmod(fd, mode) != 0 ? Errno(rawValue: errno) : nil
    if failure == nil { failure = Posix.writeAll(FileDescriptor(rawValue: fd), bytes) }
    if failure == nil, fsync(fd) != 0 { failure = Errno(rawValue: errno) }
    if failure == nil, unnamed, UnnamedFile.link(fd, at: spare) != .linked {
      // The name was taken meanwhile (by something not holding the lock), cannot be given here,
      // or its fsync failed: this version is dropped, and the caller saves the plain way.
      close(fd)
      return false
    }
    // Closing gives the lease back: whoever opens the spare from now on reads a whole version.
    if close(fd) != 0, failure == nil { failure = Errno(rawValue: errno) }
    if let failure {
      // An unnamed file is gone with its descriptor; the name, if any, is someone else's.
      if !unnamed { unlink(spare) }
      throw fail("writing the new contents failed", failure.rawValue)
    }
    var swapped = false
    if leased {
      swapped = exchange(AT_FDCWD, spare, AT_FDCWD, path, renameExchange) == 0
    }
    if !swapped, rename(spare, path) != 0 {
      let c = errno
      unlink(spare)
      throw fail("rename failed", c)
    }
    DirectorySync.shared(for: dir).sync()
    return true
  }

  /// A plain file of this user with no other name: rewriting it changes nothing else.
  private static func isOurOnlyLink(_ fd: Int32) -> Bool {
    var st = stat()
    return fstat(fd, &st) == 0 && st.st_mode & S_IFMT == S_IFREG && st.st_nlink == 1 && st.st_uid == geteuid()
  }

  /// Takes a write lease: granted only while no other open file refers to the inode. A lease
  /// break (someone opening the spare while it is written) is signalled to the holder, by default
  /// with SIGIO, which would end the process: it is sent as SIGURG instead, which is ignored
  /// unless handled, and the owner is then cleared so no signal is sent at all.
  private static func lease(_ fd: Int32) -> Bool {
    guard fcntl(fd, setSignal, SIGURG) == 0 else { return false }
    guard fcntl(fd, setLease, Int32(F_WRLCK)) == 0 else { return false }
    _ = fcntl(fd, F_SETOWN, 0)
    return true
  }

  // Linux's ABI numbers (<linux/fcntl.h>, <linux/fs.h>); Swift's Glibc module leaves out the
  // _GNU_SOURCE parts of the headers.
  private static let setLease: Int32 = 1024  // F_SETLEASE
  private static let setSignal: Int32 = 10  // F_SETSIG
  private static let renameExchange: UInt32 = 2  // RENAME_EXCHANGE

  private typealias RenameAt2 = @convention(c) (Int32, UnsafePointer<CChar>, Int32, UnsafePointer<CChar>, UInt32) -> Int32
  /// glibc 2.28 and later; looked up rather than linked so an older libc still runs SubDash.
  private static let renameat2: RenameAt2? = {
    guard let symbol = dlsym(nil, "renameat2") else { return nil }  // nil: RTLD_DEFAULT
    return unsafeBitCast(symbol, to: RenameAt2.self)
  }()
}
#endif
import DashModel
