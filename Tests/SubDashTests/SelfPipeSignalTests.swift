import Foundation
import Testing

@testable import DashRuntime

/// The portable way to watch signals (a handler writing into a pipe), run here on Linux where the
/// dashboard itself uses signalfd, so a port to a system without signalfd starts from a fallback
/// that is known to work. SIGURG: ignored by default, so a stray one can do no harm.
@Suite(.serialized, .timeLimit(.minutes(1))) struct SelfPipeSignalTests {
  @Test func signalsArriveThroughThePipeInOrderAndOnce() throws {
    let w = try SignalWatcher(signals: [SIGURG], mechanism: .selfPipe)
    #expect(w.mechanism == .selfPipe)
    #expect(w.drain() == [])
    signalSelf(SIGURG)
    signalSelf(SIGURG)
    #expect(w.drain() == [SIGURG, SIGURG])
    #expect(w.drain() == [])
  }

  /// A signal sent to the process from another thread wakes the loop blocked in poll().
  @Test func aSignalFromElsewhereWakesTheEventLoop() throws {
    let w = try SignalWatcher(signals: [SIGURG], mechanism: .selfPipe)
    let term = FakeTerminal()
    Thread.detachNewThread { kill(getpid(), SIGURG) }
    var seen: [LoopEvent] = []
    EventLoop(terminal: term, signals: w, follower: nil, ttyFD: term.readFD).run { event in
      seen.append(event)
      return .stop
    }
    #expect(seen == [.signal(SIGURG)])
  }

  /// A watcher that is gone leaves its signal harmless: the handler finds no pipe, and a later
  /// watcher of the same signal gets it.
  @Test func aLaterWatcherTakesOverTheSignal() throws {
    do { _ = try SignalWatcher(signals: [SIGURG], mechanism: .selfPipe) }
    signalSelf(SIGURG)
    let again = try SignalWatcher(signals: [SIGURG], mechanism: .selfPipe)
    #expect(again.drain() == [])
    signalSelf(SIGURG)
    #expect(again.drain() == [SIGURG])
  }
}
