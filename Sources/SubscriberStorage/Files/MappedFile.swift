#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#elseif canImport(Darwin)
import Darwin
#endif
import SystemPackage
import DashModel

/// A big regular file mapped read-only, for reading without copying it (`show` of a state file of
/// a hundred megabytes).
///
/// Why: `read()` into a buffer makes the kernel zero a fresh page for every 4 KiB (2 MiB with huge
/// pages) of it and then copy the file in; on this project's VM that was a fifth of `show --json`
/// of a 100,000-transaction file, and it varied from 20 to 150 ms between runs, while mapping the
/// same pages of the page cache takes 3 ms (docs/benchmarks.md).
///
/// The one hazard of a mapping: if another program cuts the file short while it is read, touching
/// a page past the new end raises SIGBUS instead of returning a short read. `whileReading` turns
/// that into the same outcome a short read has: a one-line error naming the file, exit status 2,
/// nothing written. (SubDash's own writers never shorten a file in place: they replace it whole.)
final class MappedFile {
  /// Files smaller than this are read: mapping them saves nothing measurable.
  static let mapFrom = 8 << 20

  let bytes: UnsafeBufferPointer<UInt8>
  private let base: UnsafeMutableRawPointer
  private let length: Int

  private init(base: UnsafeMutableRawPointer, length: Int) {
    self.base = base
    self.length = length
    bytes = UnsafeBufferPointer(start: base.assumingMemoryBound(to: UInt8.self), count: length)
  }

  deinit { munmap(base, length) }

  /// A file's contents: mapped when big, read into memory otherwise.
  enum Contents {
    case mapped(MappedFile)
    case read([UInt8])
  }

  /// The file mapped when it is big (and this system maps it), read otherwise, through one open;
  /// or the reason it cannot be read at all (the same checks and words as `Posix.readAll`).
  static func open(path: String, limit: Int, followSymlinks: Bool = true, symlinkRefusal: String = Posix.journalSymlinkRefusal) -> Result<Contents, PosixFailure> {
    let fd: FileDescriptor
    switch Posix.openPlainFile(path, .readOnly, followSymlinks: followSymlinks, symlinkRefusal: symlinkRefusal) {
    case .failure(let f): return .failure(f)
    case .success(let d): fd = d
    }
    defer { try? fd.close() }
    var st = stat()
    if fstat(fd.rawValue, &st) != 0 { return .failure(PosixFailure(Posix.errorText())) }
    let size = Int(st.st_size)
    if size > limit { return .failure(PosixFailure("file is \(size) bytes; the limit is \(limit) bytes")) }
    #if os(Linux)
    // MAP_POPULATE: every page is mapped now, in one call, instead of a fault per page later.
    if size >= mapFrom, let base = mmap(nil, size, PROT_READ, MAP_PRIVATE | MAP_POPULATE, fd.rawValue, 0), base != MAP_FAILED {
      return .success(.mapped(MappedFile(base: base, length: size)))
    }
    #endif
    return Posix.readAll(fd, size: size, limit: limit).map(Contents.read)
  }

  /// Runs `body` on the bytes; a SIGBUS on them while it runs (the file was cut short by another
  /// program) ends the process with "subdash: FILE: …" on stderr and status 2. One mapping is
  /// guarded at a time: a second concurrent caller gets nil and should read the file instead.
  func whileReading<R>(fileName: String, _ body: (UnsafeBufferPointer<UInt8>) throws(StateFileError) -> R) throws(StateFileError) -> R? {
    guard BusErrorGuard.begin(start: Int(bitPattern: base), length: length, fileName: fileName) else { return nil }
    defer { BusErrorGuard.end() }
    return try body(bytes)
  }
}

/// The SIGBUS handler of `MappedFile.whileReading`. Its state is set before the handler is
/// installed and only read by it; the message is prepared in advance, since a handler may only
/// call async-signal-safe functions (write, _exit).
private enum BusErrorGuard {
  nonisolated(unsafe) static var low = 0
  nonisolated(unsafe) static var high = 0
  nonisolated(unsafe) static var message = UnsafeMutableBufferPointer<UInt8>(start: nil, count: 0)
  nonisolated(unsafe) static var active = false
  nonisolated(unsafe) static var previous = sigaction()
  static let lock = Mutex()

  static func begin(start: Int, length: Int, fileName: String) -> Bool {
    lock.lock()
    guard !active else { lock.unlock(); return false }
    active = true
    low = start
    high = start + length
    let safeName = String(fileName.unicodeScalars.map { $0.value < 0x20 || $0.value == 0x7F ? "?" : Character($0) })
    let text = Array("subdash: \(safeName): the file was cut short by another program while it was read; nothing was changed; run again\n".utf8)
    message = UnsafeMutableBufferPointer<UInt8>.allocate(capacity: text.count)
    _ = message.initialize(from: text)
    var action = sigaction()
    action.__sigaction_handler.sa_sigaction = { _, info, _ in BusErrorGuard.handle(info) }
    action.sa_flags = SA_SIGINFO
    sigemptyset(&action.sa_mask)
    _ = sigaction(SIGBUS, &action, &previous)
    lock.unlock()
    return true
  }

  static func end() {
    lock.lock()
    _ = sigaction(SIGBUS, &previous, nil)
    message.deallocate()
    message = UnsafeMutableBufferPointer(start: nil, count: 0)
    active = false
    lock.unlock()
  }

  private static func handle(_ info: UnsafeMutablePointer<siginfo_t>?) {
    #if os(Linux)
    let address = Int(bitPattern: info?.pointee._sifields._sigfault.si_addr)
    #else
    let address = Int(bitPattern: info?.pointee.si_addr)
    #endif
    if address >= low, address < high {
      _ = write(2, message.baseAddress, message.count)
      _exit(2)
    }
    // Not ours: the previous action (the default, or the runtime's crash report) takes the fault
    // when the instruction runs again on return.
    _ = sigaction(SIGBUS, &previous, nil)
  }
}

/// A plain pthread mutex (the guard's state changes on whichever thread loads a file).
private final class Mutex: @unchecked Sendable {
  private var m = pthread_mutex_t()
  init() { pthread_mutex_init(&m, nil) }
  func lock() { pthread_mutex_lock(&m) }
  func unlock() { pthread_mutex_unlock(&m) }
}
