#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#elseif canImport(Darwin)
import Darwin
#endif
import SystemPackage
import CoreValues
import DashModel

/// Replaces a file atomically: temp file in the same directory, same permissions (0600 for a new
/// file), fsync, rename, fsync of the directory. A reader (or a crash) sees the old bytes or the new ones, never a mix.
/// Two other routes keep that promise with fewer new inodes: a new file is written unnamed and
/// linked into place (`createLinked`, `UnnamedFile`), and `listen`'s store swaps in a kept spare
/// (`SpareFileSwap`).
public enum AtomicWriter {
  /// When a save looks for the temporary files killed writers left beside the file.
  public enum LeftoverSweep: Sendable {
    /// On every save (the default): a killed writer's leftover is gone after the next save,
    /// whichever process makes it.
    case everySave
    /// Never: the caller holds the file's lock (`FileLock`), so the temporary file has one fixed
    /// name, which a killed predecessor's leftover also has; it is replaced without reading the
    /// directory. Every `StateFile` save is of this kind: a `listen` directory of 1,000
    /// subscribers no longer costs a directory read per notification.
    case callerHoldsTheLock
  }

  /// `swappingSpares`: the lock held for this save (`sweep` is then `.callerHoldsTheLock`), given by
  /// a caller that saves the same files again and again (the receiver): an existing file is then
  /// replaced by swapping in one of the directory's reused spares (`SpareFileSwap`, claimed through
  /// that lock) instead of a new file each time.
  ///
  /// `alwaysPrivate`: 0600 even when the file exists with another mode, for a file whose readers
  /// refuse anything else (the Retention Messaging configuration names the server the App Store
  /// calls): keeping a 0644 there would write a file nobody then reads.
  public static func write(_ bytes: [UInt8], to path: String, sweep: LeftoverSweep = .everySave, swappingSpares held: FileLock? = nil,
                           alwaysPrivate: Bool = false) throws(StateFileError) {
    let name = PathName.fileName(of: path)
    func fail(_ what: String, _ code: Int32 = errno) -> StateFileError {
      StateFileError(file: name, message: "could not save: \(what): \(Posix.errorText(code)); the file on disk is unchanged")
    }
    // A file SubDash creates holds customer data: readable by its owner only, whatever the
    // umask. A file that exists keeps the mode its owner gave it (a team may share one 0640).
    var mode: mode_t = 0o600
    var st = stat()
    let exists = lstat(path, &st) == 0
    if exists {
      // Replacing a symbolic link would not write where it points, but its target's mode, and
      // whatever the link's planter meant by it, are no guide: only plain files are replaced.
      if st.st_mode & S_IFMT == S_IFLNK {
        throw StateFileError(file: name, message: "could not save: it is a symbolic link; SubDash replaces only plain files (give the file it points to); the file on disk is unchanged")
      }
      // Another user's file (one planted at the name in a directory others can write, made 0666
      // so the planter can read what replaces it) lends its mode to nothing of ours.
      mode = alwaysPrivate || st.st_uid != geteuid() ? 0o600 : st.st_mode & 0o7777
    }
    let dir = PathName.directory(of: path)
    #if os(Linux)
    if let held, sweep == .callerHoldsTheLock, exists, st.st_mode & S_IFMT == S_IFREG,
       try SpareFileSwap.write(bytes, to: path, name: name, dir: dir, mode: mode, held: held) {
      return
    }
    #endif
    // A new file under the caller's lock: made unnamed and named once whole (`UnnamedFile`), so
    // its inode is not allocated under the directory's lock.
    if !exists, sweep == .callerHoldsTheLock, let fd = UnnamedFile.make(in: dir, mode: 0o600),
       try createLinked(bytes, fd: fd, at: path, name: name, dir: dir) {
      return
    }
    let ownName = "\(dir)/.\(name).subdash-tmp-\(getpid())"
    // Under the lock, the fixed name first; where another user's file holds it (in a directory
    // others can write, one we cannot remove), this process's own name, which the next unlocked
    // save sweeps if we are killed.
    let names = sweep == .callerHoldsTheLock ? ["\(dir)/\(lockedTemporaryName(of: name))", ownName] : [ownName]
    // Before creating ours, not after the rename: a writer killed during its own first save must
    // not leave its file beside its predecessor's, so at most one leftover ever exists.
    if sweep == .everySave { removeStaleTemporaryFiles(of: name, in: dir) }
    // The name is predictable: it is created exclusively, so the write can only go to a new file
    // of our own; whatever already has it (a crashed writer's leftover, or a planted symlink) is
    // removed and the creation tried once more. Not unlinked up front: an unlink takes the
    // directory's lock even when there is nothing to remove, and every save in the directory
    // waits on that lock (perf: 3.6 % of `listen`'s CPU under load).
    func create(_ tmp: String) throws(Errno) -> FileDescriptor {
      do {
        return try FileDescriptor.open(FilePath(tmp), .writeOnly, options: [.create, .exclusiveCreate, .noFollow, .closeOnExec],
                                       permissions: .ownerReadWrite)
      } catch { throw error as? Errno ?? .ioError }
    }
    var created: (fd: FileDescriptor, tmp: String)?
    var foreign: String?
    for tmp in names where created == nil {
      do {
        do { created = try (create(tmp), tmp) } catch .fileExists {
          unlink(tmp)
          created = try (create(tmp), tmp)
        }
      } catch .fileExists {
        // Still there after the unlink: not ours to remove (a sticky directory's other user).
        var held = stat()
        let theirs = lstat(tmp, &held) == 0 && held.st_uid != geteuid()
        foreign = theirs
          ? "\(PathName.fileName(of: tmp)) belongs to another user (uid \(held.st_uid)) and cannot be removed; SubDash writes only its own files"
          : "\(PathName.fileName(of: tmp)) is taken by something that cannot be removed (\(Posix.notARegularFile(held.st_mode) ?? "a file"))"
      } catch {
        throw fail("cannot create a temporary file in \(dir)", error.rawValue)
      }
    }
    guard let made = created else {
      throw StateFileError(file: name, message: "could not save: the temporary file \(foreign ?? "cannot be made"); the file on disk is unchanged")
    }
    let (fd, tmp) = made
    var failure = Posix.writeAll(fd, bytes)
    if failure == nil, fchmod(fd.rawValue, mode) != 0 { failure = Errno(rawValue: errno) }
    if failure == nil, fsync(fd.rawValue) != 0 { failure = Errno(rawValue: errno) }
    do { try fd.close() } catch { if failure == nil { failure = error as? Errno ?? .ioError } }
    if let failure {
      unlink(tmp)
      throw fail("writing the new contents failed", failure.rawValue)
    }
    if rename(tmp, path) != 0 {
      let c = errno
      unlink(tmp)
      throw fail("rename failed", c)
    }
    DirectorySync.shared(for: dir).sync()
  }

