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

/// Where every line of a journal is, by kind, so any page of the history is read by seeking to it:
/// the cost of a page is the size of that page, whatever the journal's length. Built by one
/// forward scan of the bytes (no decoding: a line's kind is in its first bytes) and extended
/// from where it stopped as the journal grows; the journal is append-only up to the
/// `committedBytes` its state document vouches for, so lines once indexed never move.
public struct JournalIndex: Sendable {
  /// Byte ranges of the notification and transaction lines, oldest first (newline excluded).
  public private(set) var notificationLines: [Range<Int64>] = []
  public private(set) var transactionLines: [Range<Int64>] = []
  /// How far the journal has been indexed (always at a line start).
  public private(set) var indexedBytes: Int64 = 0
  /// The file indexed (device, inode): another file renamed over it is indexed again.
  private var identity: FileIdentity?

  public init() {}

  private struct FileIdentity: Equatable, Sendable {
    var device: UInt64
    var inode: UInt64
  }

  /// Brings the index up to `committedBytes`: reads only the bytes added since the last call,
  /// or starts again when the journal is another file, shorter, or no longer ends a line where
  /// the index stopped (replaced, not appended to).
  public mutating func extend(path: String, committedBytes: Int64) throws(StateFileError) {
    let name = PathName.fileName(of: path)
    guard committedBytes > 0 else { self = JournalIndex(); return }
    let fd = try Self.open(path)
    defer { try? fd.close() }
    var st = stat()
    guard fstat(fd.rawValue, &st) == 0 else { throw StateFileError(file: name, message: "cannot read the history journal: \(Posix.errorText())") }
    guard Int64(st.st_size) >= committedBytes else {
      throw StateFileError(file: name, message: "the history journal is shorter (\(st.st_size) bytes) than the state file says (\(committedBytes))")
    }
    let id = FileIdentity(device: UInt64(st.st_dev), inode: UInt64(st.st_ino))
    let appendedTo = Self.endsLine(fd, at: indexedBytes)
    if id != identity || committedBytes < indexedBytes || !appendedTo {
      self = JournalIndex()
      identity = id
    }
    try scan(fd, from: indexedBytes, to: committedBytes, file: name)
    indexedBytes = committedBytes
  }

  /// Notifications `range` (oldest first, positions in `notificationLines`), decoded.
  public func notifications(_ range: Range<Int>, path: String) throws(StateFileError) -> [NotificationRecord] {
    try read(notificationLines, range, path: path).map { (entry) throws(StateFileError) in
      guard case .notification(let n) = entry else { throw StateFileError(file: PathName.fileName(of: path), message: "the history journal changed while it was read") }
      return n
    }
  }

  /// Transactions `range` (oldest first, positions in `transactionLines`), decoded.
  public func transactions(_ range: Range<Int>, path: String) throws(StateFileError) -> [TransactionPayload] {
    try read(transactionLines, range, path: path).map { (entry) throws(StateFileError) in
      guard case .transaction(let t) = entry else { throw StateFileError(file: PathName.fileName(of: path), message: "the history journal changed while it was read") }
      return t
    }
  }

  /// The first notification at `positions` (walked in the order given) whose record `matches`.
  /// Lines are read in batches; a line whose lowercased bytes do not contain `prefilter` (when
  /// given) is skipped without decoding, so a search decodes only its candidates.
  public func firstNotification(
    at positions: StrideTo<Int>, path: String, prefilter: [UInt8]?,
    matches: (NotificationRecord) -> Bool
  ) throws(StateFileError) -> Int? {
    let name = PathName.fileName(of: path)
    let fd = try Self.open(path)
    defer { try? fd.close() }
    var batch: [Int] = []
    func flush() throws(StateFileError) -> Int? {
      defer { batch.removeAll(keepingCapacity: true) }
      guard let lo = batch.min(), let hi = batch.max() else { return nil }
      let span = notificationLines[lo].lowerBound..<notificationLines[hi].upperBound
      let bytes = try Self.read(fd, span, file: name)
      for k in batch {
        let r = notificationLines[k]
        let line = Array(bytes[Int(r.lowerBound - span.lowerBound)..<Int(r.upperBound - span.lowerBound)])
        if let needle = prefilter, !Self.containsFolded(line, needle) { continue }
        if case .notification(let n) = try Journal.decode(line, file: name), matches(n) { return k }
      }
      return nil
    }
    for k in positions where notificationLines.indices.contains(k) {
      batch.append(k)
      if batch.count == 512, let found = try flush() { return found }
    }
    return try flush()
  }

  // MARK: - Reading

