#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// The portable half of `SignalWatcher`: a signal handler that writes the signal's number into a
/// pipe the event loop polls. Nothing else happens inside the handler.
enum SelfPipe {
  /// Signal numbers are below 65 on Linux and 32 on macOS; a larger table costs nothing.
  static let slots = 128

  /// For each signal, the write end of the pipe its handler writes to, or -1. A plain table
  /// (not an array, whose access may retain or allocate) because the handler reads it. Written
  /// before a handler is installed and read as one aligned 32-bit word.
  nonisolated(unsafe) static let writeEnds: UnsafeMutablePointer<Int32> = {
    let table = UnsafeMutablePointer<Int32>.allocate(capacity: slots)
    table.initialize(repeating: -1, count: slots)
    return table
  }()

  private static let handler: @convention(c) (Int32) -> Void = { signo in
    guard signo > 0, signo < SelfPipe.slots else { return }
    let fd = SelfPipe.writeEnds[Int(signo)]
    guard fd >= 0 else { return }
    // The interrupted code may be about to read errno.
    let saved = errno
    var byte = UInt8(truncatingIfNeeded: signo)
    _ = write(fd, &byte, 1)
    errno = saved
  }

  /// Makes the pipe and points each signal's handler at it.
  static func install(_ signals: [Int32]) throws -> (read: Int32, write: Int32) {
    var ends: [Int32] = [-1, -1]
    guard pipe(&ends) == 0 else { throw SignalWatcher.Failure.pipe(errno: errno) }
    for fd in ends {
      _ = fcntl(fd, F_SETFD, FD_CLOEXEC)
      // Never block: a full pipe drops a signal (many are already pending), an empty one ends drain().
      _ = fcntl(fd, F_SETFL, fcntl(fd, F_GETFL) | O_NONBLOCK)
    }
    _ = writeEnds  // initialised here, never first inside a handler
    for s in signals where s > 0 && s < slots {
      writeEnds[Int(s)] = ends[1]
      _ = signal(s, handler)
    }
    return (ends[0], ends[1])
  }

  /// Every signal number waiting in the pipe, in arrival order.
  static func drain(_ readEnd: Int32) -> [Int32] {
    var out: [Int32] = []
    var buffer = [UInt8](repeating: 0, count: 64)
    while true {
      let n = read(readEnd, &buffer, buffer.count)
      if n > 0 {
        out += buffer[0..<n].map { Int32($0) }
      } else if n < 0 && errno == EINTR {
        continue
      } else {
        return out  // EAGAIN: nothing more
      }
    }
  }

  /// The handlers stay installed (see `SignalWatcher.deinit`) but find no pipe. The write end is
  /// never closed: a handler running on another thread at this instant could otherwise write into
  /// whatever file next gets its number. One descriptor per watcher, and a program makes one.
  static func uninstall(_ signals: [Int32], readEnd: Int32, writeEnd: Int32) {
    // A watcher made later for the same signal keeps its pipe.
    for s in signals where s > 0 && s < slots && writeEnds[Int(s)] == writeEnd { writeEnds[Int(s)] = -1 }
    close(readEnd)
  }
}
