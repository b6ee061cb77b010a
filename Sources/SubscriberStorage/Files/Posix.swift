#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#elseif canImport(Darwin)
import Darwin
#endif
import SystemPackage
import CoreValues

/// Thin POSIX helpers used by storage, on swift-system's `FileDescriptor`, `FilePath` and `Errno`
/// (retrying EINTR, closing on every path); fstat, fsync and flock, which it does not wrap, stay
/// on the C library through `rawValue`. Foundation's `Data.write(.atomic)` resets the file mode and
/// does not fsync the directory, so writes are done by hand.
package struct PosixFailure: Error, CustomStringConvertible {
  package let description: String
  init(_ d: String) { description = d }
}

package enum Posix {
  static let journalSymlinkRefusal = "is a symbolic link; SubDash reads and writes the journal only as a plain file"

  static func errorText(_ code: Int32 = errno) -> String { String(cString: strerror(code)) }
  static func errorText(_ error: Errno) -> String { errorText(error.rawValue) }

  /// Reads a whole regular file of at most `limit` bytes.
  ///
  /// Opened non-blocking and checked with fstat before reading: a FIFO named like a state file
  /// would otherwise block forever waiting for a writer, and a device (`/dev/zero`) would be read
  /// until the limit.
  package static func readAll(path: String, limit: Int, followSymlinks: Bool = true, symlinkRefusal: String = Posix.journalSymlinkRefusal,
                      owner: FileOwner = .anyone) -> Result<[UInt8], PosixFailure> {
    let fd: FileDescriptor
    switch openPlainFile(path, .readOnly, followSymlinks: followSymlinks, symlinkRefusal: symlinkRefusal, owner: owner) {
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

  /// Who may own a file SubDash opens (issue 37 §2). In a directory another local user can write
  /// (`/tmp`, a 0777 shared folder), anyone can plant a file at a name SubDash is about to use: a
  /// subscriber's journal, state file, lock or spare. Written into, it hands the customer's data to
  /// the planter (the file is theirs, or a hard link to one they can read); read and merged, its
  /// forged transactions are answered as the customer's. The check is made on the open descriptor
  /// (fstat), so the file checked is the file used.
  package enum FileOwner: Sendable {
    /// Anyone: a file the user named only to look at it (`subdash show /some/other/file.json` by
    /// support staff) or to import from. Nothing is written into it.
    case anyone
    /// This user, and no other name (link count 1), wherever it is: a file SubDash writes into in
    /// place (a journal it appends to, a lock file). A hard link is how a neighbour would point the
    /// write at a file of their choosing without a symbolic link.
    case ours
    /// `ours`, but only when the file's directory is writable by anyone else (another owner, or
    /// group or others write bits), and the directory owner's files pass too: a state file or
    /// journal whose contents a receiver merges into or answers from, or the list shows. In the
    /// user's own private directory nobody else could have put it there.
    case oursWhereOthersWrite
  }

  /// Why the file `st` describes (at `path`) is not one SubDash may use as `owner` asks, or nil.
  static func notOurs(_ st: stat, path: String, owner: FileOwner) -> String? {
    switch owner {
    case .anyone:
      return nil
    case .ours:
      if st.st_uid != geteuid() { return "belongs to another user (uid \(st.st_uid)); SubDash writes only its own files" }
      if st.st_nlink != 1 { return "has \(st.st_nlink) names (hard links); SubDash writes only its own files, never through another name" }
      return nil
    case .oursWhereOthersWrite:
      var dir = stat()
      let directory = PathName.directory(of: path)
      // Not shared: nobody but its owner (and root) could have put the file there.
      // One that cannot be looked at counts as shared, with no owner to trust but us.
      let looked = stat(directory, &dir) == 0
      guard !looked || othersCanWrite(dir) else { return nil }
      let directoryOwner = looked ? dir.st_uid : geteuid()
      // The directory's owner's files are theirs to keep there: support staff (or root) reading a
      // service's directory read the service's files. Anyone else's were planted.
      if st.st_uid != geteuid() && st.st_uid != directoryOwner {
        return "belongs to another user (uid \(st.st_uid)) in a directory others can write; SubDash uses only its own and the directory owner's files there"
      }
      if st.st_nlink != 1 {
        return "has \(st.st_nlink) names (hard links) in a directory others can write; SubDash uses only its own and the directory owner's files there"
      }
      return nil
    }
  }

  /// Whether someone other than this user can create files in the directory `st` describes: it
  /// belongs to another user, or its group or others may write it (sticky or not: the sticky bit
  /// stops removing others' files, not planting new ones).
  static func othersCanWrite(_ st: stat) -> Bool {
    st.st_uid != geteuid() || st.st_mode & 0o022 != 0
  }

  /// Opens a file that must be a regular file and, unless `followSymlinks`, not a symbolic link
  /// (the journal: SubDash truncates and appends to it, so a planted symlink must not redirect
  /// that to another file). Non-blocking, so a FIFO is refused instead of waited on.
  ///
  /// `owner`: who may own an existing file (`FileOwner`); a file opened to be written into is
  /// `.ours`. `creating`: a missing file is made, with `O_EXCL`, so the file written is one this
  /// call made or one that passed the owner check, never one planted between a look and the open.
  static func openPlainFile(_ path: String, _ mode: FileDescriptor.AccessMode, creating: Bool = false, followSymlinks: Bool = false,
                            symlinkRefusal: String = Posix.journalSymlinkRefusal,
                            newFilePermissions: FilePermissions = .ownerReadWrite, owner: FileOwner = .anyone) -> Result<FileDescriptor, PosixFailure> {
    var options: FileDescriptor.OpenOptions = [.closeOnExec, .nonBlocking]
    if !followSymlinks { options.insert(.noFollow) }
    func refusal(_ error: Errno) -> PosixFailure {
      error == .tooManySymbolicLinkLevels ? PosixFailure(symlinkRefusal) : PosixFailure(errorText(error))
    }
    var opened: FileDescriptor?
    // An existing file first; only a missing one is created, exclusively. Twice at most: a file
    // that appears between the two opens (another writer's) is opened and checked as existing.
    for _ in 0..<2 where opened == nil {
      do {
        opened = try FileDescriptor.open(FilePath(path), mode, options: options)
      } catch let error as Errno {
        guard creating, error == .noSuchFileOrDirectory else { return .failure(refusal(error)) }
        do {
          opened = try FileDescriptor.open(FilePath(path), mode, options: options.union([.create, .exclusiveCreate]), permissions: newFilePermissions)
        } catch let error as Errno {
          if error != .fileExists { return .failure(refusal(error)) }
        } catch {
          return .failure(PosixFailure("\(error)"))
        }
      } catch {
        return .failure(PosixFailure("\(error)"))
      }
    }
    guard let fd = opened else { return .failure(PosixFailure(errorText(.fileExists))) }
    var st = stat()
    if fstat(fd.rawValue, &st) != 0 { let e = errorText(); try? fd.close(); return .failure(PosixFailure(e)) }
    if let kind = notARegularFile(st.st_mode) { try? fd.close(); return .failure(PosixFailure(kind)) }
    if let foreign = notOurs(st, path: path, owner: owner) { try? fd.close(); return .failure(PosixFailure(foreign)) }
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

  package static func realPath(_ path: String) -> String? {
    guard let p = realpath(path, nil) else { return nil }
    defer { free(p) }
    return String(cString: p)
  }
}
