import DashModel
import DashRuntime
#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif
import SubscriberStorage

/// `simulate --deliver URL`: a `subdash deliver` child (HTTP and signing stay out of this binary)
/// follows the file while the simulation writes it. It says "ready" once it has opened the file's
/// delivery book, so no notification is written before it looks; when the simulation ends the
/// pipe on its stdin closes and it sends what is left (retries included) before exiting.
struct DeliveryChild {
  let pid: pid_t
  private let input: Int32

  static func start(_ options: [String], file: String) throws(SimulateInputError) -> DeliveryChild {
    var toChild: [Int32] = [0, 0], ready: [Int32] = [0, 0]
    guard pipe(&toChild) == 0, pipe(&ready) == 0 else {
      throw SimulateInputError("--deliver: cannot make a pipe: \(String(cString: strerror(errno)))")
    }
    // Only the child's own ends reach it (dup2 onto 0 and 1 clears the flag there).
    for fd in toChild + ready { _ = fcntl(fd, F_SETFD, FD_CLOEXEC) }
    let argv = [try deliverer()] + options + ["--until-stdin-closes", file]
    let spawned = ChildProcess.spawn(argv, redirects: [0: toChild[0], 1: ready[1], 2: 2])
    close(toChild[0])
    close(ready[1])
    defer { close(ready[0]) }
    guard case .success(let pid) = spawned else {
      close(toChild[1])
      throw SimulateInputError("--deliver: cannot run \(argv[0]) (reinstall with \(ExecutablePath.installCommand))")
    }
    var line: [UInt8] = []
    var byte: UInt8 = 0
    while read(ready[0], &byte, 1) == 1, byte != 0x0A { line.append(byte) }
    guard String(decoding: line, as: UTF8.self) == "ready" else {
      close(toChild[1])
      _ = ChildProcess.wait(pid)
      throw SimulateInputError("--deliver: subdash deliver did not start (its message is above)")
    }
    return DeliveryChild(pid: pid, input: toChild[1])
  }

  /// subdash-deliver's path, or why it cannot be run.
  private static func deliverer() throws(SimulateInputError) -> String {
    do { return try ExecutablePath.helper("subdash-deliver") } catch { throw SimulateInputError("--deliver: \(error)") }
  }

  /// Tells the child the simulation is over and waits while it sends what is left. Its exit
  /// status (0 when all went out or it was stopped by the same Ctrl-C).
  func finish() -> Int32 {
    close(input)
    return ChildProcess.wait(pid)
  }

  /// A population's notifications once the clock has moved: `subdash deliver --drain DIR`, run
  /// to its end. Its exit status.
  static func drain(_ options: [String], directory: String) throws(SimulateInputError) -> Int32 {
    let argv = [try deliverer()] + options + ["--drain", directory]
    guard case .success(let pid) = ChildProcess.spawn(argv, redirects: [0: nil, 1: 1, 2: 2]) else {
      throw SimulateInputError("--deliver: cannot run \(argv[0]) (reinstall with \(ExecutablePath.installCommand))")
    }
    return ChildProcess.wait(pid)
  }
}
