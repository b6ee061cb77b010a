#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#elseif canImport(Darwin)
import Darwin
#endif
import DashModel

/// Where a command finds its team database's URL, which may carry a password: `--db URL` (seen by
/// every local user in `ps`, so discouraged), `--db-file PATH` (a private file, checked like a
/// key), or the `SUBDASH_DB` environment variable. A child (`subdash-db`, `subdash-listen`) is
/// always given the URL in its environment, never in its arguments.
public enum DatabaseURLSource {
  public static let variable = "SUBDASH_DB"

  /// The URL text from `--db`, else `--db-file`, else `SUBDASH_DB`; nil when none names one.
  public static func text(option: String?, file: String?, environment: (String) -> String?) throws(PrivateFile.Refusal) -> String? {
    if let option { return option }
    if let file {
      let bytes = try PrivateFile.read(file, what: "--db-file")
      let text = String(decoding: bytes, as: UTF8.self)
      let lines = text.split(whereSeparator: { $0 == "\n" || $0 == "\r" }).map { $0.trimmingSpaces() }.filter { !$0.isEmpty && !$0.hasPrefix("#") }
      guard lines.count == 1, let line = lines.first else {
        throw PrivateFile.Refusal(description: "\(file): --db-file must hold one line, postgres://USER[:PASSWORD]@HOST[:PORT]/DATABASE")
      }
      return line
    }
    if let value = environment(variable), !value.isEmpty { return value }
    return nil
  }

  /// The text as it may be printed: any password replaced by `***`, whether or not the text
  /// parses as a URL (an error message must never print the secret it is complaining about).
  /// Everything between the first `:` after the scheme and the last `@` is taken as a password,
  /// as is the value of a `password=` query parameter.
  public static func redacted(_ text: String) -> String {
    var bytes = Array(text.utf8)
    for range in passwordRanges(in: bytes).reversed() { bytes.replaceSubrange(range, with: Array("***".utf8)) }
    return String(decoding: bytes, as: UTF8.self)
  }

  /// Where `redacted` finds passwords in `bytes`, in order, not overlapping.
  static func passwordRanges(in bytes: [UInt8]) -> [Range<Int>] {
    let at = UInt8(ascii: "@"), colon = UInt8(ascii: ":"), slash = UInt8(ascii: "/")
    var ranges: [Range<Int>] = []
    // The authority starts after `scheme:` and any slashes (`postgres://`, `postgres:/`, none).
    var start = 0
    // Without a slash after the colon, the colon may be the password's own (`user:pw@host`).
    if let end = bytes.firstIndex(of: colon), end > 0, bytes[..<end].allSatisfy(isSchemeByte), end + 1 < bytes.count, bytes[end + 1] == slash {
      start = end + 1
      while start < bytes.count, bytes[start] == slash { start += 1 }
    }
    var searchFrom = 0
    if let last = bytes[start...].lastIndex(of: at), let first = bytes[start..<last].firstIndex(of: colon) {
      ranges.append((first + 1)..<last)
      searchFrom = last
    }
    // libpq's `?password=…` (any case), up to the next `&`.
    let key = Array("password=".utf8)
    var i = searchFrom
    while i + key.count <= bytes.count {
      if zip(bytes[i..<(i + key.count)], key).allSatisfy({ lowercased($0) == $1 }) {
        let valueStart = i + key.count
        let valueEnd = bytes[valueStart...].firstIndex(of: UInt8(ascii: "&")) ?? bytes.count
        ranges.append(valueStart..<valueEnd)
        i = valueEnd
      } else {
        i += 1
      }
    }
    return ranges
  }

  /// Overwrites, in this process's own arguments, the password of every URL given on the command
  /// line (`--db postgres://team:pw@…` typed by hand), so that `ps` shows `*` from then on: the
  /// parsed copy is all the program needs. What `mysql -p` does; the window before is short.
  public static func hidePasswordsInArguments() {
    let argv = CommandLine.unsafeArgv
    for k in 1..<Int(CommandLine.argc) {
      guard let p = argv[k] else { continue }
      let bytes = Array(UnsafeBufferPointer(start: UnsafeRawPointer(p).assumingMemoryBound(to: UInt8.self), count: strlen(p)))
      // URLs only: a file name with `:` and `@` in it is left as it is.
      guard bytes.count >= 3, (0..<(bytes.count - 2)).contains(where: { bytes[$0] == UInt8(ascii: ":") && bytes[$0 + 1] == UInt8(ascii: "/") && bytes[$0 + 2] == UInt8(ascii: "/") }) else { continue }
      for range in passwordRanges(in: bytes) {
        for i in range { p[i] = CChar(bitPattern: UInt8(ascii: "*")) }
      }
    }
  }

  private static func isSchemeByte(_ b: UInt8) -> Bool {
    (b >= 0x61 && b <= 0x7A) || (b >= 0x41 && b <= 0x5A) || (b >= 0x30 && b <= 0x39) || b == 0x2B || b == 0x2D || b == 0x2E
  }

  private static func lowercased(_ b: UInt8) -> UInt8 { b >= 0x41 && b <= 0x5A ? b | 0x20 : b }
}

extension Substring {
  fileprivate func trimmingSpaces() -> String {
    String(drop(while: { $0 == " " || $0 == "\t" }).reversed().drop(while: { $0 == " " || $0 == "\t" }).reversed())
  }
}
