import DashModel
import Glibc

/// The team database seen as a directory: `subdash-db mirror DIR --db URL` exports every subscriber
/// into a private temporary directory, then rewrites each one a writer commits (LISTEN/NOTIFY).
/// The list and the dashboard then follow it with the file watching they already do, and
/// postgres-nio never loads into `subdash`. The child stops when its stdin closes.
package final class DatabaseMirror {
  package let directory: String
  private let pid: pid_t
  private let stdinFD: Int32

  private init(directory: String, pid: pid_t, stdinFD: Int32) {
    self.directory = directory
    self.pid = pid
    self.stdinFD = stdinFD
  }

  /// The child could not read the database; it has printed why (one line on stderr) and this is
  /// its exit status, for `subdash` to exit with.
  package struct Failed: Error { package let status: Int32 }

  /// Starts the mirror and waits for its first export (`ready: …`). `follow: false` exports once
  /// and exits (`subdash list --db`).
  package static func start(url: String, follow: Bool) throws -> DatabaseMirror {
    guard let dir = TemporaryDirectory.make("subdash-db") else { throw StateFileError(file: "--db", message: "cannot create a temporary directory: \(String(cString: strerror(errno)))") }
    let binary = ExecutablePath.sibling("subdash-db")
    let argv = [binary, follow ? "mirror" : "export", dir, "--db", url]
    var toChild: [Int32] = [-1, -1], fromChild: [Int32] = [-1, -1]
    guard pipe(&toChild) == 0, pipe(&fromChild) == 0 else { throw StateFileError(file: "--db", message: "cannot create a pipe") }
    for fd in toChild + fromChild { _ = fcntl(fd, F_SETFD, FD_CLOEXEC) }
    let spawned = ChildProcess.spawn(argv, redirects: [0: toChild[0], 1: fromChild[1]])
    close(toChild[0])
    close(fromChild[1])
    let pid: pid_t
    switch spawned {
    case .failure(let failure):
      close(toChild[1]); close(fromChild[0])
      throw StateFileError(file: "--db", message: "cannot run \(binary): \(failure.text) (it is built beside subdash)")
    case .success(let child):
      pid = child
    }
    let mirror = DatabaseMirror(directory: dir, pid: pid, stdinFD: toChild[1])
    // Its stderr is ours: a refused connection or a bad URL is printed by the child, one line.
    var line: [UInt8] = []
    var byte: UInt8 = 0
    while read(fromChild[0], &byte, 1) == 1 {
      if byte == 0x0A { break }
      line.append(byte)
    }
    close(fromChild[0])
    let text = String(decoding: line, as: UTF8.self)
    let status = follow ? (text.hasPrefix("ready:") ? 0 : mirror.wait()) : mirror.wait()
    if status != 0 || (follow && !text.hasPrefix("ready:")) {
      mirror.stop()
      throw Failed(status: status == 0 ? 1 : status)
    }
    return mirror
  }

  /// Waits for an `export` child; its exit status.
  private func wait() -> Int32 {
    if reaped { return 0 }
    reaped = true
    return ChildProcess.wait(pid)
  }

  private var stopped = false
  private var reaped = false

  /// Ends the child (closing its stdin), waits for it and removes the directory.
  package func stop() {
    guard !stopped else { return }
    stopped = true
    close(stdinFD)
    if !reaped { kill(pid, SIGTERM) }
    _ = wait()
    TemporaryDirectory.remove(directory)
  }

  deinit { stop() }
}
