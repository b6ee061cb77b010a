#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif
import SystemPackage
import CoreValues
import DashModel
import RetentionMessaging

extension OfferNonceLedger {
  /// Far more than a day of promotional offers (an entry is about 120 bytes); a larger file is not
  /// a ledger of ours.
  public static let sizeLimit = 64 << 20
  /// Forgotten entries are written away only when at least this many have piled up (and they are
  /// as many as the live ones), so a spend is an append of one line almost always.
  static let rewriteAfter = 64

  /// The ledger of the directory holding `statePath`, beside its Retention Messaging configuration.
  public static func path(besideStateFile statePath: String) -> String {
    PathName.directory(of: statePath) + "/" + fileName
  }

  /// Spends `nonce` in the ledger at `path`, under its lock (`FileLock`, as every writer of a file
  /// here), on the latest contents. A fresh nonce is appended as one line and fsynced (or, when as
  /// many lines are past the window as within it, the live ones are rewritten atomically); a
  /// reused one changes nothing. A ledger that does not read whole is an error and is not written.
  public static func spend(_ nonce: String, originalTransactionId: String?, at now: Instant, window: Span,
                           path: String) throws(Failure) -> Spend {
    let lock: FileLock
    do { lock = try FileLock(for: path) } catch { throw Failure("\(path): \(error.description)") }
    defer { withExtendedLifetime(lock) {} }
    let fd: FileDescriptor
    switch Posix.openPlainFile(path, .readWrite, creating: true, symlinkRefusal: "it is a symbolic link; SubDash writes only a plain file") {
    case .failure(let why): throw Failure("\(path): cannot open the record of spent offer nonces: \(why)")
    case .success(let d): fd = d
    }
    defer { try? fd.close() }
    var st = stat()
    guard fstat(fd.rawValue, &st) == 0 else { throw Failure("\(path): \(Posix.errorText())") }
    // Whoever can write it could spend a developer's nonces or forget them.
    guard st.st_uid == geteuid() else { throw Failure("\(path): belongs to another user (uid \(st.st_uid)); the record must be your own file") }
    guard st.st_mode & 0o022 == 0 else {
      throw Failure("\(path): writable by group or others (mode \(String(st.st_mode & 0o777, radix: 8))); run chmod 600 \(path)")
    }
    guard Int(st.st_size) <= sizeLimit else { throw Failure("\(path): is \(st.st_size) bytes; the limit is \(sizeLimit)") }
    let bytes: [UInt8]
    switch Posix.readAll(fd, size: Int(st.st_size), limit: sizeLimit) {
    case .failure(let why): throw Failure("\(path): cannot read: \(why)")
    case .success(let b): bytes = b
    }
    var ledger = try parse(bytes, file: path)
    let before = ledger.entries.count
    let spent = ledger.spend(nonce, originalTransactionId: originalTransactionId, at: now, window: window)
    guard spent == .fresh, let added = ledger.entries.last else { return spent }
    let forgotten = before - (ledger.entries.count - 1)
    if forgotten >= rewriteAfter && forgotten >= ledger.entries.count {
      do { try AtomicWriter.write(ledger.bytes, to: path, alwaysPrivate: true) } catch { throw Failure("\(path): \(error.description)") }
      return spent
    }
    // An append: a line a crash cut short is dropped first (it was never a spend), then the new one
    // is written in one call and made durable before the answer is shown.
    let complete = Int64(completeLength(of: bytes))
    var failure: Errno?
    do {
      try fd.resize(to: complete)
      _ = try fd.seek(offset: complete, from: .start)
    } catch {
      failure = error as? Errno ?? .ioError
    }
    if failure == nil { failure = Posix.writeAll(fd, added.line + [0x0A]) }
    if failure == nil, fsync(fd.rawValue) != 0 { failure = Errno(rawValue: errno) }
    if let failure {
      try? fd.resize(to: complete)
      throw Failure("\(path): cannot record the nonce: \(Posix.errorText(failure))")
    }
    // A ledger made just now: its name must survive a crash too.
    if bytes.isEmpty { DirectorySync.shared(for: PathName.directory(of: path)).sync() }
    return spent
  }
}
