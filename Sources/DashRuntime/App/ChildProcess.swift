#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// Starts a sibling binary (`subdash-fetch`, `subdash-db`) as a child with the given descriptors on
/// its 0/1/2. The dashboard blocks SIGINT/SIGTERM/… for its signalfd; a child must not inherit
/// that mask, so it is reset here for every child.
package enum ChildProcess {
  package struct Failure: Error {
    package let code: Int32
    package var text: String { String(cString: strerror(code)) }
  }

  /// `redirects`: child descriptor → parent descriptor to dup2 onto it (`/dev/null` when nil).
  /// `environment`: variables set (or replaced) in the child's copy of ours; a secret such as a
  /// database URL goes here, never in `argv`, which every local user can read in `ps`.
  package static func spawn(_ argv: [String], redirects: [Int32: Int32?], environment: [String: String] = [:]) -> Result<pid_t, Failure> {
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
    let rc = posix_spawn(&pid, argv[0], &actions, &attributes, &cArgs, &cEnvironment)
    return rc == 0 ? .success(pid) : .failure(Failure(code: rc))
  }

  /// Waits for `pid` to end: its exit status, or 128 + the signal that ended it (as a shell says).
  package static func wait(_ pid: pid_t) -> Int32 {
    var status: Int32 = 0
    while waitpid(pid, &status, 0) < 0 && errno == EINTR {}
    return (status & 0x7F) == 0 ? (status >> 8) & 0xFF : 128 + (status & 0x7F)
  }
}
