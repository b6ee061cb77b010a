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
  /// written as they are rather than copied into a String and out again. The error when they
  /// could not all be written (a full disk behind `> out.json`), so a script is not told 0.
  package static func stdoutBytes(_ bytes: [UInt8]) -> Int32? {
    bytes.withUnsafeBytes { writeAll(1, $0) }
  }

  private static func write(_ fd: Int32, _ text: String) {
    var text = text
    _ = text.withUTF8 { writeAll(fd, UnsafeRawBufferPointer($0)) }
  }

  /// Writes every byte (short writes continued, EINTR retried); the errno it stopped on, or nil.
  private static func writeAll(_ fd: Int32, _ buf: UnsafeRawBufferPointer) -> Int32? {
    guard let base = buf.baseAddress else { return nil }
    var done = 0
    while done < buf.count {
      let n = Glibc.write(fd, base + done, buf.count - done)
      if n < 0 { if errno == EINTR { continue }; return errno }
      if n == 0 { return EIO }
      done += n
    }
    return nil
  }
}
