import DashModel
import DashView
#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// Where `y`'s OSC 52 goes when the dashboard runs inside tmux: tmux passes an application's
/// clipboard sequence on to the outer terminal only with `set-clipboard on`; its default,
/// `external`, drops it. So the tmux named by `TMUX` is asked, at each copy (the user may have
/// just changed the option), and the view says how to let the copy through instead of "copied".
enum TmuxClipboard {
  /// How long tmux may take to answer before the copy is reported as unconfirmed: tmux answers
  /// in milliseconds, and a key press must not hang on a server that does not.
  static let answerLimit: Duration = .milliseconds(500)

  /// `tmuxVariable`: the value of `TMUX` (`socket,pid,session`), nil or empty outside tmux.
  /// `searchPath`: `PATH`, where `tmux` is looked for.
  static func route(tmuxVariable: String?, searchPath: String?, limit: Duration = answerLimit) -> ClipboardRoute {
    guard let variable = tmuxVariable, !variable.isEmpty else { return .terminal }
    // The socket is the part before the first comma; asked by path, so the child needs no TMUX.
    let socket = variable.split(separator: ",", maxSplits: 1, omittingEmptySubsequences: false).first.map(String.init) ?? ""
    guard !socket.isEmpty, let tmux = executable("tmux", searchPath: searchPath) else { return .tmux(setClipboard: nil) }
    let child = HelperChild()
    guard child.start("tmux", at: tmux, arguments: ["-S", socket, "show-options", "-sv", "set-clipboard"], what: "tmux") == nil else {
      return .tmux(setClipboard: nil)
    }
    while true {
      if let ended = child.poll(killAfter: limit) {
        guard ended.exitedCleanly, ended.exitCode == 0, !ended.overdue else { return .tmux(setClipboard: nil) }
        // One word of letters (on, external, off); anything else is no answer.
        let word = ended.output.split(whereSeparator: \.isNewline).first.map(String.init) ?? ""
        guard !word.isEmpty, word.count <= 16, word.allSatisfy({ $0.isASCII && $0.isLetter }) else { return .tmux(setClipboard: nil) }
        return .tmux(setClipboard: word)
      }
      usleep(2_000)
    }
  }

  /// The first executable `name` in `searchPath`'s directories (absolute ones only).
  static func executable(_ name: String, searchPath: String?) -> String? {
    for dir in (searchPath ?? "").split(separator: ":") where dir.hasPrefix("/") {
      let candidate = "\(dir)/\(name)"
      if access(candidate, X_OK) == 0 { return candidate }
    }
    return nil
  }

  /// The route for this process: its own `TMUX` and `PATH`.
  static func current() -> ClipboardRoute {
    route(tmuxVariable: getenv("TMUX").map { String(cString: $0) }, searchPath: getenv("PATH").map { String(cString: $0) })
  }
}
