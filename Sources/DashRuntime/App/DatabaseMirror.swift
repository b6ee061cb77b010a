import DashModel
#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif
import SubscriberStorage

/// The team database seen as a directory: `subdash-db mirror DIR --db URL` exports every subscriber
/// into a private temporary directory, then rewrites each one a writer commits (LISTEN/NOTIFY).
/// The list and the dashboard then follow it with the file watching they already do, and
/// postgres-nio never loads into `subdash`. A dashboard's keys go back to the child, which applies
/// them to the row under its lock (`write`, the protocol in Sources/SubDashDB/RowWrites.swift).
/// The child stops when its stdin closes.
package final class DatabaseMirror: LockedRowWriting {
  package let directory: String
  package let pid: pid_t
  private let stdinFD: Int32
  /// The child's stdout: `ready`, then the answers to row writes.
  private let repliesFD: Int32
  /// Set when the child stopped answering or answered out of turn: the protocol cannot be trusted
  /// after that, so every later write is refused with this reason.
  private var broken: String?

  private init(directory: String, pid: pid_t, stdinFD: Int32, repliesFD: Int32) {
    self.directory = directory
    self.pid = pid
    self.stdinFD = stdinFD
    self.repliesFD = repliesFD
  }

  /// How long a row write waits for the child at each step: the row's lock may be held by another
  /// writer (a `listen --db` applying a notification takes milliseconds; a stuck one is not waited out).
  static let replyTimeoutMs: Int32 = 15_000
  /// After `commit family`, until the first line: before it, the child looks through every
  /// subscriber of its mirror directory (as a directory's dashboard does), which a large team
  /// database makes longer than one row write.
  static let familyReplyTimeoutMs: Int32 = 60_000

  /// The child could not read the database; it has printed why (one line on stderr) and this is
  /// its exit status, for `subdash` to exit with.
  package struct Failed: Error { package let status: Int32 }

  /// How long `start` waits for the child's first line, the end of its export of every row. The
  /// child's own connection and lock timeouts end most stalls with a line of their own; this bound
  /// is for the rest (a server that accepts and never answers, a child stopped by a signal), so
  /// `subdash --db` never waits on a blank terminal for ever. Generous: an export of a large
  /// team database takes seconds, not minutes.
  package static let readyTimeoutMs: Int32 = 120_000

  /// Starts the mirror and waits for its first export (`ready: …`). `follow: false` exports once
  /// and exits (`subdash list --db`). The URL (it may hold a password) reaches the child in its
  /// environment, SUBDASH_DB, never in its arguments. `binary` nil: the installed subdash-db.
  package static func start(url: String, follow: Bool, binary binaryPath: String? = nil, readyTimeoutMs: Int32 = readyTimeoutMs) throws -> DatabaseMirror {
    let binary: String
    if let given = binaryPath { binary = given } else {
      do { binary = try ExecutablePath.helper("subdash-db") } catch { throw StateFileError(file: "--db", message: error.description) }
    }
    guard let dir = TemporaryDirectory.make("subdash-db") else { throw StateFileError(file: "--db", message: "cannot create a temporary directory: \(String(cString: strerror(errno)))") }
    let mode = follow ? "mirror" : "export"
    let argv = [binary, mode, dir]
    var toChild: [Int32] = [-1, -1], fromChild: [Int32] = [-1, -1]
    guard pipe(&toChild) == 0 else {
      TemporaryDirectory.remove(dir)
      throw StateFileError(file: "--db", message: "cannot create a pipe: \(String(cString: strerror(errno)))")
    }
    guard pipe(&fromChild) == 0 else {
      let why = String(cString: strerror(errno))
      close(toChild[0]); close(toChild[1])
      TemporaryDirectory.remove(dir)
      throw StateFileError(file: "--db", message: "cannot create a pipe: \(why)")
    }
    for fd in toChild + fromChild { _ = fcntl(fd, F_SETFD, FD_CLOEXEC) }
    // A write to a child that has died must fail with EPIPE, not end the program with the
    // terminal still raw.
    signal(SIGPIPE, SIG_IGN)
    let spawned = ChildProcess.spawn(argv, redirects: [0: toChild[0], 1: fromChild[1]], environment: [DatabaseURLSource.variable: url])
    close(toChild[0])
    close(fromChild[1])
    let pid: pid_t
    switch spawned {
    case .failure(let failure):
      close(toChild[1]); close(fromChild[0])
      TemporaryDirectory.remove(dir)
      throw StateFileError(file: "--db", message: "cannot run \(binary): \(failure.text) (reinstall with \(ExecutablePath.installCommand))")
    case .success(let child):
      pid = child
    }
    let mirror = DatabaseMirror(directory: dir, pid: pid, stdinFD: toChild[1], repliesFD: fromChild[0])
    // Its stderr is ours: a refused connection or a bad URL is printed by the child, one line.
    let firstRead = mirror.read(timeoutMs: readyTimeoutMs)
    if case .timedOut = firstRead {
      // SIGKILL: a child that ignores SIGTERM must not turn the bound into a wait in `stop`.
      kill(pid, SIGKILL)
      mirror.stop()
      throw StateFileError(file: "--db", message: "subdash-db \(mode) (\(binary)) did not say it had read the database within \(seconds(readyTimeoutMs)); stopped it")
    }
    let first: MirrorReply? = if case .line(let line) = firstRead { MirrorReply(line: line) } else { nil }
    let isReady = if case .ready? = first { true } else { false }
    if follow && isReady { return mirror }
    // An export that has said `ready` ends by itself; a child whose first line was not `ready`
    // is ending with an error of its own. Either is given a bound too, then stopped.
    let status = mirror.waitEnding(upTo: .seconds(10), binary: binary, mode: mode)
    if status != 0 || follow {
      mirror.stop()
      throw Failed(status: status == 0 ? 1 : status)
    }
    return mirror
  }

  /// Waits at most `limit` for the child to end: its exit status, or 1 (with a line saying so)
  /// when it had to be killed.
  private func waitEnding(upTo limit: Duration, binary: String, mode: String) -> Int32 {
    reaped = true
    if let status = ChildProcess.wait(pid, upTo: limit) { return status }
    LineOut.stderr("subdash: --db: subdash-db \(mode) (\(binary)) did not end within \(limit) after its first line; stopped it")
    return 1
  }

  private static func seconds(_ ms: Int32) -> String {
    ms % 1000 == 0 ? "\(ms / 1000) s" : "\(Double(ms) / 1000) s"
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
    close(repliesFD)
    if !reaped { kill(pid, SIGTERM) }
    _ = wait()
    TemporaryDirectory.remove(directory)
  }

  deinit { stop() }

  // MARK: - Row writes

  package func write<T>(fileName: String, _ body: (_ scratchPath: String) -> (commit: Bool, followFamily: Bool, value: T))
    -> Result<(value: T, family: [FamilyExtension.MemberOutcome]), LockedRowError> {
    if let broken { return .failure(LockedRowError(broken)) }
    guard !fileName.contains(" "), !fileName.contains("/"), !fileName.contains("\n") else {
      return .failure(LockedRowError("\(fileName): not a name the database mirror can write"))
    }
    guard let scratch = TemporaryDirectory.make("subdash-row") else {
      return .failure(LockedRowError("cannot create a temporary directory: \(String(cString: strerror(errno)))"))
    }
    defer { TemporaryDirectory.remove(scratch) }
    guard send(.write(name: fileName, scratch: scratch)) else { return .failure(brokenError("the database mirror has stopped")) }
    switch reply() {
    case .answered(.locked): break
    case .answered(.error(let why)): return .failure(LockedRowError(why))
    case .answered, .garbled: return .failure(brokenError("the database mirror did not answer as the protocol says while locking \(fileName)"))
    case .silent(let why): return .failure(brokenError(why))
    }
    let (commit, followFamily, value) = body(scratch + "/" + fileName)
    let request: MirrorRequest = commit ? (followFamily ? .commitFollowingFamily : .commit) : .abort
    guard send(request) else { return .failure(brokenError("the database mirror has stopped")) }
    // After `commit family`, each family member's outcome comes first, one line each (one
    // member's locked write is bounded by the store's lock wait).
    var family: [FamilyExtension.MemberOutcome] = []
    // The long bound only until the first line (the child's look through every subscriber).
    var timeoutMs = request == .commitFollowingFamily ? Self.familyReplyTimeoutMs : Self.replyTimeoutMs
    while true {
      let answer = reply(timeoutMs: timeoutMs)
      timeoutMs = Self.replyTimeoutMs
      switch answer {
      case .answered(.member(let member)) where request == .commitFollowingFamily: family.append(member)
      case .answered(.stored), .answered(.unchanged): return .success((value, family))
      case .answered(.error(let why)): return .failure(LockedRowError(why))
      case .answered, .garbled: return .failure(brokenError("the database mirror did not answer as the protocol says while storing \(fileName)"))
      case .silent(let why): return .failure(brokenError(why))
      }
    }
  }

  private enum Reply {
    case answered(MirrorReply)
    /// A line that is not the protocol's.
    case garbled
    case silent(String)
  }

  private func reply(timeoutMs: Int32 = replyTimeoutMs) -> Reply {
    guard let line = readLine(timeoutMs: timeoutMs) else {
      return .silent("the database mirror did not answer within \(Self.seconds(timeoutMs))")
    }
    return MirrorReply(line: line).map(Reply.answered) ?? .garbled
  }

  private func brokenError(_ why: String) -> LockedRowError {
    broken = why + "; keys are off until subdash is restarted"
    return LockedRowError(broken!)
  }

  private func send(_ request: MirrorRequest) -> Bool {
    let bytes = Array((request.line + "\n").utf8)
    var sent = 0
    while sent < bytes.count {
      let n = bytes[sent...].withUnsafeBytes { Glibc.write(stdinFD, $0.baseAddress, $0.count) }
      if n < 0 && errno == EINTR { continue }
      guard n > 0 else { return false }
      sent += n
    }
    return true
  }

  /// One line from the child; nil at its end or after `timeoutMs` without one.
  private func readLine(timeoutMs: Int32) -> String? {
    if case .line(let line) = read(timeoutMs: timeoutMs) { return line }
    return nil
  }

  private enum LineRead {
    case line(String)
    /// The child closed its stdout (it has ended, or is ending, having said why on stderr).
    case ended
    case timedOut
  }

  /// One line from the child, its end, or `timeoutMs` passed without a whole line.
  private func read(timeoutMs: Int32) -> LineRead {
    var line: [UInt8] = []
    var byte: UInt8 = 0
    let deadline = Monotonic.nowMs() + Int64(timeoutMs)
    while true {
      let left = deadline - Monotonic.nowMs()
      guard left > 0 else { return .timedOut }
      var p = pollfd(fd: repliesFD, events: Int16(POLLIN), revents: 0)
      let ready = poll(&p, 1, Int32(left))
      if ready < 0 && errno == EINTR { continue }
      guard ready > 0 else { return .timedOut }
      let n = Glibc.read(repliesFD, &byte, 1)
      if n < 0 && errno == EINTR { continue }
      guard n == 1 else { return line.isEmpty ? .ended : .line(String(decoding: line, as: UTF8.self)) }
      if byte == 0x0A { return .line(String(decoding: line, as: UTF8.self)) }
      line.append(byte)
    }
  }
}
