#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// The progress bar of a first open: reading 100,000 files into a new index takes seconds
/// (about 6 s on 2 cores, 14 s on a busy machine), and a terminal that shows nothing that long
/// looks hung. Drawn on standard error only when it is a terminal (a script's stderr gets
/// nothing), redrawn in place with a carriage return at most ten times a second, and erased when
/// done so the list's first screen starts on a clean line.
final class IndexingProgress {
  private let directory: String
  private let ascii: Bool
  private var lastDrawn: timespec?
  private var drewSomething = false

  /// nil when standard error is not a terminal.
  init?(directory: String, ascii: Bool) {
    guard isatty(2) != 0 else { return nil }
    self.directory = directory
    self.ascii = ascii
  }

  /// The line for `done` of `total` files: `subdash: indexing DIR [#####.....] 51% (51,200 of 100,000 files)`.
  static func line(directory: String, done: Int, total: Int, ascii: Bool, width: Int = 24) -> String {
    let clamped = min(max(done, 0), max(total, 0))
    let filled = total > 0 ? clamped * width / total : width
    let percent = total > 0 ? clamped * 100 / total : 100
    let bar = String(repeating: ascii ? "#" : "█", count: filled) + String(repeating: ascii ? "." : "░", count: width - filled)
    return "subdash: indexing \(directory) [\(bar)] \(percent)% (\(grouped(clamped)) of \(grouped(total)) files)"
  }

  static func grouped(_ n: Int) -> String {
    let digits = Array(String(n))
    var out = ""
    for (i, d) in digits.enumerated() {
      if i > 0 && (digits.count - i) % 3 == 0 { out.append(",") }
      out.append(d)
    }
    return out
  }

  /// Before the files are counted (listing 100,000 names takes a moment too).
  func start() {
    drewSomething = true
    write("subdash: indexing \(directory) (later opens read the index)…")
  }

  func update(done: Int, total: Int) {
    var now = timespec()
    clock_gettime(CLOCK_MONOTONIC, &now)
    if let last = lastDrawn, done < total {
      let elapsedMs = (now.tv_sec - last.tv_sec) * 1000 + (now.tv_nsec - last.tv_nsec) / 1_000_000
      if elapsedMs < 100 { return }
    }
    lastDrawn = now
    drewSomething = true
    write("\r\u{1B}[K" + Self.line(directory: directory, done: done, total: total, ascii: ascii))
  }

  /// Erases the bar (the list's screen, or the printed rows, follow).
  func finish() {
    guard drewSomething else { return }
    write("\r\u{1B}[K")
  }

  private func write(_ text: String) {
    var bytes = Array(text.utf8)
    bytes.withUnsafeMutableBytes { buffer in
      guard let base = buffer.baseAddress else { return }
      var offset = 0
      while offset < buffer.count {
        let n = Glibc.write(2, base + offset, buffer.count - offset)
        if n < 0 && errno == EINTR { continue }
        guard n > 0 else { return }
        offset += n
      }
    }
  }
}
