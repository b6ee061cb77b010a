/// libpq's password file (`~/.pgpass`): `hostname:port:database:username:password` lines, `*`
/// matching anything in the first four fields, `\:` and `\\` escaping, `#` starting a comment.
/// The first matching line wins, as in libpq.
enum PasswordFile {
  static func password(in text: String, host: String, port: Int, database: String, username: String) -> String? {
    let wanted = [host, String(port), database, username]
    for line in text.split(whereSeparator: { $0 == "\n" || $0 == "\r" }) {
      if line.hasPrefix("#") { continue }
      let fields = Self.fields(line)
      guard fields.count >= 5 else { continue }
      let matches = zip(fields.prefix(4), wanted).allSatisfy { field, value in field == .wildcard || field == .text(value) }
      if matches, case .text(let password) = fields[4] { return password }
      if matches, case .wildcard = fields[4] { return "*" }
    }
    return nil
  }

  enum Field: Equatable {
    case wildcard
    case text(String)
  }

  /// The line split at unescaped colons, escapes removed; a field that is exactly an unescaped
  /// `*` is the wildcard.
  static func fields(_ line: Substring) -> [Field] {
    var fields: [Field] = []
    var current = ""
    var escapedAny = false
    var iterator = line.makeIterator()
    func finish() {
      fields.append(current == "*" && !escapedAny ? .wildcard : .text(current))
      current = ""
      escapedAny = false
    }
    while let c = iterator.next() {
      switch c {
      case "\\":
        if let next = iterator.next() { current.append(next); escapedAny = true } else { current.append(c) }
      case ":":
        finish()
      default:
        current.append(c)
      }
    }
    finish()
    return fields
  }
}
