import ArgumentParser
#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// How every SubDash executable (subdash, subdash-list, subdash-listen, subdash-fetch, subdash-db,
/// subdash-deliver; `subdash X` runs them) reports a command-line mistake: one line with the one
/// prefix `subdash:`, then a one-line usage hint naming the help to read:
///
///     subdash: unknown option '--frobnicate'
///     usage: subdash show [--json] <file> (subdash show --help)
///
/// ArgumentParser's own report ("Error:" and a usage block of many lines) differed from every
/// other error SubDash prints ("subdash: …"). Help and --version print as before; an `ExitCode`
/// a command throws after saying why itself exits with that code and nothing more.
public enum CommandLineStyle {
  public static let prefix = "subdash: "

  /// The usage line and the help command to name, when ArgumentParser's would mislead (serve
  /// runs subdash-listen, whose usage is listen's).
  public struct Usage: Sendable {
    public var line: String
    public var help: String
    public init(line: String, help: String) {
      self.line = line
      self.help = help
    }
  }

  /// Parses `arguments` for `root` and runs the command; any error is reported in this style.
  public static func main<Root: ParsableCommand>(_ root: Root.Type, arguments: [String]? = nil, usage: Usage? = nil) {
    let args = arguments ?? Array(CommandLine.arguments.dropFirst())
    do {
      var command = try root.parseAsRoot(args)
      try command.run()
    } catch {
      exit(root, error: error, arguments: args, usage: usage)
    }
  }

  /// `main` for a root whose commands run asynchronously.
  public static func mainAsync<Root: AsyncParsableCommand>(_ root: Root.Type, arguments: [String]? = nil, usage: Usage? = nil) async {
    let args = arguments ?? Array(CommandLine.arguments.dropFirst())
    do {
      var command = try await root.asyncParseAsRoot(args)
      if var asyncCommand = command as? AsyncParsableCommand {
        try await asyncCommand.run()
      } else {
        try command.run()
      }
    } catch {
      exit(root, error: error, arguments: args, usage: usage)
    }
  }

  /// Reports `error` (thrown while parsing or running `arguments`) and exits with its code.
  public static func exit<Root: ParsableCommand>(_ root: Root.Type, error: any Error, arguments: [String], usage: Usage? = nil) -> Never {
    let code = root.exitCode(for: error)
    // Help, --version and a command's own ExitCode: as ArgumentParser does it.
    if error is ExitCode || code == .success { root.exit(withError: error) }
    let message = line(root.message(for: error))
    guard !message.isEmpty else { root.exit(withError: error) }
    let (command, path) = resolve(root, arguments)
    var out = prefix + message
    if let wanted = unexpectedWord(message), let meant = suggestion(for: wanted, among: visibleNames(command)) {
      out += "; did you mean \(meant)?"
    }
    out += "\n"
    if code == .validationFailure {
      let hint = usage ?? Usage(line: oneLine(root.usageString(for: command)), help: path + " --help")
      out += "usage: \(hint.line) (\(hint.help))\n"
    }
    write(out)
    Glibc.exit(code.rawValue)
  }

  /// Writes to standard error in one call (a line is never interleaved with another process's).
  public static func write(_ text: String) {
    var bytes = Array(text.utf8)
    bytes.withUnsafeMutableBytes { buffer in
      var done = 0
      while done < buffer.count {
        let n = Glibc.write(2, buffer.baseAddress! + done, buffer.count - done)
        if n < 0 && errno == EINTR { continue }
        guard n > 0 else { return }
        done += n
      }
    }
  }

  // MARK: pieces

