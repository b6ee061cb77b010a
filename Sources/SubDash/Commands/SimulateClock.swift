#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif
import DashModel
import DashRuntime
import CoreValues
import SubscriberStorage


/// The two ways `subdash simulate` moves the clock.
struct SimulateClock {
  let path: String
  var output: SimulateOutput
  var notificationCount = 0

  /// Each step goes through the store's one write call: locked, re-read (a dashboard's key press
  /// since the last step included), atomic; `.leave` writes nothing.
  private let store: DirectorySubscriberStore
  private let name: String

  init(path: String, output: SimulateOutput) {
    self.path = path
    self.output = output
    (store, name) = DirectorySubscriberStore.holding(path)
  }

  private func refused(_ r: ActionError) -> SimulateInputError { SimulateInputError(refusal: r, in: path) }

  /// As fast as possible: each step applies the next event (and any other at the same instant).
  /// Stops when nothing is scheduled, at `until` (the clock is then set to it), after `steps`
  /// events, or on Ctrl-C.
  mutating func jump(until: Instant?, steps: Int?, signals: inout SimStopSignals) throws(SimulateInputError) {
    let opening = Instant(ms: SimWallClock.now())
    try announceStart(opening: opening)
    // The clock never moves back, so an --until in the past can only apply overdue events; say
    // so, rather than let "nothing was due" suggest the date was reached.
    if let until, let clock = try? readClock(opening: opening), until < clock {
      LineOut.stderr("subdash: --until \(Format.date(until)) is before the file's clock (\(Format.date(clock))); the clock never moves back")
    }
    var done = 0
    // --fast stops at the last lifecycle event: win-back eligibility changes are invisible on
    // the dashboard and would walk the clock years ahead. --until (or --steps) asks for them.
    let lifecycleOnly = until == nil && steps == nil
    var skippedWinBack: SimEvent?
    var progress = SimulateProgress()
    while !signals.check() {
      if let steps, done >= steps { break }
      let change = try store.update(existing: name, wait: .bounded) { (s) throws(ActionError) -> SubscriberEdit in
        try Simulator.requireSimulatable(s)
        guard let next = try Simulator.nextEvent(s, opening: opening) else { return .leave }
        if let until, next.date > until { return .leave }
        if lifecycleOnly && next.kind == .winBackEligibility {
          skippedWinBack = next
          return .leave
        }
        return .save(try Simulator.advanceToNextEvent(s, opening: opening))
      }.written(refusal: refused, storage: SimulateInputError.init(storage:))
      guard let change else { break }
      emit(change)
      done += 1
      progress.tick(events: done, notifications: notificationCount, clock: try? Simulator.clock(change.state))
    }
    progress.clear()
    if let skippedWinBack {
      LineOut.stderr("subdash simulate: stopped at the last lifecycle event; next is a win-back eligibility change at \(Self.when(skippedWinBack.date)) (use --until to run on)")
    }
    if let until, !signals.stopped, steps.map({ done < $0 }) ?? true {
      let last = store.update(existing: name, wait: .bounded) { (s) throws(ActionError) in .saving(try Simulator.advance(s, to: until, opening: opening)) }
      if let c = try last.written(refusal: refused, storage: SimulateInputError.init(storage:)) { emit(c) }
    }
    finish(signals.stopped ? "stopped by signal" : done == 0 ? "nothing was due" : counted(done, "event"))
  }

