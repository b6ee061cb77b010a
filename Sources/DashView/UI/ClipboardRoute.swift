import DashModel

/// Whether a copy (`y`/`Y`, OSC 52) reaches the terminal the user sits at. The runtime reads the
/// environment (`TMUX`) and asks tmux; the view only words the answer (it reads no environment).
public enum ClipboardRoute: Equatable, Sendable {
  /// Not inside tmux: the sequence goes to the terminal.
  case terminal
  /// Inside tmux, whose `set-clipboard` option is `setClipboard` (nil: tmux did not answer in
  /// time). Only `on` passes an application's OSC 52 on to the outer terminal; `external`
  /// (tmux's default) and `off` drop it, so "copied" would be a claim nothing backs.
  case tmux(setClipboard: String?)

  /// What to say instead of "copied", or nil when the copy got through.
  public var problem: String? {
    switch self {
    case .terminal: return nil
    case .tmux(let setting?) where setting == "on": return nil
    case .tmux(let setting?):
      // tmux's own answer, cleaned and kept short: it is printed on the status line.
      let said = String(Sanitizer.clean(setting).prefix(16))
      return "not copied: tmux keeps it from your terminal (its set-clipboard is \(said)); "
        + "let copies through with `tmux set -g set-clipboard on`, then copy again"
    case .tmux(nil):
      return "copy sent to tmux, which did not say whether it passes copies on; "
        + "if nothing was copied, `tmux set -g set-clipboard on` lets them through"
    }
  }
}
