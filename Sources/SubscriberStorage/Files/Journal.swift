#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#elseif canImport(Darwin)
import Darwin
#endif
import SystemPackage

import DashModel
import CoreValues

/// Reading and appending a journal file (the codec is DashModel's `Journal`). Appending costs the
/// size of the new lines, and reading the newest entries costs the size of those entries,
/// whatever the history's length.
extension Journal {
  /// Appends at `committedBytes`, first cutting off anything a crashed writer left past it.
  /// Returns the new committed length. The caller then saves the document that vouches for it.
  ///
  /// A journal created here gets its state file's read and write bits (`stateFile`), or 0600 when
  /// there is none yet: a team that shares a state file 0640 can read its history too, and the
  /// history is never readable by more people than the document.
  ///
  /// `isNew`: no state file vouches for a journal here yet (a new subscriber's, or a first
  /// history): it is written unnamed and named once whole (`UnnamedFile`), so its inode is not
  /// allocated under the directory's lock. A journal already at the name (a crashed writer's,
  /// never vouched for) is cut and written over as before.
  static func append(_ bytes: [UInt8], to path: String, committedBytes: Int64, stateFile: String? = nil, isNew: Bool = false) throws(StateFileError) -> Int64 {
    let name = PathName.fileName(of: path)
    var permissions: FilePermissions = .ownerReadWrite
    var document = stat()
    if let stateFile, lstat(stateFile, &document) == 0, document.st_mode & S_IFMT == S_IFREG, document.st_uid == geteuid() {
      permissions = FilePermissions(rawValue: (document.st_mode & 0o666) | 0o600)
    }
    if isNew, committedBytes == 0, let fd = UnnamedFile.make(in: PathName.directory(of: path), mode: permissions.rawValue) {
      var failure = Posix.writeAll(FileDescriptor(rawValue: fd), bytes)
      if failure == nil, fsync(fd) != 0 { failure = Errno(rawValue: errno) }
      let linked = failure == nil ? UnnamedFile.link(fd, at: path) : .failed
      close(fd)
      if let failure {
        throw StateFileError(file: name, message: "cannot append to the history journal: \(Posix.errorText(failure)); nothing was saved")
      }
      switch linked {
      case .linked: return Int64(bytes.count)
      case .notDurable(let code):
        // Named, never vouched for: the next writer cuts it, as a crashed writer's.
        throw StateFileError(file: name, message: "cannot append to the history journal: \(Posix.errorText(code)); nothing was saved")
      case .exists, .failed: break
      }
    }
    // A journal already at the name is written into in place: it must be this user's, with no
    // other name (in a directory others can write, a neighbour could have put it there to read
    // what is appended, or linked it to a file of theirs); a missing one is made with O_EXCL.
    let fd: FileDescriptor
    switch Posix.openPlainFile(path, .writeOnly, creating: true, newFilePermissions: permissions, owner: .ours) {
    case .failure(let why): throw StateFileError(file: name, message: "cannot open the history journal: \(why); nothing was saved")
    case .success(let d): fd = d
    }
    defer { try? fd.close() }
    var st = stat()
    fstat(fd.rawValue, &st)
    if Int64(st.st_size) < committedBytes {
      throw StateFileError(file: name, message: "the history journal is shorter (\(st.st_size) bytes) than the state file says (\(committedBytes)); it was truncated by something else; nothing was saved")
    }
    do {
      try fd.resize(to: committedBytes)
      _ = try fd.seek(offset: committedBytes, from: .start)
    } catch {
      throw StateFileError(file: name, message: "cannot prepare the history journal: \(Posix.errorText(error as? Errno ?? .ioError)); nothing was saved")
    }
    var failure = Posix.writeAll(fd, bytes)
    if failure == nil, fsync(fd.rawValue) != 0 { failure = Errno(rawValue: errno) }
    if let failure {
      try? fd.resize(to: committedBytes)
      throw StateFileError(file: name, message: "cannot append to the history journal: \(Posix.errorText(failure)); nothing was saved")
    }
    return committedBytes + Int64(bytes.count)
  }

