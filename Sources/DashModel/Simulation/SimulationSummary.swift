/// What the simulator is set to do beyond real time and a quiet catalog, in words for the
/// dashboard: the rate, failures armed for coming renewals (`f`, `--fail-renewals`, a failure
/// rate, scripted outcomes) and the other knobs. A developer sees why the next renewal will fail
/// before it does.
public struct SimulationSummary: Equatable, Sendable {
  /// The rate's name and speed-up, nil at real time: "monthlyRenewalEveryFiveMinutes, 8640x".
  public var rate: String?
  /// How much faster than the calendar a month passes (1 at real time).
  public var speedup: Int
  /// Failures waiting for renewals: "next renewal fails", "every renewal fails", "failure rate 20%".
  public var armed: [String]
  /// Other settings that change what happens: "Ask to Buy on", "grace off", "renewal cap 12".
  public var other: [String]

  public var isQuiet: Bool { rate == nil && armed.isEmpty && other.isEmpty }
}

extension Simulator {
  /// The summary of a state's settings; nil when they do not read (the key refusals say why).
  public static func summary(_ state: SubscriptionState) -> SimulationSummary? {
    guard let settings = try? SimulationSettings(of: state),
          let rules = try? SimulationRules(settings: settings, catalog: state.catalog) else { return nil }
    let speedup = Int(rules.rate.schedule.speedup.rounded())
    let isRealTime = rules.rate.schedule.renewal == .calendar
    let armed = armedFailures(settings: settings, rules: rules)
    var other: [String] = []
    if rules.askToBuy { other.append("Ask to Buy on") }
    if settings.gracePeriod != nil || rules.grace == .off { other.append("grace \(rules.grace)") }
    if let cap = rules.renewalCap { other.append("renewal cap \(cap)") }
    return SimulationSummary(
      rate: isRealTime ? nil : "\(rules.rate.name), \(speedup)x", speedup: speedup, armed: armed, other: other)
  }

  /// Failures waiting for coming renewals, in words; `renewalsSucceed` turns each of them off.
  static func armedFailures(settings: SimulationSettings, rules: SimulationRules) -> [String] {
    var armed: [String] = []
    let outcomes = settings.renewalOutcomes
    if outcomes.first == .fail {
      armed.append("next renewal fails")
    }
    if outcomes.count > 1 || (outcomes.count == 1 && outcomes.first != .fail) {
      armed.append("scripted outcomes: " + outcomes.map(\.text).joined(separator: ", "))
    }
    if rules.failRenewals { armed.append("every renewal fails") }
    if let rate = settings.failureRate, rate > 0 { armed.append("failure rate \(Int((rate * 100).rounded()))%") }
    return armed
  }
}
