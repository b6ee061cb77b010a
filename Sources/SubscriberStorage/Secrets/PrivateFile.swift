#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// Reads a file that holds a secret (a .p8 private key, a credentials profile, a database URL
/// with its password, a .pgpass): refused when group or others may read it, when it is reached
/// through a symbolic link (whoever can write the link's directory could point it at another
/// file), when it is not a regular file or when it is owned by another user. The checks are made
/// on the descriptor that is then read, so the file cannot be swapped in between.
public enum PrivateFile {
  public struct Refusal: Error, Sendable, CustomStringConvertible {
    public let description: String
  }

  /// Far more than any key or URL; a larger file is not what the caller thinks it is.
  public static let sizeLimit = 1 << 20

  /// The file's bytes. `what` names it in the error ("key file", "--db-file"). `followingLinks`
  /// is for ~/.pgpass only, which libpq reads through a link (dotfile managers make them).
  public static func read(_ path: String, what: String, followingLinks: Bool = false) throws(Refusal) -> [UInt8] {
    let fd = open(path, O_RDONLY | (followingLinks ? 0 : O_NOFOLLOW) | O_CLOEXEC | O_NOCTTY | O_NONBLOCK)
    guard fd >= 0 else {
      let code = errno
      if code == ELOOP { throw Refusal(description: "\(path): \(what) is reached through a symbolic link; give the file itself") }
      throw Refusal(description: "\(path): cannot read \(what) (\(String(cString: strerror(code))))")
    }
    defer { close(fd) }
    var info = stat()
    guard fstat(fd, &info) == 0 else { throw Refusal(description: "\(path): cannot read \(what) (\(String(cString: strerror(errno))))") }
    guard info.st_mode & S_IFMT == S_IFREG else { throw Refusal(description: "\(path): \(what) is not a regular file") }
    if info.st_mode & 0o077 != 0 {
      throw Refusal(description: "\(path): \(what) is readable by group or others (mode \(String(info.st_mode & 0o777, radix: 8))); run chmod 600 \(path)")
    }
    if info.st_uid != geteuid() {
      throw Refusal(description: "\(path): \(what) belongs to another user (uid \(info.st_uid)); a secret must be your own file")
    }
    guard info.st_size <= sizeLimit else { throw Refusal(description: "\(path): \(what) is larger than \(sizeLimit / 1024) KiB") }
    var bytes: [UInt8] = []
    var buffer = [UInt8](repeating: 0, count: 16 * 1024)
    while true {
      let n = buffer.withUnsafeMutableBytes { Glibc.read(fd, $0.baseAddress, $0.count) }
      if n < 0 && errno == EINTR { continue }
      guard n >= 0 else { throw Refusal(description: "\(path): cannot read \(what) (\(String(cString: strerror(errno))))") }
      if n == 0 { return bytes }
      bytes += buffer[0..<n]
      guard bytes.count <= sizeLimit else { throw Refusal(description: "\(path): \(what) is larger than \(sizeLimit / 1024) KiB") }
    }
  }

  /// `read` for an optional file (~/.pgpass): nil when it does not exist.
  public static func readIfPresent(_ path: String, what: String, followingLinks: Bool = false) throws(Refusal) -> [UInt8]? {
    var info = stat()
    // Not following links unless asked: a dangling link at the name is there (and refused by
    // `read`), not "no file".
    if (followingLinks ? stat(path, &info) : lstat(path, &info)) != 0 && errno == ENOENT { return nil }
    return try read(path, what: what, followingLinks: followingLinks)
  }
}
