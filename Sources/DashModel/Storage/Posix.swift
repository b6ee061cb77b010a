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

  static func readAll(path: String, limit: Int) -> Result<[UInt8], PosixFailure> {
    let fd = open(path, O_RDONLY | O_CLOEXEC)
    if fd < 0 { return .failure(PosixFailure(errorText())) }
    defer { close(fd) }
    var st = stat()
    if fstat(fd, &st) != 0 { return .failure(PosixFailure(errorText())) }
    if (st.st_mode & S_IFMT) == S_IFDIR { return .failure(PosixFailure("is a directory, not a file")) }
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

  static func writeAll(fd: Int32, _ bytes: [UInt8]) -> Bool {
    var done = 0
    while done < bytes.count {
      let n = bytes.withUnsafeBytes { write(fd, $0.baseAddress! + done, bytes.count - done) }
      if n < 0 { if errno == EINTR { continue }; return false }
      done += n
    }
    return true
  }

  static func directory(of path: String) -> String {
    guard let slash = path.lastIndex(of: "/") else { return "." }
    let d = String(path[..<slash])
    return d.isEmpty ? "/" : d
  }

  static func fileName(of path: String) -> String {
    guard let slash = path.lastIndex(of: "/") else { return path }
    return String(path[path.index(after: slash)...])
  }

  static func realPath(_ path: String) -> String? {
    guard let p = realpath(path, nil) else { return nil }
    defer { free(p) }
    return String(cString: p)
  }
}