  /// The message as one line: ArgumentParser's "Help: <arg> …" tail (repeated in the usage hint)
  /// is dropped, lines are joined, and a sentence's capital is lowered to match SubDash's other
  /// errors ("Unknown option" → "unknown option"; "URL" stays).
  static func line(_ message: String) -> String {
    var lines: [Substring] = []
    for l in message.split(whereSeparator: \.isNewline) {
      let t = l.drop(while: { $0 == " " })
      if t.hasPrefix("Help:") || t.hasPrefix("Usage:") || t.hasPrefix("USAGE:") { break }
      if !t.isEmpty { lines.append(t) }
    }
    var text = lines.joined(separator: " ")
    if text.hasPrefix("Error: ") { text.removeFirst(7) }
    let chars = Array(text)
    if chars.count > 1, chars[0].isUppercase, chars[1].isLowercase {
      text = chars[0].lowercased() + String(chars.dropFirst())
    }
    return text
  }

  /// ArgumentParser's usage, which it wraps over several indented lines, as one line.
  static func oneLine(_ usage: String) -> String {
    usage.split(whereSeparator: { $0 == " " || $0.isNewline }).joined(separator: " ")
  }

  /// The (sub)command `arguments` name, and how a person types it ("subdash db import"). The
  /// root's default subcommand stands for the root when none is named (`subdash FILE` is open).
  static func resolve(_ root: ParsableCommand.Type, _ arguments: [String]) -> (ParsableCommand.Type, String) {
    var current: ParsableCommand.Type = root
    var path = root._commandName
    for arg in arguments {
      if arg == "--" { break }
      if arg.hasPrefix("-") { continue }
      guard let sub = current.configuration.subcommands.first(where: { $0._commandName == arg || $0.configuration.aliases.contains(arg) }) else { break }
      current = sub
      path += " " + sub._commandName
    }
    if current == root, let fallback = root.configuration.defaultSubcommand { current = fallback }
    return (current, path)
  }

  /// The subcommand names a person may type after `command`.
  static func visibleNames(_ command: ParsableCommand.Type) -> [String] {
    command.configuration.subcommands.filter { $0.configuration.shouldDisplay }.map { $0._commandName }
  }

  /// The word in "unexpected argument 'WORD'", when that is the message.
  static func unexpectedWord(_ message: String) -> String? {
    let head = "unexpected argument '"
    guard message.hasPrefix(head), message.hasSuffix("'") else { return nil }
    let word = String(message.dropFirst(head.count).dropLast())
    return word.hasPrefix("-") || word.isEmpty ? nil : word
  }

  /// The one name `word` was most likely meant as: the name it starts (at least 3 letters, and
  /// only one name does), else the nearest name within a typo's distance (one edit for names of
  /// up to 4 letters, two for longer ones; a swap of neighbours is one edit).
  public static func suggestion(for word: String, among names: [String]) -> String? {
    let w = word.lowercased()
    guard !w.isEmpty, !names.contains(w) else { return nil }
    let starting = names.filter { $0.hasPrefix(w) }
    if w.count >= 3, starting.count == 1 { return starting[0] }
    var best: (name: String, distance: Int)?
    for name in names {
      let d = distance(w, name)
      let allowed = name.count <= 4 ? 1 : 2
      guard d <= allowed else { continue }
      if d < (best?.distance ?? Int.max) { best = (name, d) }
    }
    return best?.name
  }

  /// Edit distance with swaps of neighbours counted as one edit (optimal string alignment).
  static func distance(_ a: String, _ b: String) -> Int {
    let x = Array(a), y = Array(b)
    guard !x.isEmpty else { return y.count }
    guard !y.isEmpty else { return x.count }
    var d = Array(repeating: Array(repeating: 0, count: y.count + 1), count: x.count + 1)
    for i in 0...x.count { d[i][0] = i }
    for j in 0...y.count { d[0][j] = j }
    for i in 1...x.count {
      for j in 1...y.count {
        let cost = x[i - 1] == y[j - 1] ? 0 : 1
        d[i][j] = min(d[i - 1][j] + 1, d[i][j - 1] + 1, d[i - 1][j - 1] + cost)
        if i > 1, j > 1, x[i - 1] == y[j - 2], x[i - 2] == y[j - 1] { d[i][j] = min(d[i][j], d[i - 2][j - 2] + 1) }
      }
    }
    return d[x.count][y.count]
  }
}
