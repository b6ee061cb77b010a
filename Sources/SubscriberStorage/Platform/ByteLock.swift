#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#elseif canImport(Darwin)
import Darwin
#endif

/// The platform's lock on one byte of a file, the primitive `FileLock` is built on.
///
/// Linux: an open-file-description lock (`F_OFD_SETLK`) on the byte, owned by the descriptor, so
/// two writers in one process (the dashboard and its simulator thread) exclude each other, and
/// one `.subdash.lock` serves every state file of a directory, a byte each.
/// Elsewhere (no OFD locks): `flock` on the whole descriptor; `FileLock` then gives each state
/// file its own `<file>.lock` (docs/platforms.md).
enum ByteLock {
  enum Outcome { case locked, held, failed(errno: Int32) }

  /// One non-blocking try for `byte` (an exclusive lock; `shared` for a test of the waiting room).
  static func tryLock(_ fd: Int32, byte: Int64, shared: Bool = false) -> Outcome {
    #if os(Linux)
    var range = Self.range(byte, shared ? F_RDLCK : F_WRLCK)
    while fcntl(fd, Self.setOFDLock, &range) != 0 {
      let c = errno
      if c == EINTR { continue }
      return c == EAGAIN || c == EACCES ? .held : .failed(errno: c)
    }
    return .locked
    #else
    while flock(fd, (shared ? LOCK_SH : LOCK_EX) | LOCK_NB) != 0 {
      let c = errno
      if c == EINTR { continue }
      return c == EWOULDBLOCK || c == EAGAIN ? .held : .failed(errno: c)
    }
    return .locked
    #endif
  }

  static func unlock(_ fd: Int32, byte: Int64) {
    #if os(Linux)
    var range = Self.range(byte, F_UNLCK)
    _ = fcntl(fd, Self.setOFDLock, &range)
    #else
    flock(fd, LOCK_UN)
    #endif
  }

  #if os(Linux)
  /// `F_OFD_SETLK` (<linux/fcntl.h>): Swift's Glibc module leaves out the _GNU_SOURCE parts.
  private static let setOFDLock: Int32 = 37

  /// One byte at `byte`; `l_pid` must be 0 for an OFD lock.
  private static func range(_ byte: Int64, _ type: Int32) -> flock {
    var r = flock()
    r.l_type = Int16(type)
    r.l_whence = Int16(SEEK_SET)
    r.l_start = off_t(byte)
    r.l_len = 1
    r.l_pid = 0
    return r
  }
  #endif
}
