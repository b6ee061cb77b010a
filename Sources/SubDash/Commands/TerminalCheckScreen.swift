import DashView
#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// What `terminal-check` shows, and its clock. A value with a pure `render`, so the layout
/// needs no terminal to test.
struct CheckState {
  /// Editors and atomic writers produce several events per save; reload once they settle.
  static let debounceMs: Int64 = 50

  let file: String
  let tickEnabled: Bool
  let crashEnabled: Bool
  let unicode: Bool
  var firstLine = ""
  var reloads = 0
  var lastKey = "(none yet)"
  var watchMode = ""
  var terminalInfo = ""
  var countdown = 10
  var nextSecond: Int64 = 0
  var reloadDue: Int64?

  init(file: String, tickEnabled: Bool, crashEnabled: Bool, unicode: Bool) {
    self.file = file
    self.tickEnabled = tickEnabled
    self.crashEnabled = crashEnabled
    self.unicode = unicode
  }

  /// Applies every deadline that has passed by `now`.
  mutating func advance(now: Int64) {
    if let due = reloadDue, now >= due {
      reloadDue = nil
      reloads += 1
      firstLine = FirstLine.read(file)
    }
    if tickEnabled {
      while now >= nextSecond {
        nextSecond += 1000
        countdown = countdown == 0 ? 10 : countdown - 1
      }
    }
  }

  /// Milliseconds until the next deadline, or nil when nothing is scheduled (the loop then
  /// sleeps until a key, a signal or a file event).
  func msUntilNextDeadline(now: Int64) -> Int32? {
    var deadlines: [Int64] = []
    if let reloadDue { deadlines.append(reloadDue) }
    if tickEnabled { deadlines.append(nextSecond) }
    return deadlines.min().map { Int32(clamping: max(0, $0 - now)) }
  }

  func render(size: (width: Int, height: Int)) -> Frame {
    var f = Frame(width: size.width, height: size.height)
    let w = size.width, h = size.height
    guard w >= 20, h >= 4 else {
      f.put("too small \(w)x\(h)", x: 0, y: 0, style: Style(.warn))
      return f
    }
    let box = unicode
      ? (tl: "┌", tr: "┐", bl: "└", br: "┘", hz: "─", vt: "│", dot: "·")
      : (tl: "+", tr: "+", bl: "+", br: "+", hz: "-", vt: "|", dot: "-")
    let border = Style(.border)
    f.put(box.tl + String(repeating: box.hz, count: w - 2) + box.tr, x: 0, y: 0, style: border)
    for y in 1..<(h - 1) {
      f.put(box.vt, x: 0, y: y, style: border)
      f.put(box.vt, x: w - 1, y: y, style: border)
    }
    f.put(box.bl + String(repeating: box.hz, count: w - 2) + box.br, x: 0, y: h - 1, style: border)
    f.put(" SubDash terminal check ", x: 2, y: 0, style: Style(.title))

    let inner = w - 4
    var y = 1
    /// Writes one labelled row and returns the column just after it (nil if it did not fit).
    @discardableResult
    func row(_ label: String, _ value: String, _ style: Style = Style(.value)) -> Int? {
      guard y < h - 1 else { return nil }
      let used = f.put(label, x: 2, y: y, style: Style(.label), maxWidth: inner)
      let shown = f.put(Sanitizer.truncate(value, to: inner - used, ellipsis: unicode ? "…" : "~"),
                        x: 2 + used, y: y, style: style)
      y += 1
      return 2 + used + shown
    }
    row("file: ", file)
    row("first line: ", firstLine)
    row("", "reloaded \(reloads)   watch: \(watchMode)", Style(.accent))
    // The cursor sits after the last key, which checks that the terminal can show and move it.
    if let end = row("last key: ", lastKey, Style(.value, bold: true)), end < w - 1 {
      f.cursor = (end, y - 1)
    }
    row("terminal: ", terminalInfo)
    if y < h - 1 {
      var x = 2 + f.put("styles:", x: 2, y: y, style: Style(.label))
      let samples: [(String, Role)] = [
        ("ok", .ok), ("warn", .warn), ("danger", .danger), ("accent", .accent), ("keys", .keyHint),
        ("dim", .dim), ("title", .title), ("selected", .selection), ("changed", .changed), ("badge", .badge),
      ]
      for (name, role) in samples where x + 1 + name.count <= w - 2 {
        x += 1
        x += f.put(name, x: x, y: y, style: Style(role))
      }
      y += 1
    }
    if tickEnabled { row("countdown: ", "\(countdown)", Style(.warn, bold: true)) }

    var hints = ["q quit", "Ctrl-L redraw", "Ctrl-Z suspend"]
    if crashEnabled { hints.append("! crash") }
    let footer = " " + hints.joined(separator: " \(box.dot) ") + " "
    f.put(footer, x: 2, y: h - 1, style: Style(.keyHint), maxWidth: w - 4)
    return f
  }
}

/// The first line of a file, for display. Reads at most 4 KiB: the point is to show that the
/// file is being read, not to load it.
enum FirstLine {
  static func read(_ path: String) -> String {
    let fd = open(path, O_RDONLY | O_CLOEXEC)
    guard fd >= 0 else { return "(cannot read: \(String(cString: strerror(errno))))" }
    defer { close(fd) }
    var bytes = [UInt8](repeating: 0, count: 4096)
    var count = 0
    while count < bytes.count {
      let n = bytes.withUnsafeMutableBytes { Glibc.read(fd, $0.baseAddress! + count, $0.count - count) }
      if n < 0 && errno == EINTR { continue }
      if n < 0 { return "(cannot read: \(String(cString: strerror(errno))))" }
      if n == 0 { break }
      count += n
      if bytes[..<count].contains(10) { break }
    }
    if count == 0 { return "(empty file)" }
    let line = bytes[..<count].split(separator: 10, maxSplits: 1, omittingEmptySubsequences: false).first ?? []
    return String(decoding: line, as: UTF8.self)
  }
}
