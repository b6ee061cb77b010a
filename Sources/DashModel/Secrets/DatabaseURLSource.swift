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
    let at = UInt8(ascii: "@"), colon = UInt8(ascii: ":"), slash = UInt8(ascii: "/")
    // The authority starts after `scheme:` and any slashes (`postgres://`, `postgres:/`, none).
    var start = 0
    // Without a slash after the colon, the colon may be the password's own (`user:pw@host`).
    if let end = bytes.firstIndex(of: colon), end > 0, bytes[..<end].allSatisfy(isSchemeByte), end + 1 < bytes.count, bytes[end + 1] == slash {
      start = end + 1
      while start < bytes.count, bytes[start] == slash { start += 1 }
    }
    if let last = bytes[start...].lastIndex(of: at), let first = bytes[start..<last].firstIndex(of: colon) {
      bytes.replaceSubrange((first + 1)..<last, with: Array("***".utf8))
    }
    // libpq's `?password=…` (any case), up to the next `&`.
    let key = Array("password=".utf8)
    var i = 0
    while i + key.count <= bytes.count {
      if zip(bytes[i..<(i + key.count)], key).allSatisfy({ lowercased($0) == $1 }) {
        let valueStart = i + key.count
        let valueEnd = bytes[valueStart...].firstIndex(of: UInt8(ascii: "&")) ?? bytes.count
        bytes.replaceSubrange(valueStart..<valueEnd, with: Array("***".utf8))
        i = valueStart + 3
      } else {
        i += 1
      }
    }
    return String(decoding: bytes, as: UTF8.self)
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
