import CoreValues
/// `simulation.runner`: a running `subdash simulate` (driven by the wall clock) stamps it with
/// every write, about once a second, and removes it when it stops, so a dashboard can say a
/// simulator is running and at what rate. A stamp older than `staleAfter` (a simulator killed
/// with SIGKILL) is not believed. Unknown to older SubDash versions, which keep it untouched.
public struct SimulatorHeartbeat: Equatable, Sendable {
  public static let key = "runner"
  /// Three missed writes.
  public static let staleAfter = Span.seconds(3)

  public var pid: Int
  /// The wall clock of the simulator's last write.
  public var beat: Instant

  public init(pid: Int, beat: Instant) {
    self.pid = pid
    self.beat = beat
  }

  public static func read(_ state: SubscriptionState) -> SimulatorHeartbeat? {
    guard case .object(let o)? = state.document.simulation?[key],
          case .number(let pidText)? = o["pid"], let pid = Int(pidText),
          case .number(let beatText)? = o["beat"], let beat = Double(beatText) else { return nil }
    return SimulatorHeartbeat(pid: pid, beat: Instant(ms: beat))
  }

  /// Writes `heartbeat` into the state's `simulation` object, or removes it (nil).
  public static func write(_ heartbeat: SimulatorHeartbeat?, into state: inout SubscriptionState) {
    var sim = state.document.simulation ?? JSONObject()
    sim[key] = heartbeat.map { .object(JSONObject([("pid", .number("\($0.pid)")), ("beat", .double($0.beat.ms))])) }
    state.document.simulation = sim
  }

  /// Whether the simulator wrote within `staleAfter` of `wall` (either side: clocks of two
  /// processes on one machine agree, but a file copied from elsewhere may not).
  public func isAlive(at wall: Instant) -> Bool {
    abs((wall - beat).ms) < Self.staleAfter.ms
  }
}