  /// Driven by the wall clock at the file's rate: virtual time passes one-for-one with real time
  /// (scaled rates shorten periods, they do not speed the clock up), starting from the file's
  /// clock. The file is written when an event is due and otherwise about once a second, so
  /// dashboards see the clock move. Someone else moving the clock forward is kept, never undone.
  mutating func wallClock(signals: inout SimStopSignals) throws(SimulateInputError) {
    let opening = Instant(ms: SimWallClock.now())
    try announceStart(opening: opening)
    var base = try readClock(opening: opening)
    var wallStart = SimMonotonic.seconds()
    var lastTick = -1.0
    var announced: SimEvent??
    while !signals.stopped {
      let elapsed = SimMonotonic.seconds() - wallStart
      let target = base + Span(ms: (elapsed * 1000).rounded(.down))
      var nextDue: Instant?
      var nextEvent: SimEvent?
      var fileClock = target
      let change = try store.update(existing: name, wait: .bounded) { (s) throws(ActionError) -> SubscriberEdit in
        let clock = try Simulator.clock(s, opening: opening)
        fileClock = clock
        let next = try Simulator.nextEvent(s, opening: opening)
        nextDue = next?.date
        nextEvent = next
        let due = next.map { $0.date <= target } ?? false
        // Write when something is due, when the clock must move for the dashboards (once a
        // second), or when the file's clock is behind.
        guard due || elapsed - lastTick >= 1 || clock < base else { return .leave }
        var c = try Simulator.advance(s, to: max(target, clock), opening: opening)
        // The heartbeat dashboards show as "simulate running" (removed when this loop stops).
        SimulatorHeartbeat.write(SimulatorHeartbeat(pid: SimWallClock.pid, beat: Instant(ms: SimWallClock.now())), into: &c.state)
        return .save(c)
      }.written(refusal: refused, storage: SimulateInputError.init(storage:))
      if let change {
        emit(change)
        lastTick = elapsed
      }
      // Say what comes next at the start and after each event, so a slow rate is not silence.
      let now = max(target, fileClock)
      if announced != .some(nextEvent), nextEvent.map({ $0.date > now }) ?? true {
        announced = .some(nextEvent)
        LineOut.stderr(Self.nextLine(nextEvent, now: now))
      }
      if fileClock > target {  // moved on by someone else (a dashboard): follow, never rewind
        base = fileClock
        wallStart = SimMonotonic.seconds()
        lastTick = 0
        continue
      }
      let untilEvent = nextDue.map { max(0, ($0 - target).ms / 1000) } ?? 1
      _ = signals.sleep(seconds: min(1, max(0.01, untilEvent)))
    }
    clearHeartbeat()
    finish("stopped by signal")
  }

  /// `next: renewal at 2026-05-23 18:32:05 UTC (in 9d 03h)`: virtual time runs one-for-one with
  /// the wall clock, so the distance is also how long to wait.
  static func nextLine(_ next: SimEvent?, now: Instant) -> String {
    guard let next else { return "next: nothing is scheduled (the subscription will not renew, expire or change on its own)" }
    return "next: \(next.kind) at \(when(next.date)) (in \(Format.countdown(next.date - now)))"
  }

  /// A date to the second: at fast rates events are seconds apart.
  static func when(_ date: Instant) -> String { Format.dateShort(date, seconds: true, year: true) + " UTC" }

  /// A file without a simulated clock starts at the stated moment (`Simulator.startingClock`:
  /// the later of its newest date and now), as the dashboard's `>` and `+` do; say which.
  private func announceStart(opening: Instant) throws(SimulateInputError) {
    guard let s = try? StateFile.load(path: path), !Simulator.hasClock(s) else { return }
    let start = try readClock(opening: opening)
    LineOut.stderr("subdash simulate: \(path) has no simulated clock; it starts at \(Self.when(start)) (the later of the file's newest date and now)")
  }

  private func readClock(opening: Instant) throws(SimulateInputError) -> Instant {
    do {
      let s = try StateFile.load(path: path)
      return try Simulator.clock(s, opening: opening)
    } catch let e as StateFileError {
      throw SimulateInputError(e.description)
    } catch let e as ActionError {
      throw SimulateInputError(e.message)
    } catch {
      throw SimulateInputError("\(error)")
    }
  }

  /// Dashboards stop showing "simulate running" at once rather than when the stamp goes stale.
  private func clearHeartbeat() {
    _ = store.update(existing: name, wait: .bounded) { (s) throws(ActionError) -> SubscriberEdit in
      guard SimulatorHeartbeat.read(s) != nil else { return .leave }
      var cleared = s
      SimulatorHeartbeat.write(nil, into: &cleared)
      return .save(Change(state: cleared, message: "simulator stopped"))
    }
  }

  private mutating func emit(_ c: Change) {
    for n in c.notifications { output.print(n) }
    notificationCount += c.notifications.count
  }

  private func finish(_ why: String) {
    let clock = (try? StateFile.load(path: path)).flatMap { try? Simulator.clock($0) }
    LineOut.stderr("subdash simulate: \(why); \(counted(notificationCount, "notification")); clock \(clock.map { Self.when($0) } ?? "unset")")
  }
}
