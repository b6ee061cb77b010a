import CNcurses
import DashModel
import DashView
#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// The only ncurses user in the project. It turns `Frame` values into screen updates and raw
/// input into `Key`s; everything it draws was decided elsewhere.
///
/// Single-threaded by design (ncurses is not thread-safe): create, draw, read and restore on
/// the main thread, from the one event loop.
package final class Terminal {
  package struct Options {
    /// Use colour pairs. The caller decides (NO_COLOR, --no-color); attributes such as bold,
    /// reverse and dim are drawn either way, so no meaning is lost without colour.
    package var color: Bool = true
    package init(color: Bool = true) { self.color = color }
  }

  package enum StartError: Error, CustomStringConvertible {
    case notATerminal(stream: String)
    case unknownTerminal(term: String?)
    case cannotAddressCursor(term: String)

    package var description: String {
      switch self {
      case .notATerminal(let stream):
        return "\(stream) is not a terminal; the dashboard needs an interactive terminal (not a pipe, file or /dev/null); for a text report use: subdash show FILE"
      case .unknownTerminal(let term?):
        return "cannot use terminal type '\(term)' (TERM): no terminfo entry found; try TERM=xterm-256color"
      case .unknownTerminal(nil):
        return "TERM is not set; set it to your terminal type, e.g. TERM=xterm-256color"
      case .cannotAddressCursor(let term):
        return "terminal type '\(term)' (TERM) cannot position the cursor; use a full-screen terminal type such as xterm-256color"
      }
    }
  }

  /// The terminal type ncurses is using ($TERM), for diagnostics.
  package let termName: String
  /// Whether colour pairs are in use (asked for, and the terminal has colours).
  package let colorEnabled: Bool
  /// Colours the terminal reports (0 when colour is off), for diagnostics.
  package let colorCount: Int
  /// Whether the active locale encodes UTF-8, so non-ASCII cells can be sent as they are.
  package let utf8Output: Bool

  private let screen: OpaquePointer
  private var active = true
  /// What is on the screen now, as far as we know; nil forces the next draw to write every cell.
  private var previous: Frame?
  private var cursorShown: Bool?
  private var looks: [Style: (attrs: attr_t, pair: Int16)] = [:]

  private init(screen: OpaquePointer, termName: String, colorEnabled: Bool, colorCount: Int, utf8Output: Bool) {
    self.screen = screen
    self.termName = termName
    self.colorEnabled = colorEnabled
    self.colorCount = colorCount
    self.utf8Output = utf8Output
  }

  deinit { restore() }

  // MARK: Locale

  /// Applies the user's locale and reports whether *it* is UTF-8. When it is not, LC_CTYPE is
  /// switched to C.UTF-8 anyway, because ncurses' wide-character functions otherwise draw every
  /// non-ASCII character as a blank, silently; the caller should then draw ASCII only, since the
  /// terminal on the other end probably does not speak UTF-8. Safe to call more than once.
  @discardableResult
  package static func localeIsUTF8() -> Bool {
    _ = setlocale(LC_ALL, "")
    let userUTF8 = cn_codeset_is_utf8() != 0
    if !userUTF8 { _ = setlocale(LC_CTYPE, "C.UTF-8") }
    return userUTF8
  }

  // MARK: Start and stop

  /// Takes over the terminal. Throws a message fit for end users when that is impossible.
  /// Create the `SignalWatcher` first (before any thread exists); `restore()` must run on every
  /// exit path (it also runs from `deinit`, atexit and the crash handler).
  package static func start(options: Options = Options()) throws -> Terminal {
    // Without these checks a redirected stdin makes poll() report EOF forever (a 100% CPU spin).
    guard isatty(0) == 1 else { throw StartError.notATerminal(stream: "standard input") }
    guard isatty(1) == 1 else { throw StartError.notATerminal(stream: "standard output") }
    localeIsUTF8()
    let utf8 = cn_codeset_is_utf8() != 0

    // newterm, unlike initscr, returns NULL on an unknown TERM instead of calling exit(1).
    let envTerm = getenv("TERM").map { String(cString: $0) }
    guard let envTerm, !envTerm.isEmpty else { throw StartError.unknownTerminal(term: nil) }
    guard let screen = newterm(nil, cn_stdout(), cn_stdin()) else {
      throw StartError.unknownTerminal(term: envTerm)
    }
    // "dumb" and friends load fine but cannot move the cursor: the dashboard would be garbage.
    if !hasCapability("cup") {
      endwin()
      delscreen(screen)
      throw StartError.cannotAddressCursor(term: envTerm)
    }

    let win = cn_stdscr()
    cbreak()              // keys arrive one by one, but Ctrl-C/Ctrl-Z still raise signals
    noecho()
    nonl()                // Enter arrives as \r and output newlines are not translated
    _ = intrflush(win, false)
    _ = keypad(win, true) // arrows and F-keys as KEY_* codes
    _ = set_escdelay(25)  // the default 1 s makes Esc feel broken
    wtimeout(win, 0)      // get_wch never blocks; the event loop blocks in poll()
    _ = typeahead(-1)     // never abandon a refresh half-way because a key is pending
    _ = curs_set(0)

    var colorOn = false
    var colors = 0
    if options.color && has_colors() {
      start_color()
      colors = Int(cn_colors())
      colorOn = cn_color_pairs() > Role.allCases.count
    }
    let terminal = Terminal(
      screen: screen, termName: envTerm, colorEnabled: colorOn, colorCount: colorOn ? colors : 0, utf8Output: utf8)
    if colorOn { terminal.initColorPairs() }

    // From here on a crash or a stray exit() must leave the user a working shell.
    CrashGuard.install(restoreTerminal: { _ = endwin() })
    StderrLog.begin()
    return terminal
  }

  /// Gives the terminal back: normal screen, cooked mode, visible cursor, and replays anything
  /// written to stderr meanwhile. Idempotent.
  package func restore() {
    guard active else { return }
    // Terminals without an alternate screen (vt100, the Linux console) would keep the last
    // frame, and the shell prompt would land in the middle of it: clear it instead.
    if !Self.hasCapability("smcup") {
      _ = werase(cn_stdscr())
      _ = wnoutrefresh(cn_stdscr())
      _ = doupdate()
    }
    active = false
    CrashGuard.clearHook()
    endwin()
    StderrLog.restore()
  }

  /// Whether the current terminfo entry has string capability `name` (tigetstr returns NULL for
  /// absent and (char *)-1 for "not a string capability").
  private static func hasCapability(_ name: String) -> Bool {
    guard let value = tigetstr(name) else { return false }
    return Int(bitPattern: value) != -1
  }

  /// Ctrl-Z: give the terminal back, stop, and repaint when continued (`fg`).
  /// SIGTSTP arrives through the signal watcher, so this runs in the loop, not in a handler.
  package func suspend() {
    guard active else { return }
    endwin()
    _ = kill(getpid(), SIGSTOP)  // returns once someone sends SIGCONT
    _ = updateSize()
    redrawAll()
  }

  // MARK: Size

  package var size: (width: Int, height: Int) {
    let win = cn_stdscr()
    return (Int(getmaxx(win)), Int(getmaxy(win)))
  }

  /// Asks the kernel for the window size and resizes curses to it (SIGWINCH is delivered via
  /// signalfd, so ncurses' own handler never runs). Returns true when the size changed.
  @discardableResult
  package func updateSize() -> Bool {
    guard active else { return false }
    var rows: Int32 = 0
    var cols: Int32 = 0
    guard cn_winsize(1, &rows, &cols) == 0 || cn_winsize(0, &rows, &cols) == 0 else { return false }
    guard rows != cn_lines() || cols != cn_cols() else { return false }
    _ = resizeterm(rows, cols)
    previous = nil
    return true
  }

  // MARK: Drawing

  /// Shows `frame`, writing only the cells that differ from the last frame drawn.
  /// A frame larger than the screen is clipped (it can happen for one frame after a resize).
  package func draw(_ frame: Frame) {
    guard active else { return }
    let win = cn_stdscr()
    let (cols, rows) = size
    let old = previous.flatMap { $0.width == frame.width && $0.height == frame.height ? $0 : nil }
    if old == nil { _ = werase(win) }
    for y in 0..<min(frame.height, rows) {
      for x in 0..<min(frame.width, cols) {
        let cell = frame[x, y]
        // Continuation cells are the right half of a wide character: ncurses fills them itself.
        if cell.isContinuation { continue }
        if let old, old[x, y] == cell { continue }
        // A wide character cut by the screen edge would wrap onto the next row.
        let wide = x + 1 < frame.width && frame[x + 1, y].isContinuation
        put(wide && x + 1 >= cols ? Cell(" ", style: cell.style) : cell, x: x, y: y)
      }
    }
    previous = frame
    placeCursor(frame.cursor, cols: cols, rows: rows)
    _ = wnoutrefresh(win)
    _ = doupdate()
  }

  /// Puts `text` on the clipboard of the terminal the user sits at: OSC 52
  /// (`ESC ] 52 ; c ; <base64> BEL`), which xterm, iTerm2, kitty, WezTerm, Windows Terminal and
  /// others honour, also over SSH. Inside tmux the sequence reaches the outer terminal when tmux
  /// has `set -g set-clipboard on` (docs: README, "Copying"). Written straight to the tty after
  /// ncurses' last refresh: the sequence moves no cursor and draws nothing, so the screen ncurses
  /// believes is there stays true.
  package func copyToClipboard(_ text: String) -> Bool {
    guard active else { return false }
    var bytes = Self.clipboardSequence(text)[...]
    while !bytes.isEmpty {
      let n = bytes.withUnsafeBytes { Glibc.write(1, $0.baseAddress, $0.count) }
      if n < 0 && errno == EINTR { continue }
      if n <= 0 { return false }
      bytes = bytes.dropFirst(n)
    }
    return true
  }

  /// The OSC 52 bytes for `text`. Control characters are dropped first (the caller's text is
  /// already clean; this keeps the sequence whole whatever it is given).
  package static func clipboardSequence(_ text: String) -> [UInt8] {
    let clean = text.unicodeScalars.filter { $0.value >= 0x20 && !(0x7F...0x9F).contains($0.value) }
    // Standard base64 with `=` padding (RFC 4648 §4), as OSC 52 wants it.
    let payload = Array(Base64URL.encodeStandard(String(String.UnicodeScalarView(clean)).utf8).utf8)
    return [0x1B] + Array("]52;c;".utf8) + payload + [0x07]
  }

  /// Repaints the whole screen from scratch (Ctrl-L, after Ctrl-Z, after someone else wrote to
  /// the tty). Uses the last frame; the caller may draw a new one right after.
  package func redrawAll() {
    guard active else { return }
    _ = clearok(cn_stdscr(), true)  // next refresh clears the physical screen and sends everything
    guard let frame = previous else {
      _ = wnoutrefresh(cn_stdscr())
      _ = doupdate()
      return
    }
    previous = nil
    draw(frame)
  }

  private func put(_ cell: Cell, x: Int, y: Int) {
    // cchar_t holds one spacing character plus up to 4 combining marks (CCHARW_MAX = 5).
    var chars: [wchar_t] = cell.text.unicodeScalars.prefix(5).map { wchar_t(bitPattern: $0.value) }
    if chars.isEmpty { chars = [0x20] }
    // Without a UTF-8 locale ncurses would print blanks; make the loss visible instead.
    if !utf8Output && chars.contains(where: { $0 > 0x7E }) { chars = [0x3F] }
    chars.append(0)
    let look = self.look(for: cell.style)
    var cc = cchar_t()
    _ = setcchar(&cc, chars, look.attrs, look.pair, nil)
    // At the bottom-right corner this "fails" (the cursor cannot advance) but the cell is set.
    _ = mvwadd_wch(cn_stdscr(), Int32(y), Int32(x), &cc)
  }

  private func placeCursor(_ cursor: (x: Int, y: Int)?, cols: Int, rows: Int) {
    let win = cn_stdscr()
    if let c = cursor, c.x >= 0, c.x < cols, c.y >= 0, c.y < rows {
      _ = wmove(win, Int32(c.y), Int32(c.x))
      if cursorShown != true { _ = curs_set(1) }
      cursorShown = true
    } else {
      if cursorShown != false { _ = curs_set(0) }
      cursorShown = false
    }
  }

  // MARK: Styles

  /// How a role looks: a foreground colour (nil = terminal default) and attributes with colour,
  /// and the attributes used without colour so the distinction survives (e.g. warn → bold).
  private static func palette(_ role: Role) -> (fg: Int16?, color: attr_t, mono: attr_t) {
    let bold = cn_a_bold(), reverse = cn_a_reverse(), dim = cn_a_dim()
    switch role {
    case .plain, .label, .value, .border: return (nil, 0, 0)
    case .title: return (nil, bold, bold)
    case .dim: return (nil, dim, dim)
    case .ok: return (Int16(COLOR_GREEN), 0, 0)
    case .warn: return (Int16(COLOR_YELLOW), 0, bold)
    case .danger: return (Int16(COLOR_RED), bold, bold)
    case .accent: return (Int16(COLOR_CYAN), 0, 0)
    case .keyHint: return (Int16(COLOR_CYAN), 0, bold)
    case .selection: return (nil, reverse, reverse)
    case .changed: return (Int16(COLOR_YELLOW), bold, bold | reverse)
    case .badge: return (nil, reverse, reverse)
    }
  }

  /// One colour pair per role, numbered from 1 in `Role.allCases` order, on the terminal's own
  /// background (use_default_colors) so the dashboard does not paint a black box on light themes.
  private func initColorPairs() {
    let defaultBackground = use_default_colors() == OK
    for (index, role) in Role.allCases.enumerated() {
      let fg = Self.palette(role).fg ?? (defaultBackground ? -1 : Int16(COLOR_WHITE))
      _ = init_pair(Int16(index + 1), fg, defaultBackground ? -1 : Int16(COLOR_BLACK))
    }
  }

  private func look(for style: Style) -> (attrs: attr_t, pair: Int16) {
    if let cached = looks[style] { return cached }
    let p = Self.palette(style.role)
    var attrs = colorEnabled ? p.color : p.mono
    if style.bold { attrs |= cn_a_bold() }
    if style.reverse { attrs |= cn_a_reverse() }
    let pair = colorEnabled ? Int16(Role.allCases.firstIndex(of: style.role)! + 1) : 0
    looks[style] = (attrs, pair)
    return (attrs, pair)
  }

  // MARK: Input

  /// The next key, or nil when none is waiting (never blocks, except up to ESCDELAY after a lone
  /// Esc). Call until nil on every wakeup: ncurses buffers bytes that poll() no longer sees.
  /// Ctrl-L also repaints the screen here, so every screen supports it; it is still returned.
  package func readKey() -> Key? {
    guard active else { return nil }
    var wch: wint_t = 0
    let rc = wget_wch(cn_stdscr(), &wch)
    if rc == ERR { return nil }
    let key = rc == KEY_CODE_YES ? Self.key(forKeyCode: Int32(bitPattern: wch)) : Key(scalar: wch)
    switch key {
    case .ctrl("l"): redrawAll()
    case .resize: previous = nil  // ncurses resized its windows; their contents are gone
    default: break
    }
    return key
  }

  /// Maps ncurses keypad codes (KEY_*) to keys.
  package static func key(forKeyCode code: Int32) -> Key {
    switch code {
    case KEY_UP: return .up
    case KEY_DOWN: return .down
    case KEY_LEFT: return .left
    case KEY_RIGHT: return .right
    case KEY_HOME: return .home
    case KEY_END: return .end
    case KEY_PPAGE: return .pageUp
    case KEY_NPAGE: return .pageDown
    case KEY_ENTER: return .enter
    case KEY_BACKSPACE: return .backspace
    case KEY_DC: return .delete
    case KEY_BTAB: return .backTab
    case KEY_RESIZE: return .resize
    case cn_key_f(1)...cn_key_f(63): return .function(Int(code - cn_key_f(0)))
    default: return .unknown(code)
    }
  }
}
