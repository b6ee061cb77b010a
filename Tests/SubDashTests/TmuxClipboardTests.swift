import DashModel
import CoreValues
import DashView
import Foundation
import Glibc
import Testing
@testable import DashRuntime
import SubscriberStorage

/// `y` inside tmux: the dashboard asks the tmux named by `TMUX` whether it passes a copy on, so
/// the status line can say how to let it through. A real tmux server on a socket of the test's own.
@Suite(.serialized, .timeLimit(.minutes(1))) struct TmuxClipboardTests {
  /// Runs tmux on `socket` with `arguments`, waiting for it to end (the server it may start
  /// lives on, detached: `kill-server` ends it).
  @discardableResult
  func run(_ tmux: String, _ socket: String, _ arguments: [String]) -> Int32 {
    switch ChildProcess.spawn([tmux, "-f", "/dev/null", "-S", socket] + arguments, redirects: [0: nil, 1: nil, 2: nil]) {
    case .success(let pid): return ChildProcess.wait(pid)
    case .failure(let failure): Issue.record("cannot run tmux: \(failure.text)"); return -1
    }
  }

  @Test func outsideTmuxACopyGoesToTheTerminal() {
    #expect(TmuxClipboard.route(tmuxVariable: nil, searchPath: "/usr/bin:/bin") == .terminal)
    #expect(TmuxClipboard.route(tmuxVariable: "", searchPath: "/usr/bin:/bin") == .terminal)
  }

  @Test func insideTmuxItsSetClipboardOptionDecides() throws {
    let path = getenv("PATH").map { String(cString: $0) }
    guard let tmux = TmuxClipboard.executable("tmux", searchPath: path) else {
      Issue.record("tmux is not installed (.ci/run installs it)")
      return
    }
    let dir = FileManager.default.temporaryDirectory.appendingPathComponent("tmux-clip-\(UUID().uuidString)")
    try FileManager.default.createDirectory(at: dir, withIntermediateDirectories: false, attributes: [.posixPermissions: 0o700])
    defer { try? FileManager.default.removeItem(at: dir) }
    let socket = dir.appendingPathComponent("s").path
    #expect(run(tmux, socket, ["new-session", "-d", "-s", "t", "sleep 60"]) == 0)
    defer { _ = self.run(tmux, socket, ["kill-server"]) }
    // TMUX as tmux sets it in a pane: socket, server pid, session.
    let variable = "\(socket),1,0"
    #expect(run(tmux, socket, ["set-option", "-s", "set-clipboard", "external"]) == 0)
    let held = TmuxClipboard.route(tmuxVariable: variable, searchPath: path, limit: .seconds(20))
    #expect(held == .tmux(setClipboard: "external"))
    #expect(held.problem?.contains("tmux set -g set-clipboard on") == true)
    #expect(run(tmux, socket, ["set-option", "-s", "set-clipboard", "on"]) == 0)
    let through = TmuxClipboard.route(tmuxVariable: variable, searchPath: path, limit: .seconds(20))
    #expect(through == .tmux(setClipboard: "on"))
    #expect(through.problem == nil)
    // A tmux that is not there gave no answer: the copy is not claimed.
    let gone = TmuxClipboard.route(tmuxVariable: dir.appendingPathComponent("none").path + ",1,0", searchPath: path, limit: .seconds(20))
    #expect(gone == .tmux(setClipboard: nil))
    #expect(gone.problem?.contains("did not say") == true)
  }
}
