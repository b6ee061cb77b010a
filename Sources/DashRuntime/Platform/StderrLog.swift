#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// While curses owns the screen, anything written to stderr (the Swift runtime's
/// "Fatal error: ..." line, library warnings) would land in the alternate screen and vanish or
/// smear the frame. So stderr is parked in an unlinked temp file and replayed onto the real
/// stderr when the terminal is restored — on normal exit and from the crash handler alike.
///
/// State lives in plain globals (not a class instance) because the crash handler must reach it
/// without allocating; everything in `restore()` is async-signal-safe (dup2, lseek, read, write).
package enum StderrLog {
  nonisolated(unsafe) private static var savedFD: Int32 = -1
  nonisolated(unsafe) private static var logFD: Int32 = -1

  /// Starts capturing. Does nothing when stderr is not a terminal (already redirected by the
  /// user, so it cannot disturb the screen) or when no temp file can be made (then output may
  /// show up on screen, which is better than losing it).
  package static func begin() {
    guard savedFD < 0, isatty(2) == 1 else { return }
    let dir = getenv("TMPDIR").map { String(cString: $0) }.flatMap { $0.isEmpty ? nil : $0 } ?? "/tmp"
    var template = Array("\(dir)/subdash-stderr.XXXXXX".utf8CString)
    let log = mkstemp(&template)
    guard log >= 0 else { return }
    unlink(&template)  // nothing is left behind, whatever way the process ends
    _ = fcntl(log, F_SETFD, FD_CLOEXEC)
    let saved = fcntl(2, F_DUPFD_CLOEXEC, 3)
    guard saved >= 0, dup2(log, 2) == 2 else {
      close(log)
      if saved >= 0 { close(saved) }
      return
    }
    savedFD = saved
    logFD = log
  }

  /// Puts the real stderr back and copies everything captured onto it. Idempotent and
  /// async-signal-safe, so the crash handler and normal shutdown share it.
  package static func restore() {
    let saved = savedFD, log = logFD
    guard saved >= 0 else { return }
    savedFD = -1
    logFD = -1
    _ = dup2(saved, 2)
    close(saved)
    guard log >= 0 else { return }
    _ = lseek(log, 0, SEEK_SET)
    withUnsafeTemporaryAllocation(byteCount: 4096, alignment: 1) { buf in
      while true {
        let n = read(log, buf.baseAddress, buf.count)
        if n < 0 && errno == EINTR { continue }
        guard n > 0 else { break }
        var off = 0
        while off < n {
          let w = write(2, buf.baseAddress! + off, n - off)
          if w < 0 && errno == EINTR { continue }
          guard w > 0 else { break }
          off += w
        }
      }
    }
    close(log)
  }
}
