import ArgumentParser
import CommandLineStyle
import DashRuntime
#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

extension SubDash {
  /// `subdash FILE` opens a file, so a mistyped command (`subdash shwo a.json`) used to reach
  /// `open` as a file name and fail as "Unexpected argument" or "No such file". A first word
  /// that names no command and no existing path, and looks like a word rather than a path (no
  /// `/` or `.`), is taken as a command: the one meant is suggested, or the commands are named.
  static func main() {
    // `--version` straight from argv: it is timed as a whole process against `jq --version`,
    // and even making CommandLine.arguments' array of Strings shows in that figure.
    if CommandLine.argc == 2, let word = CommandLine.unsafeArgv[1], strcmp(word, "--version") == 0 {
      LineOut.stdout(SubDashVersion.report())  // with the helpers found (Commands/Version.swift)
      Glibc.exit(0)
    }
    let arguments = Array(CommandLine.arguments.dropFirst())
    if arguments.first == "show", let show = ShowRequest.parseCommon(arguments.dropFirst()) {
      // `show FILE [--json] [--ascii]`, what scripts run most, without ArgumentParser: its parse
      // (every option of the command looked at by reflection) was half of the process. Any other
      // `show` command line is parsed, and its mistakes reported, by ArgumentParser as before.
      do { try show.run() } catch { CommandLineStyle.exit(Self.self, error: error, arguments: arguments) }
      return
    }
    if let first = arguments.first, let complaint = unknownCommand(first) {
      CommandLineStyle.write(CommandLineStyle.prefix + complaint + "\nusage: subdash COMMAND [ARGS] or subdash [FILE|DIR] (subdash --help)\n")
      Glibc.exit(ExitCode.validationFailure.rawValue)
    }
    CommandLineStyle.main(Self.self, arguments: arguments)
  }

  /// The complaint for a first argument that is neither a command nor a file, or nil.
  static func unknownCommand(_ word: String) -> String? {
    guard !word.isEmpty, !word.hasPrefix("-"), !word.contains("/"), !word.contains(".") else { return nil }
    let names = configuration.subcommands.map { $0._commandName }
    guard !names.contains(word) else { return nil }
    var info = stat()
    guard lstat(word, &info) != 0 else { return nil }  // an existing file or directory opens
    let shown = configuration.subcommands.filter { $0.configuration.shouldDisplay }.map { $0._commandName }
    if let meant = CommandLineStyle.suggestion(for: word, among: shown) {
      return "\(word): no such command or file; did you mean \(meant)?"
    }
    return "\(word): no such command or file (commands: \(shown.joined(separator: ", ")))"
  }
}
