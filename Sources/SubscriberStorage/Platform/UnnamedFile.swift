#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#elseif canImport(Darwin)
import Darwin
#endif

/// A new file made without a name in its directory (Linux `O_TMPFILE`), written and fsynced by its
/// maker, and only then given its name with `linkat`.
///
/// Why: making a file by name allocates its inode while holding the directory's lock. On ext4
/// without a journal (this project's CI root file system) that allocation scans past every inode
/// freed in the last minutes (`find_inode_bit` → `recently_deleted`), and every other save in the
/// directory (a rename or an exchange takes the same lock) waits for it: right after a mass removal
/// of files, `listen`'s new subscribers (four new files each) were the tail of its latency. An
/// unnamed file's inode is allocated without the directory's lock; the link takes it only to add
/// the name. Nobody can open the file by its name before it is complete, either.
///
/// `linkat` never replaces a name: a taken name is reported (`.exists`) and each caller does what
/// its exclusive create did. Where the kernel or file system makes no unnamed files, or the file
/// cannot be named (no `/proc` and no right to link by descriptor), callers make their file by
/// name as before.
enum UnnamedFile {
  enum Linked: Equatable {
    case linked
    /// Something has the name already; it is untouched.
    case exists
    /// The file could not be named here (the caller makes its file by name instead).
    case failed
    /// Named, but the fsync that makes its link count durable failed (this `errno`).
    case notDurable(Int32)
  }

  /// Tests run the make-by-name path with this set, as on a file system without `O_TMPFILE`.
  @TaskLocal static var unavailable = false

  /// An unnamed regular file in `directory`, open for reading and writing, with `mode` (less the
  /// umask, as for any new file); nil where none can be made (the caller makes its file by name).
  static func make(in directory: String, mode: mode_t) -> Int32? {
    #if os(Linux)
    guard !unavailable else { return nil }
    // EOPNOTSUPP (this file system), EISDIR or EINVAL (a kernel before 3.11), or anything else:
    // the named path reports a real failure in its own words.
    let fd = open(directory, O_RDWR | O_CLOEXEC | unnamedFlag, mode)
    return fd >= 0 ? fd : nil
    #else
    return nil
    #endif
  }

  /// Gives the unnamed file `fd` the name `path` (on the same file system). The caller still
  /// closes `fd`, and fsyncs the directory when the name must outlast a crash.
  ///
  /// `durably`: the file is fsynced again once named. The caller's fsync before the link wrote
  /// the file with a link count of 0, and a file system without a journal (ext4 as on this
  /// project's CI) writes a directory's fsync without the inodes it names: a crash after that
  /// fsync would find the name on a file the kernel counts as deleted.
  static func link(_ fd: Int32, at path: String, durably: Bool = true) -> Linked {
    let linked = name(fd, at: path)
    if linked == .linked, durably, fsync(fd) != 0 { return .notDurable(errno) }
    return linked
  }

  private static func name(_ fd: Int32, at path: String) -> Linked {
    #if os(Linux)
    // By descriptor: needs CAP_DAC_READ_SEARCH (ENOENT without it)…
    if linkat(fd, "", AT_FDCWD, path, emptyPath) == 0 { return .linked }
    if errno == EEXIST { return .exists }
    // …otherwise through /proc, which names the open file itself (not a path someone could swap).
    if linkat(AT_FDCWD, "/proc/self/fd/\(fd)", AT_FDCWD, path, AT_SYMLINK_FOLLOW) == 0 { return .linked }
    return errno == EEXIST ? .exists : .failed
    #else
    return .failed
    #endif
  }

  #if os(Linux)
  // Linux's ABI numbers (<asm-generic/fcntl.h>, <linux/fcntl.h>); Swift's Glibc module leaves out
  // the _GNU_SOURCE parts of the headers. O_TMPFILE is __O_TMPFILE with O_DIRECTORY.
  private static let unnamedFlag: Int32 = 0o20000000 | O_DIRECTORY
  private static let emptyPath: Int32 = 0x1000  // AT_EMPTY_PATH
  #endif
}