  /// Writes a new file's bytes to the unnamed file `fd` (closed here), fsyncs it, names it `path`
  /// and fsyncs the directory. Never replaces a file: one that appeared at `path` since the caller
  /// looked (a writer that does not take the lock) is left as it is and the save fails. (The
  /// by-name path, where `O_TMPFILE` or `linkat` is missing, renames its temporary file into place
  /// as every locked save does.) False when the file could not be named here: the caller makes it
  /// by name.
  static func createLinked(_ bytes: [UInt8], fd: Int32, at path: String, name: String, dir: String) throws(StateFileError) -> Bool {
    var failure = Posix.writeAll(FileDescriptor(rawValue: fd), bytes)
    // Whatever the umask: a new file holds customer data.
    if failure == nil, fchmod(fd, 0o600) != 0 { failure = Errno(rawValue: errno) }
    if failure == nil, fsync(fd) != 0 { failure = Errno(rawValue: errno) }
    let linked = failure == nil ? UnnamedFile.link(fd, at: path) : .failed
    // An unnamed file closed without a name is gone: nothing to clean up on any path.
    close(fd)
    if let failure {
      throw StateFileError(file: name, message: "could not save: writing the new contents failed: \(Posix.errorText(failure.rawValue)); the file on disk is unchanged")
    }
    switch linked {
    case .linked:
      DirectorySync.shared(for: dir).sync()
      return true
    case .exists:
      throw StateFileError(file: name, message: "could not save: a file of this name appeared meanwhile (made without its lock); a new file is never written over one; the file on disk is unchanged")
    case .notDurable(let code):
      throw StateFileError(file: name, message: "saved, but the fsync of the new file failed: \(Posix.errorText(code)); it may not outlast a crash (the file is there; check it before saving again)")
    case .failed:
      return false
    }
  }

  /// The one temporary name of a locked save.
  static func lockedTemporaryName(of name: String) -> String { ".\(name).subdash-tmp" }

  /// A writer killed mid-save leaves its hidden temporary file behind; the next save removes
  /// those whose writer is no longer running (whether or not that save then completes), so
  /// crashes do not accumulate clutter.
  static func removeStaleTemporaryFiles(of name: String, in dir: String) {
    let prefix = ".\(name).subdash-tmp-"
    guard let d = opendir(dir) else { return }
    defer { closedir(d) }
    while let e = readdir(d) {
      let entry = DirectoryEntry.name(e)
      guard entry.hasPrefix(prefix), let pid = pid_t(entry.dropFirst(prefix.count)), pid != getpid() else { continue }
      if kill(pid, 0) != 0 && errno == ESRCH { unlink(dir + "/" + entry) }
    }
  }
}
