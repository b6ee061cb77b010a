import DashModel
import DashView
import Foundation
import Glibc
import Testing
@testable import DashRuntime
@testable import SubDash
import CoreValues
import SubscriberStorage

/// A terminal made of a pipe: the script's keys are bytes, `!` runs the next hook (an outside
/// program rewriting the file) and then holds the remaining keys back until the loop has drawn
/// what the file event did, so each key meets the screen the user would have seen.
final class FakeScreen: DashboardScreen {
  let pipe = FakeTerminal()
  var size: (width: Int, height: Int) = (80, 24)
  private(set) var frames: [Frame] = []
  /// What `y` / `Y` put on the clipboard, in order.
  private(set) var copied: [String] = []
  private var hooks: [() -> Void]
  private var waitingForFileEvent = false

  init(keys: String, hooks: [() -> Void] = []) {
    self.hooks = hooks
    pipe.type(keys)
  }

  var last: Frame { frames.last ?? Frame(width: 0, height: 0) }

  func copyToClipboard(_ text: String) -> Bool {
    copied.append(text)
    return true
  }

  func readKey() -> Key? {
    if waitingForFileEvent { return nil }
    guard let key = pipe.readKey() else { return nil }
    if key == .char("!"), !hooks.isEmpty {
      hooks.removeFirst()()
      waitingForFileEvent = true
      return nil
    }
    return key
  }

  func draw(_ frame: Frame) {
    frames.append(frame)
    waitingForFileEvent = false
  }
  func updateSize() -> Bool { pipe.updateSize() }
  func suspend() { pipe.suspend() }
  func redrawAll() { pipe.redrawAll() }
}

/// `DashboardApp`'s own loop on a real file, a real watcher and the real session, with a pipe for
/// a terminal: what a user at the keyboard would see, frame by frame.
@Suite(.serialized, .timeLimit(.minutes(1))) struct DashboardLoopTests {
  let wall = Instant(ms: 1_800_000_000_000)

  func app(_ example: String) throws -> (DashboardApp, String) {
    let path = try DashboardSessionTests().copyOfExample(example) { _ in }
    let session = try DashboardSession(path: path, displayName: "state.json", options: DisplayOptions(), nowOverride: nil, retryAccess: nil)
    return (DashboardApp(session: session, colorWanted: false), path)
  }

  func run(_ app: DashboardApp, _ path: String, _ screen: FakeScreen) -> Int32 {
    app.loop(on: screen, signals: nil, follower: DashboardApp.follower(of: path), ttyFD: screen.pipe.readFD, clock: { wall })
  }

  @Test func aConfirmedKeyWritesTheFileAndTheNextFrameShowsIt() throws {
    let (app, path) = try app("active")
    let screen = FakeScreen(keys: "ayq")
    #expect(run(app, path, screen) == 0)
    #expect(try StateFile.load(path: path).subscriber.renewalInfo?.autoRenewOn == false)
    let text = screen.last.textDump
    #expect(text.contains("expires on 2026-05-23 18:32 UTC"))
    #expect(screen.last.lines[23].lowercased().contains("auto-renew"))
    // Our own write is highlighted like anyone else's.
    #expect(screen.last.styleDump.contains("changed"))
  }

  /// A broken write shows FILE ERROR; `u` is refused at the key; once the file is fixed the
  /// banner and the error message go and `u` opens its picker again.
  @Test func aFileErrorRefusesKeysUntilTheFileIsFixed() throws {
    let (app, path) = try app("active")
    let good = try Data(contentsOf: URL(fileURLWithPath: path))
    let screen = FakeScreen(keys: "!u!u", hooks: [
      { try? Data("{\n  \"format\": ,\n}".utf8).write(to: URL(fileURLWithPath: path)) },
      { try? good.write(to: URL(fileURLWithPath: path)) },
    ])
    screen.pipe.type("\u{1B}q")  // Esc closes the picker, q quits
    #expect(run(app, path, screen) == 0)
    let broken = try #require(screen.frames.last { $0.textDump.contains("FILE ERROR:") })
    #expect(broken.textDump.contains("✖ FILE ERROR  state.json:2:13"))
    #expect(broken.lines[22] == "? help  q quit")
    #expect(broken.lines[23].hasPrefix("✖ FILE ERROR: upgrade waits until the file reads again"))
    let fixed = try #require(screen.frames.last { $0.textDump.contains("Upgrade to") })
    #expect(!fixed.textDump.contains("FILE ERROR"))
  }
}
