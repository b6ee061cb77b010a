#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#elseif canImport(Darwin)
import Darwin
#endif

/// Thin POSIX helpers used by storage. Foundation's `Data.write(.atomic)` resets the file mode and
/// does not fsync the directory, so writes are done by hand.
struct PosixFailure: Error, CustomStringConvertible {
  let description: String
  init(_ d: String) { description = d }
}

enum Posix {
  static func errorText(_ code: Int32 = errno) -> String { String(cString: strerror(code)) }

  /// Reads a whole regular file of at most `limit` bytes.
  ///
  /// Opened non-blocking and checked with fstat before reading: a FIFO named like a state file
  /// would otherwise block forever waiting for a writer, and a device (`/dev/zero`) would be read
  /// until the limit.
  static func readAll(path: String, limit: Int, followSymlinks: Bool = true) -> Result<[UInt8], PosixFailure> {
    let fd: Int32
    switch openPlainFile(path, O_RDONLY, followSymlinks: followSymlinks) {
    case .failure(let f): return .failure(f)
    case .success(let d): fd = d
    }
    defer { close(fd) }
    var st = stat()
    if fstat(fd, &st) != 0 { return .failure(PosixFailure(errorText())) }
    if Int(st.st_size) > limit { return .failure(PosixFailure("file is \(st.st_size) bytes; the limit is \(limit) bytes")) }
    // Room for the whole file plus a spare page, so the read that finds the end never has to grow
    // (and copy) a buffer of a hundred megabytes; uninitialized, since read() fills it.
    var capacity = max(0, Int(st.st_size)) + 4096
    var out: [UInt8] = []
    var failure: PosixFailure?
    while failure == nil {
      var got = 0
      out = [UInt8](unsafeUninitializedCapacity: capacity) { buffer, count in
        while got < buffer.count {
          let n = read(fd, buffer.baseAddress! + got, buffer.count - got)
          if n < 0 { if errno == EINTR { continue }; failure = PosixFailure(errorText()); break }
          if n == 0 { break }
          got += n
        }
        count = got
      }
      if failure != nil { break }
      if got > limit { return .failure(PosixFailure("file grew past the limit of \(limit) bytes while reading")) }
      if got < capacity { return .success(out) }
      // The file grew while being read: start again with a bigger buffer.
      if lseek(fd, 0, SEEK_SET) < 0 { return .failure(PosixFailure(errorText())) }
      capacity = min(capacity * 2, limit + 1)
    }
    return .failure(failure!)
  }

  /// Opens a file that must be a regular file and, unless `followSymlinks`, not a symbolic link
  /// (the journal: SubDash truncates and appends to it, so a planted symlink must not redirect
  /// that to another file). Non-blocking, so a FIFO is refused instead of waited on.
  static func openPlainFile(_ path: String, _ flags: Int32, mode: mode_t = 0o644, followSymlinks: Bool = false) -> Result<Int32, PosixFailure> {
    let fd = open(path, flags | O_CLOEXEC | O_NONBLOCK | (followSymlinks ? 0 : O_NOFOLLOW), mode)
    if fd < 0 {
      if errno == ELOOP { return .failure(PosixFailure("is a symbolic link; SubDash reads and writes the journal only as a plain file")) }
      return .failure(PosixFailure(errorText()))
    }
    var st = stat()
    if fstat(fd, &st) != 0 { let e = errorText(); close(fd); return .failure(PosixFailure(e)) }
    if let kind = notARegularFile(st.st_mode) { close(fd); return .failure(PosixFailure(kind)) }
    return .success(fd)
  }

  /// Why a file of this mode cannot be a state file, catalog or journal, or nil for a regular file.
  static func notARegularFile(_ mode: mode_t) -> String? {
    switch mode & S_IFMT {
    case S_IFREG: return nil
    case S_IFDIR: return "is a directory, not a file"
    case S_IFIFO: return "is a named pipe (FIFO), not a regular file"
    case S_IFSOCK: return "is a socket, not a regular file"
    case S_IFCHR, S_IFBLK: return "is a device, not a regular file"
    default: return "is not a regular file"
    }
  }

  static func writeAll(fd: Int32, _ bytes: [UInt8]) -> Bool {
    var done = 0
    while done < bytes.count {
      let n = bytes.withUnsafeBytes { write(fd, $0.baseAddress! + done, bytes.count - done) }
      if n < 0 { if errno == EINTR { continue }; return false }
      done += n
    }
    return true
  }

  static func realPath(_ path: String) -> String? {
    guard let p = realpath(path, nil) else { return nil }
    defer { free(p) }
    return String(cString: p)
  }
}
