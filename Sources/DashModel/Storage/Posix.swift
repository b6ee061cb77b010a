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
    var out = [UInt8](repeating: 0, count: max(0, Int(st.st_size)))
    var got = 0
    while true {
      if got == out.count { out.append(contentsOf: repeatElement(0, count: 65536)) }
      let n = out.withUnsafeMutableBytes { read(fd, $0.baseAddress! + got, $0.count - got) }
      if n < 0 { if errno == EINTR { continue }; return .failure(PosixFailure(errorText())) }
      if n == 0 { break }
      got += n
      if got > limit { return .failure(PosixFailure("file grew past the limit of \(limit) bytes while reading")) }
    }
    out.removeSubrange(got...)
    return .success(out)
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
