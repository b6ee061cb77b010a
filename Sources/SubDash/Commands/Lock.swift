import ArgumentParser
import DashModel
import DashRuntime

#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#elseif canImport(Darwin)
import Darwin
#endif
import CoreValues
import SubscriberStorage

/// `subdash lock FILE -- COMMAND [ARG…]`: runs COMMAND holding FILE's writer lock, the one every
/// SubDash writer takes, so a user's script or test harness can change a state file (or read a
/// file and its journal as one version) without a simulator or a receiver writing in between.
///
/// Why a command: the lock is a byte of the directory's `.subdash.lock` (`FileLock`), which
/// `flock(1)` cannot take. The lock's descriptor is left open across `exec`, so COMMAND holds it
/// until it and every child it hands the descriptor to have exited; nothing of SubDash stays
/// running, and COMMAND's exit status is the command's.
struct Lock: ParsableCommand {
  static let configuration = CommandConfiguration(
    commandName: "lock",
    abstract: "Run a command holding a state file's writer lock (what every SubDash writer takes).",
    discussion: """
      Waits at most 5 s for the lock, as SubDash's writers do; past that says the file is locked by another process and exits 1 without running anything. Exit codes: COMMAND's own; 1 the file is locked; 2 the lock cannot be taken (an unwritable directory, a planted link); 127 COMMAND cannot be run; 64 a bad command line. The lock is released when COMMAND and every process that inherited it have exited. See docs/state-file.md (the lock).
      """)

  @Argument(help: "The state file to lock (it need not exist yet).")
  var file: String

  @Argument(parsing: .postTerminator, help: "-- COMMAND [ARG…]: run with the lock held.")
  var command: [String] = []

  func validate() throws {
    if command.isEmpty { throw ValidationError("missing -- COMMAND to run with the lock held") }
  }

  func run() throws {
    let lock: FileLock
    do { lock = try FileLock(for: file) } catch {
      LineOut.stderr("subdash: \(error.description)")
      throw ExitCode(error.kind == .busy ? 1 : 2)
    }
    guard lock.keepAcrossExec() else {
      LineOut.stderr("subdash: lock: cannot hand the lock to the command: \(String(cString: strerror(errno)))")
      throw ExitCode(2)
    }
    var arguments = command.map { strdup($0) } + [nil]
    execvp(command[0], &arguments)
    let code = errno
    LineOut.stderr("subdash: lock: cannot run \(LogText.clip(command[0], limit: 200)): \(String(cString: strerror(code)))")
    throw ExitCode(127)
  }
}