  private func read(_ lines: [Range<Int64>], _ range: Range<Int>, path: String) throws(StateFileError) -> [Journal.Entry] {
    let name = PathName.fileName(of: path)
    let range = range.clamped(to: lines.indices)
    guard let first = range.first, let last = range.last else { return [] }
    let fd = try Self.open(path)
    defer { try? fd.close() }
    let span = lines[first].lowerBound..<lines[last].upperBound
    let bytes = try Self.read(fd, span, file: name)
    return try range.map { (k) throws(StateFileError) in
      let r = lines[k]
      return try Journal.decode(Array(bytes[Int(r.lowerBound - span.lowerBound)..<Int(r.upperBound - span.lowerBound)]), file: name)
    }
  }

  private static func open(_ path: String) throws(StateFileError) -> FileDescriptor {
    switch Posix.openPlainFile(path, .readOnly) {
    case .failure(let why): throw StateFileError(file: PathName.fileName(of: path), message: "cannot open the history journal: \(why)")
    case .success(let fd): return fd
    }
  }

  private static func read(_ fd: FileDescriptor, _ span: Range<Int64>, file: String) throws(StateFileError) -> [UInt8] {
    var bytes = [UInt8](repeating: 0, count: Int(span.upperBound - span.lowerBound))
    let n = (try? bytes.withUnsafeMutableBytes { try fd.read(fromAbsoluteOffset: span.lowerBound, into: $0) }) ?? -1
    guard n == bytes.count else { throw StateFileError(file: file, message: "the history journal is shorter than the state file says") }
    return bytes
  }

  /// True when `offset` is the start of a line: 0, or just after a newline.
  private static func endsLine(_ fd: FileDescriptor, at offset: Int64) -> Bool {
    guard offset > 0 else { return true }
    var byte: UInt8 = 0
    let n = (try? withUnsafeMutableBytes(of: &byte) { try fd.read(fromAbsoluteOffset: offset - 1, into: $0) }) ?? -1
    return n == 1 && byte == 0x0A
  }

  // MARK: - Scanning

  private static let notificationKey = Array(#"{"notification""#.utf8)
  private static let transactionKey = Array(#"{"transaction""#.utf8)

  /// Splits `start..<end` into lines and files each under its kind. SubDash writes
  /// `{"notification":…}` / `{"transaction":…}`; a line written any other way is decoded to learn
  /// its kind (and a damaged one is reported with its line's place).
  private mutating func scan(_ fd: FileDescriptor, from start: Int64, to end: Int64, file: String) throws(StateFileError) {
    let chunk: Int64 = 1 << 20
    var lineStart = start
    var head: [UInt8] = []  // the current line's first bytes, enough to tell its kind
    var offset = start
    while offset < end {
      let piece = try Self.read(fd, offset..<min(end, offset + chunk), file: file)
      var i = 0
      while i < piece.count {
        let rest = piece.count - i
        let newline: Int? = piece.withUnsafeBufferPointer { buf in
          guard let base = buf.baseAddress, let hit = memchr(base + i, 0x0A, rest) else { return nil }
          return base.distance(to: hit.assumingMemoryBound(to: UInt8.self))
        }
        let stop = newline ?? piece.count
        if head.count < 16 { head += piece[i..<min(stop, i + 16 - head.count)] }
        guard let nl = newline else { break }
        try classify(lineStart..<(offset + Int64(nl)), head: head, fd: fd, name: file)
        lineStart = offset + Int64(nl) + 1
        head.removeAll(keepingCapacity: true)
        i = nl + 1
      }
      offset += Int64(piece.count)
    }
    // A last line without its newline still counts: `committedBytes` vouches for it.
    if lineStart < end { try classify(lineStart..<end, head: head, fd: fd, name: file) }
  }

  private mutating func classify(_ line: Range<Int64>, head: [UInt8], fd: FileDescriptor, name: String) throws(StateFileError) {
    guard !line.isEmpty else { return }
    if head.starts(with: Self.notificationKey) { notificationLines.append(line); return }
    if head.starts(with: Self.transactionKey) { transactionLines.append(line); return }
    switch try Journal.decode(Self.read(fd, line, file: name), file: name) {
    case .notification: notificationLines.append(line)
    case .transaction: transactionLines.append(line)
    }
  }

  /// ASCII case-insensitive substring test; `needle` is already lowercased.
  static func containsFolded(_ hay: [UInt8], _ needle: [UInt8]) -> Bool {
    guard !needle.isEmpty else { return true }
    guard hay.count >= needle.count else { return false }
    @inline(__always) func fold(_ b: UInt8) -> UInt8 { b >= 0x41 && b <= 0x5A ? b | 0x20 : b }
    let first = needle[0]
    var i = 0
    let last = hay.count - needle.count
    while i <= last {
      if fold(hay[i]) == first {
        var k = 1
        while k < needle.count && fold(hay[i + k]) == needle[k] { k += 1 }
        if k == needle.count { return true }
      }
      i += 1
    }
    return false
  }
}
