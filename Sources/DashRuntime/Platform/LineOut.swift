#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// Unbuffered line output (plain write(2), no Foundation FileHandle), so `subdash simulate | grep` and a tailing reader see each event as
/// it happens rather than when a buffer fills.
package enum LineOut {
  package static func stdout(_ line: String) { write(1, line + "\n") }
  package static func stderr(_ line: String) { write(2, line + "\n") }
  /// Text that carries its own line ends (`subdash list`'s whole output).
  package static func stdoutText(_ text: String) { write(1, text) }
  /// A line redrawn in place (`\r` and erase): `simulate`'s progress on a terminal.
  package static func stderrText(_ text: String) { write(2, text) }
  /// Bytes already encoded (`show --json`'s document, tens of megabytes for a long history),
  /// written as they are rather than copied into a String and out again.
  package static func stdoutBytes(_ bytes: [UInt8]) {
    bytes.withUnsafeBytes { buf in
      guard let base = buf.baseAddress else { return }
      var done = 0
      while done < buf.count {
        let n = Glibc.write(1, base + done, buf.count - done)
        if n < 0 { if errno == EINTR { continue }; return }
        done += n
      }
    }
  }

  private static func write(_ fd: Int32, _ text: String) {
    var bytes = Array(text.utf8)
    var done = 0
    while done < bytes.count {
      let n = bytes.withUnsafeMutableBytes { buf in
        Glibc.write(fd, buf.baseAddress! + done, buf.count - done)
      }
      if n < 0 { if errno == EINTR { continue }; return }
      done += n
    }
  }
}
