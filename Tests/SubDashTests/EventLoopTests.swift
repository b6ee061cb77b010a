import DashModel
import CoreValues
import DashView
import Glibc
import Testing
@testable import DashRuntime
@testable import SubDash
import SubscriberStorage

/// Stands in for the tty: keys are bytes written to a pipe, read back one per readKey().
final class FakeTerminal: LoopTerminal {
  let readFD: Int32
  private(set) var writeFD: Int32
  var sizeChanges = 0
  var suspends = 0
  var redraws = 0

  init() {
    var fds: [Int32] = [0, 0]
    precondition(pipe(&fds) == 0)
    readFD = fds[0]
    writeFD = fds[1]
    _ = fcntl(readFD, F_SETFL, fcntl(readFD, F_GETFL) | O_NONBLOCK)
  }
  deinit {
    close(readFD)
    if writeFD >= 0 { close(writeFD) }
  }

  func type(_ text: String) { _ = text.withCString { write(writeFD, $0, strlen($0)) } }
  // Marks the fd closed so deinit does not close a number another test may have reused.
  func hangUp() { close(writeFD); writeFD = -1 }

  func readKey() -> Key? {
    var byte: UInt8 = 0
    return read(readFD, &byte, 1) == 1 ? Key(scalar: UInt32(byte)) : nil
  }
  func updateSize() -> Bool {
    sizeChanges += 1
    return true
  }
  func suspend() { suspends += 1 }
  func redrawAll() { redraws += 1 }
}

/// Sends `sig` to the calling thread only: signalfd reads thread-directed signals of its
/// thread, and other test threads (which do not block it) are never hit.
func signalSelf(_ sig: Int32) { _ = pthread_kill(pthread_self(), sig) }

