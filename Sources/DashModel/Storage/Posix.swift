#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#elseif canImport(Darwin)
import Darwin
#endif
import SystemPackage

/// Thin POSIX helpers used by storage, on swift-system's `FileDescriptor`, `FilePath` and `Errno`
/// (retrying EINTR, closing on every path); fstat, fsync and flock, which it does not wrap, stay
/// on the C library through `rawValue`. Foundation's `Data.write(.atomic)` resets the file mode and
/// does not fsync the directory, so writes are done by hand.
struct PosixFailure: Error, CustomStringConvertible {
  let description: String
  init(_ d: String) { description = d }
}

enum Posix {
  static let journalSymlinkRefusal = "is a symbolic link; SubDash reads and writes the journal only as a plain file"

  static func errorText(_ code: Int32 = errno) -> String { String(cString: strerror(code)) }
  static func errorText(_ error: Errno) -> String { errorText(error.rawValue) }

  /// Reads a whole regular file of at most `limit` bytes.
  ///
  /// Opened non-blocking and checked with fstat before reading: a FIFO named like a state file
  /// would otherwise block forever waiting for a writer, and a device (`/dev/zero`) would be read
  /// until the limit.
  static func readAll(path: String, limit: Int, followSymlinks: Bool = true, symlinkRefusal: String = Posix.journalSymlinkRefusal) -> Result<[UInt8], PosixFailure> {
    let fd: FileDescriptor
    switch openPlainFile(path, .readOnly, followSymlinks: followSymlinks, symlinkRefusal: symlinkRefusal) {
    case .failure(let f): return .failure(f)
    case .success(let d): fd = d
    }
    defer { try? fd.close() }
    var st = stat()
    if fstat(fd.rawValue, &st) != 0 { return .failure(PosixFailure(errorText())) }
    if Int(st.st_size) > limit { return .failure(PosixFailure("file is \(st.st_size) bytes; the limit is \(limit) bytes")) }
    return readAll(fd, size: Int(st.st_size), limit: limit)
  }

  /// The rest of `readAll(path:)`: reads a regular file of `size` bytes (from fstat, at most
  /// `limit`) whole, from the descriptor's offset, which must be the start (a file just opened).
  static func readAll(_ fd: FileDescriptor, size: Int, limit: Int) -> Result<[UInt8], PosixFailure> {
    // Room for the whole file plus a spare page, so the read that finds the end never has to grow
    // (and copy) a buffer of a hundred megabytes; uninitialized, since read() fills it.
    var capacity = max(0, size) + 4096
    while true {
      var got = 0
      var failure: Errno?
      let out = [UInt8](unsafeUninitializedCapacity: capacity) { buffer, count in
        adviseHugePages(UnsafeMutableRawBufferPointer(buffer))
        while got < buffer.count {
          do {
            let n = try fd.read(into: UnsafeMutableRawBufferPointer(rebasing: UnsafeMutableRawBufferPointer(buffer)[got...]))
            if n == 0 { break }
            got += n
          } catch {
            failure = error as? Errno ?? .ioError
            break
          }
        }
        count = got
      }
      if let failure { return .failure(PosixFailure(errorText(failure))) }
      if got > limit { return .failure(PosixFailure("file grew past the limit of \(limit) bytes while reading")) }
      if got < capacity { return .success(out) }
      // The file grew while being read: start again with a bigger buffer.
      do { _ = try fd.seek(offset: 0, from: .start) } catch { return .failure(PosixFailure(errorText(error as? Errno ?? .ioError))) }
      capacity = min(capacity * 2, limit + 1)
    }
  }

  /// Asks for 2 MiB pages for a buffer of many megabytes about to be filled (Linux, where
  /// transparent huge pages are on "madvise"): reading a 100 MB state file otherwise takes a page
  /// fault per 4 KiB, a third of the read's time. Only the whole huge pages inside the buffer are
  /// advised; the advice changes no byte, and a kernel that declines it changes nothing.
  static func adviseHugePages(_ buffer: UnsafeMutableRawBufferPointer) {
    #if os(Linux)
    let huge = 2 << 20
    guard buffer.count >= 4 * huge, let base = buffer.baseAddress else { return }
    let start = (Int(bitPattern: base) + huge - 1) & ~(huge - 1)
    let end = (Int(bitPattern: base) + buffer.count) & ~(huge - 1)
    guard end > start, let aligned = UnsafeMutableRawPointer(bitPattern: start) else { return }
    _ = madvise(aligned, end - start, MADV_HUGEPAGE)
    #endif
  }

  /// Opens a file that must be a regular file and, unless `followSymlinks`, not a symbolic link
  /// (the journal: SubDash truncates and appends to it, so a planted symlink must not redirect
  /// that to another file). Non-blocking, so a FIFO is refused instead of waited on.
  static func openPlainFile(_ path: String, _ mode: FileDescriptor.AccessMode, creating: Bool = false, followSymlinks: Bool = false,
                            symlinkRefusal: String = Posix.journalSymlinkRefusal,
                            newFilePermissions: FilePermissions = .ownerReadWrite) -> Result<FileDescriptor, PosixFailure> {
    var options: FileDescriptor.OpenOptions = [.closeOnExec, .nonBlocking]
    if creating { options.insert(.create) }
    if !followSymlinks { options.insert(.noFollow) }
    let fd: FileDescriptor
    do {
      fd = try FileDescriptor.open(FilePath(path), mode, options: options, permissions: creating ? newFilePermissions : nil)
    } catch let error as Errno {
      if error == .tooManySymbolicLinkLevels { return .failure(PosixFailure(symlinkRefusal)) }
      return .failure(PosixFailure(errorText(error)))
    } catch {
      return .failure(PosixFailure("\(error)"))
    }
    var st = stat()
    if fstat(fd.rawValue, &st) != 0 { let e = errorText(); try? fd.close(); return .failure(PosixFailure(e)) }
    if let kind = notARegularFile(st.st_mode) { try? fd.close(); return .failure(PosixFailure(kind)) }
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

  /// Writes every byte (swift-system retries short writes and EINTR); the error when it could not.
  static func writeAll(_ fd: FileDescriptor, _ bytes: [UInt8]) -> Errno? {
    do { _ = try fd.writeAll(bytes); return nil } catch { return error as? Errno ?? .ioError }
  }

  static func realPath(_ path: String) -> String? {
    guard let p = realpath(path, nil) else { return nil }
    defer { free(p) }
    return String(cString: p)
  }
}
