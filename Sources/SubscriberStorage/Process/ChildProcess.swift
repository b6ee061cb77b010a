#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#elseif canImport(Darwin)
import Darwin
#endif

/// The one way SubDash starts another program (a sibling binary such as `subdash-fetch` or
/// `subdash-db`, or `subdash` itself in the fault probe) and waits for it. The dashboard blocks
/// SIGINT/SIGTERM/… for its signalfd; a child must not inherit that mask, so it is reset here for
/// every child.
package enum ChildProcess {
  package struct Failure: Error {
    package let code: Int32
    package var text: String { String(cString: strerror(code)) }
  }

  /// `redirects`: child descriptor → parent descriptor to dup2 onto it (`/dev/null` when nil);
  /// descriptors not named are inherited. `environment`: variables set (or replaced) in the
  /// child's copy of ours; a secret such as a database URL goes here, never in `argv`, which every
  /// local user can read in `ps`.
  package static func spawn(_ argv: [String], redirects: [Int32: Int32?], environment: [String: String] = [:]) -> Result<pid_t, Failure> {
    guard let program = argv.first else { return .failure(Failure(code: EINVAL)) }
    var actions = posix_spawn_file_actions_t()
    posix_spawn_file_actions_init(&actions)
    defer { posix_spawn_file_actions_destroy(&actions) }
    for (child, parent) in redirects.sorted(by: { $0.key < $1.key }) {
      if let parent { posix_spawn_file_actions_adddup2(&actions, parent, child) } else {
        posix_spawn_file_actions_addopen(&actions, child, "/dev/null", child == 0 ? O_RDONLY : O_WRONLY, 0)
      }
    }
    var attributes = posix_spawnattr_t()
    posix_spawnattr_init(&attributes)
    defer { posix_spawnattr_destroy(&attributes) }
    var empty = sigset_t()
    sigemptyset(&empty)
    posix_spawnattr_setsigmask(&attributes, &empty)
    posix_spawnattr_setflags(&attributes, Int16(POSIX_SPAWN_SETSIGMASK))
    var cArgs: [UnsafeMutablePointer<CChar>?] = argv.map { strdup($0) } + [nil]
    defer { for p in cArgs { free(p) } }
    var cEnvironment: [UnsafeMutablePointer<CChar>?] = ChildEnvironment.entries(overriding: environment).map { strdup($0) } + [nil]
    defer { for p in cEnvironment { free(p) } }
    var pid: pid_t = 0
    let rc = posix_spawn(&pid, program, &actions, &attributes, &cArgs, &cEnvironment)
    return rc == 0 ? .success(pid) : .failure(Failure(code: rc))
  }

  /// Waits for `pid` to end: its exit status, or 128 + the signal that ended it (as a shell says).
  /// For a child that is known to end (its input was closed, it was killed); otherwise use the
  /// bounded wait.
  package static func wait(_ pid: pid_t) -> Int32 {
    var status: Int32 = 0
    while waitpid(pid, &status, 0) < 0 && errno == EINTR {}
    return exitCode(status)
  }

  /// Waits at most `limit` for `pid`: its exit code as `wait` gives it, or nil when it had not
  /// ended by then (it is then killed with SIGKILL and reaped, so no zombie is left) or is not
  /// our child.
  package static func wait(_ pid: pid_t, upTo limit: Duration) -> Int32? {
    let deadline = ContinuousClock.now + limit
    var pause: UInt32 = 500  // µs, doubling to 50 ms: a quick child is seen quickly, a slow one costs little
    while true {
      var status: Int32 = 0
      let r = waitpid(pid, &status, WNOHANG)
      if r == pid { return exitCode(status) }
      if r < 0 && errno != EINTR { return nil }
      if ContinuousClock.now >= deadline {
        kill(pid, SIGKILL)
        _ = wait(pid)
        return nil
      }
      usleep(pause)
      pause = min(pause * 2, 50_000)
    }
  }

  /// A `waitpid` status as a shell reports it: the exit status, or 128 + the ending signal.
  package static func exitCode(_ status: Int32) -> Int32 {
    (status & 0x7F) == 0 ? (status >> 8) & 0xFF : 128 + (status & 0x7F)
  }

  /// Runs `argv` to its end, at most `limit`, standard output discarded. nil when it exited 0,
  /// else why not: its exit status (128 + N for signal N) and the first line it wrote to
  /// standard error, or that it did not finish in time (it is then killed).
  package static func run(_ argv: [String], upTo limit: Duration) -> String? {
    var fds: [Int32] = [-1, -1]
    guard pipe(&fds) == 0 else { return "cannot make a pipe: \(String(cString: strerror(errno)))" }
    // The read end must not leak into the child, or the read below would never see end-of-file.
    _ = fcntl(fds[0], F_SETFD, FD_CLOEXEC)
    _ = fcntl(fds[1], F_SETFD, FD_CLOEXEC)
    let spawned = spawn(argv, redirects: [1: nil, 2: fds[1]])
    close(fds[1])
    defer { close(fds[0]) }
    guard case .success(let pid) = spawned else { return "cannot start \(argv.first ?? "")" }
    let deadline = ContinuousClock.now + limit
    var err: [UInt8] = []
    var buf = [UInt8](repeating: 0, count: 4096)
    while ContinuousClock.now < deadline {
      var ready = pollfd(fd: fds[0], events: Int16(POLLIN), revents: 0)
      let (seconds, attoseconds) = (deadline - ContinuousClock.now).components
      let r = poll(&ready, 1, Int32(clamping: seconds * 1000 + attoseconds / 1_000_000_000_000_000 + 1))
      if r < 0 && errno == EINTR { continue }
      if r <= 0 { break }
      let n = read(fds[0], &buf, buf.count)
      if n > 0 {
        if err.count < 65_536 { err += buf[0..<n] }  // the first line is what is reported
        continue
      }
      if n < 0 && errno == EINTR { continue }
      break
    }
    let left = deadline - ContinuousClock.now
    guard let code = wait(pid, upTo: left > .zero ? left : .zero) else {
      return "did not finish within \(limit) (killed)"
    }
    guard code != 0 else { return nil }
    let line = String(decoding: err.prefix(while: { $0 != 0x0A }), as: UTF8.self)
    return "exit status \(code)" + (line.isEmpty ? "" : ": \(line)")
  }
}