  /// The newest `limit` entries (oldest first) within the committed length, reading backwards in
  /// chunks so the cost does not grow with the journal.
  public static func tail(path: String, committedBytes: Int64, limit: Int) throws(StateFileError) -> [Entry] {
    guard limit > 0, committedBytes > 0 else { return [] }
    let name = PathName.fileName(of: path)
    let fd: FileDescriptor
    switch Posix.openPlainFile(path, .readOnly) {
    case .failure(let why): throw StateFileError(file: name, message: "cannot open the history journal: \(why)")
    case .success(let d): fd = d
    }
    defer { try? fd.close() }
    var end = committedBytes
    var buffer: [UInt8] = []
    var lines: [[UInt8]] = []
    let chunk: Int64 = 16384
    while end > 0 && lines.count <= limit {
      let start = max(0, end - chunk)
      var piece = [UInt8](repeating: 0, count: Int(end - start))
      let n = (try? piece.withUnsafeMutableBytes { try fd.read(fromAbsoluteOffset: start, into: $0) }) ?? -1
      if n != piece.count { throw StateFileError(file: name, message: "the history journal is shorter than the state file says") }
      buffer = piece + buffer
      end = start
      // Split off complete lines from the end of the buffer.
      var parts = buffer.split(separator: 0x0A, omittingEmptySubsequences: false).map(Array.init)
      buffer = end > 0 ? parts.removeFirst() : []
      lines = parts.filter { !$0.isEmpty } + lines
      if end == 0 && !buffer.isEmpty { lines.insert(buffer, at: 0); buffer = [] }
    }
    return try lines.suffix(limit).map { (line) throws(StateFileError) in try decode(line, file: name) }
  }

  /// Every committed entry, oldest first (for exports and `show --history`).
  ///
  /// `owner`: by default a journal in a directory others can write must be this user's own
  /// (`Posix.FileOwner.oursWhereOthersWrite`): the receiver decides from it what it already holds and
  /// the local App Store Server API answers from it. A viewer (`show`, the dashboard's story) reads
  /// whoever's file it was asked to show.
  public static func readAll(path: String, committedBytes: Int64) throws(StateFileError) -> [Entry] {
    try readAll(path: path, committedBytes: committedBytes, owner: .oursWhereOthersWrite)
  }

  static func readAll(path: String, committedBytes: Int64, owner: Posix.FileOwner) throws(StateFileError) -> [Entry] {
    guard committedBytes > 0 else { return [] }
    return try decodeAll(committed(path: path, committedBytes: committedBytes, owner: owner), file: PathName.fileName(of: path))
  }

  /// The journal's committed bytes, read whole (what a crashed writer left past them is not history).
  static func committed(path: String, committedBytes: Int64, owner: Posix.FileOwner = .oursWhereOthersWrite) throws(StateFileError) -> ArraySlice<UInt8> {
    let name = PathName.fileName(of: path)
    switch Posix.readAll(path: path, limit: Int.max, followSymlinks: false, owner: owner) {
    case .failure(let why): throw StateFileError(file: name, message: "cannot read the history journal: \(why)")
    case .success(let bytes): return try committed(bytes, committedBytes: committedBytes, file: name)
    }
  }

  /// The committed part of a journal's bytes, wherever they were read from (a file, a database row).
  static func committed(_ bytes: [UInt8], committedBytes: Int64, file: String) throws(StateFileError) -> ArraySlice<UInt8> {
    guard committedBytes >= 0, Int64(bytes.count) >= committedBytes else {
      throw StateFileError(file: file, message: "the history journal is shorter than the state file says")
    }
    return bytes[0..<Int(committedBytes)]
  }

  /// The committed entries after byte `offset` (a length an earlier read ended at), oldest first:
  /// what a follower (`subdash deliver`) has not seen yet, read without rereading the rest.
  ///
  /// `owner`: as `readAll`'s (a deliverer sends these on, so by default they come from this
  /// user's own file wherever others could plant one).
  public static func entries(path: String, after offset: Int64, committedBytes: Int64) throws(StateFileError) -> [Entry] {
    try entries(path: path, after: offset, committedBytes: committedBytes, owner: .oursWhereOthersWrite)
  }

  static func entries(path: String, after offset: Int64, committedBytes: Int64, owner: Posix.FileOwner) throws(StateFileError) -> [Entry] {
    let name = PathName.fileName(of: path)
    guard committedBytes > offset else { return [] }
    guard offset >= 0 else { throw StateFileError(file: name, message: "a journal offset cannot be negative") }
    let fd: FileDescriptor
    switch Posix.openPlainFile(path, .readOnly, owner: owner) {
    case .failure(let why): throw StateFileError(file: name, message: "cannot open the history journal: \(why)")
    case .success(let d): fd = d
    }
    defer { try? fd.close() }
    var bytes = [UInt8](repeating: 0, count: Int(committedBytes - offset))
    let n = (try? bytes.withUnsafeMutableBytes { try fd.read(fromAbsoluteOffset: offset, into: $0) }) ?? -1
    if n != bytes.count { throw StateFileError(file: name, message: "the history journal is shorter than the state file says") }
    // An offset inside a line means the journal is not the one the offset was taken from.
    if offset > 0 {
      var previous: UInt8 = 0
      _ = withUnsafeMutableBytes(of: &previous) { try? fd.read(fromAbsoluteOffset: offset - 1, into: $0) }
      if previous != 0x0A { throw StateFileError(file: name, message: "byte \(offset) is not the start of an entry (was the journal replaced?)") }
    }
    return try bytes.split(separator: 0x0A).map { (line) throws(StateFileError) in try decode(Array(line), file: name) }
  }
}