@Suite(.serialized) struct EventLoopTests {
  /// The dashboard and terminal-check end on the same events with the status a shell reports for
  /// a killed process: 143 for SIGTERM, 129 for a hung-up tty; keys, ticks, resizes and follows go on.
  @Test func signalsAndAHungUpTtyEndTheSessionWithTheShellsStatus() {
    #expect(LoopEvent.signal(SIGTERM).endingStatus == 143)
    #expect(LoopEvent.signal(SIGINT).endingStatus == 130)
    #expect(LoopEvent.ttyClosed.endingStatus == 129)
    for event in [LoopEvent.key(.char("q")), .tick, .resize, .followed([])] { #expect(event.endingStatus == nil) }
  }

  @Test func drainsEveryPendingKeyOnOneWakeup() {
    let term = FakeTerminal()
    term.type("abq")
    var seen: [LoopEvent] = []
    EventLoop(terminal: term, signals: nil, follower: nil, ttyFD: term.readFD).run { event in
      seen.append(event)
      return event == .key(.char("q")) ? .stop : .continue
    }
    #expect(seen == [.key(.char("a")), .key(.char("b")), .key(.char("q"))])
  }

  @Test func ticksWhenTheCallersTimeoutElapses() {
    let term = FakeTerminal()
    var ticks = 0
    let started = Monotonic.nowMs()
    EventLoop(terminal: term, signals: nil, follower: nil, ttyFD: term.readFD).run(nextTimeout: { 20 }) { event in
      if event == .tick { ticks += 1 }
      return ticks == 3 ? .stop : .continue
    }
    #expect(ticks == 3)
    #expect(Monotonic.nowMs() - started >= 60)
  }

  @Test func reportsAHungUpTtyOnceAndStopsPollingIt() {
    let term = FakeTerminal()
    term.type("x")
    term.hangUp()
    var seen: [LoopEvent] = []
    var timeouts = 0
    EventLoop(terminal: term, signals: nil, follower: nil, ttyFD: term.readFD).run(nextTimeout: { 10 }) { event in
      seen.append(event)
      if event == .tick { timeouts += 1 }
      return timeouts == 2 ? .stop : .continue
    }
    // Keys still buffered are delivered first; afterwards only ticks, no busy loop of hang-ups.
    #expect(seen == [.key(.char("x")), .ttyClosed, .tick, .tick])
  }

  @Test func deliversTheStoresFollowWokenByInotify() {
    let dir = TempDir()
    dir.write("state.json", "1")
    let term = FakeTerminal()
    let (store, name) = DirectorySubscriberStore.holding(dir.file("state.json"))
    let follower = store.follower(watch: FileWatcher(path: dir.file("state.json"), useInotify: true), only: name)
    dir.write("state.json", "2")
    var seen: [LoopEvent] = []
    EventLoop(terminal: term, signals: nil, follower: follower, ttyFD: term.readFD).run { event in
      seen.append(event)
      return .stop
    }
    #expect(seen == [.followed([.changed("state.json")])])
  }

  @Test func pollingWatcherIsCheckedWithoutACallerTimeout() {
    let dir = TempDir()
    dir.write("state.json", "1")
    let term = FakeTerminal()
    let (store, name) = DirectorySubscriberStore.holding(dir.file("state.json"))
    let follower = store.follower(watch: FileWatcher(path: dir.file("state.json"), useInotify: false), only: name)
    dir.write("tmp", "22")
    dir.rename("tmp", "state.json")
    var seen: [LoopEvent] = []
    EventLoop(terminal: term, signals: nil, follower: follower, ttyFD: term.readFD).run { event in
      seen.append(event)
      return .stop
    }
    #expect(seen == [.followed([.changed("state.json")])])  // no .tick: the caller never asked for one
  }

  /// The list's follow: every state file of the directory, woken by inotify's names or, without
  /// it, by the directory's stat poll; hidden temporary files are never subscribers.
  @Test(arguments: [true, false]) func theListsFollowReportsANewStateFile(inotify: Bool) {
    let dir = TempDir()
    dir.write("a.json", "1")
    let term = FakeTerminal()
    let store = DirectorySubscriberStore(directory: dir.path)
    let follower = store.follower(watch: FileWatcher(directory: dir.path, useInotify: inotify))
    dir.write(".b.json.tmp", "2")
    dir.rename(".b.json.tmp", "b.json")
    var seen: [LoopEvent] = []
    EventLoop(terminal: term, signals: nil, follower: follower, ttyFD: term.readFD).run { event in
      seen.append(event)
      return .stop
    }
    #expect(seen == [.followed([.changed("b.json")])])
  }

  @Test func signalsBecomeEventsAndSuspendResizeAndContinueAreHandled() throws {
    let signals = try SignalWatcher(signals: [SIGUSR1, SIGWINCH, SIGTSTP, SIGCONT])
    let term = FakeTerminal()
    signalSelf(SIGWINCH)
    var seen: [LoopEvent] = []
    let loop = EventLoop(terminal: term, signals: signals, follower: nil, ttyFD: term.readFD)
    loop.run { event in
      seen.append(event)
      return .stop
    }
    #expect(seen == [.resize])
    #expect(term.sizeChanges == 1)

    // Ctrl-Z: suspend, then a repaint request; the SIGCONT that follows our own resume is
    // not a second repaint. A later SIGCONT (outside kill -STOP/-CONT) is.
    signalSelf(SIGTSTP)
    seen = []
    loop.run { event in
      seen.append(event)
      return .stop
    }
    #expect(term.suspends == 1)
    #expect(seen == [.resize])
    signalSelf(SIGCONT)
    signalSelf(SIGUSR1)
    seen = []
    loop.run { event in
      seen.append(event)
      return .stop
    }
    #expect(seen == [.signal(SIGUSR1)])
    #expect(term.redraws == 0)
    signalSelf(SIGCONT)
    seen = []
    loop.run { event in
      seen.append(event)
      return .stop
    }
    #expect(seen == [.resize])
    #expect(term.redraws == 1)
  }
}

@Suite(.serialized) struct SignalWatcherTests {
  @Test func readsBlockedSignalsFromTheDescriptor() throws {
    let w = try SignalWatcher(signals: [SIGUSR2])
    #expect(w.drain() == [])
    signalSelf(SIGUSR2)
    #expect(w.drain() == [SIGUSR2])
    #expect(w.drain() == [])
  }
}
