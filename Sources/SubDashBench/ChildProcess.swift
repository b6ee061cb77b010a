#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// One run of another program, timed from spawn to exit, with its peak resident memory.
///
/// The peak comes from GNU time (`/usr/bin/time -f %M`) when it is installed, not from our own
/// wait4: Linux carries the parent's high-water mark into a spawned child (posix_spawn shares the
/// parent's memory until exec, and exec keeps the old maximum), so after this process has loaded a
/// 100 MB file every child would "peak" at our size. GNU time forks from a small process.
struct ChildRun {
  var seconds: Double
  var maxRSSKiB: Int
  var exitStatus: Int32
}

enum ChildProcess {
  static let gnuTime = access("/usr/bin/time", X_OK) == 0

  /// Runs `argv` with stdout and stderr sent to /dev/null, measuring its peak memory.
  static func measure(_ argv: [String]) -> ChildRun {
    guard gnuTime else { var r = run(argv); r.maxRSSKiB = 0; return r }
    let report = "/tmp/subdash-bench-rss-\(getpid())"
    defer { unlink(report) }
    var r = run(["/usr/bin/time", "-f", "%M", "-o", report] + argv)
    r.maxRSSKiB = 0
    if let f = fopen(report, "r") {
      var kib = 0
      if fscanf_int(f, &kib) { r.maxRSSKiB = kib }
      fclose(f)
    }
    return r
  }

  /// Reads the last integer in a small report file.
  private static func fscanf_int(_ f: UnsafeMutablePointer<FILE>, _ out: inout Int) -> Bool {
    var line = [CChar](repeating: 0, count: 256)
    var found = false
    while fgets(&line, Int32(line.count), f) != nil {
      let text = String(decoding: line.prefix(while: { $0 != 0 && $0 != 10 }).map { UInt8(bitPattern: $0) }, as: UTF8.self)
      if let v = Int(text) { out = v; found = true }
    }
    return found
  }

  /// Runs `argv` with stdout and stderr sent to /dev/null.
  static func run(_ argv: [String]) -> ChildRun {
    var actions = posix_spawn_file_actions_t()
    posix_spawn_file_actions_init(&actions)
    defer { posix_spawn_file_actions_destroy(&actions) }
    posix_spawn_file_actions_addopen(&actions, 1, "/dev/null", O_WRONLY, 0)
    posix_spawn_file_actions_addopen(&actions, 2, "/dev/null", O_WRONLY, 0)
    var cArgs: [UnsafeMutablePointer<CChar>?] = argv.map { strdup($0) } + [nil]
    defer { for p in cArgs { free(p) } }
    let clock = ContinuousClock()
    let started = clock.now
    var pid: pid_t = 0
    let rc = posix_spawnp(&pid, argv[0], &actions, nil, &cArgs, environ)
    guard rc == 0 else { return ChildRun(seconds: 0, maxRSSKiB: 0, exitStatus: -1) }
    var status: Int32 = 0
    var usage = rusage()
    while wait4(pid, &status, 0, &usage) < 0 && errno == EINTR {}
    let elapsed = clock.now - started
    let exited = (status & 0x7F) == 0 ? (status >> 8) & 0xFF : 128 + (status & 0x7F)
    return ChildRun(seconds: elapsed.seconds, maxRSSKiB: Int(usage.ru_maxrss), exitStatus: exited)
  }

  /// Whether `program` is on PATH.
  static func available(_ program: String) -> Bool {
    run(["sh", "-c", "command -v \(program)"]).exitStatus == 0
  }

  /// The real interpreter behind `python3`: version-manager shims (pyenv) are shell scripts that
  /// would add their own start-up time to Python's.
  static func pythonExecutable() -> String? {
    let out = "/tmp/subdash-bench-python-\(getpid())"
    defer { unlink(out) }
    guard run(["sh", "-c", "python3 -c 'import sys; print(sys.executable)' > \(out)"]).exitStatus == 0,
          let f = fopen(out, "r") else { return nil }
    defer { fclose(f) }
    var line = [CChar](repeating: 0, count: 4096)
    guard fgets(&line, Int32(line.count), f) != nil else { return nil }
    let path = String(decoding: line.prefix(while: { $0 != 0 && $0 != 10 }).map { UInt8(bitPattern: $0) }, as: UTF8.self)
    return path.isEmpty ? nil : path
  }

  /// This executable's own path, for timing SubDash as a process the same way as python3 and jq.
  static func selfPath() -> String {
    var buf = [CChar](repeating: 0, count: 4096)
    let n = readlink("/proc/self/exe", &buf, buf.count - 1)
    return n > 0 ? String(decoding: buf[0..<n].map { UInt8(bitPattern: $0) }, as: UTF8.self) : CommandLine.arguments[0]
  }
}

extension Duration {
  var seconds: Double {
    let (s, atto) = components
    return Double(s) + Double(atto) / 1e18
  }
}
