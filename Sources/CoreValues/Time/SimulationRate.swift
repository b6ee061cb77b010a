import FoundationEssentials

/// The rate the simulator runs at: a StoreKit Testing `TimeRate` or a sandbox renewal rate.
///
/// This is what `--rate` parses into. Both kinds answer the `RenewalTiming` questions, so the
/// engine needs only this type.
public enum SimulationRate: Hashable, Sendable, CaseIterable, CustomStringConvertible, RenewalTiming {
  case storeKitTest(TimeRate)
  case sandbox(SandboxRenewalRate)

  public static var allCases: [SimulationRate] {
    TimeRate.allCases.map(Self.storeKitTest) + SandboxRenewalRate.allCases.map(Self.sandbox)
  }

  /// Reads `--rate`. The canonical spellings are Apple's `SKTestSession.TimeRate` case names
  /// (`monthlyRenewalEveryFiveMinutes`, case-insensitive) and `sandbox-3m|5m|15m|30m|1h`.
  /// Also accepted: a `TimeRate` raw value (`13`) and plain `sandbox` (= `sandbox-5m`).
  public init(parsing text: String) throws(TimeParseError) {
    if let rate = try? SandboxRenewalRate(parsing: text) {
      self = .sandbox(rate)
    } else if let rate = try? TimeRate(parsing: text) {
      self = .storeKitTest(rate)
    } else {
      throw TimeParseError(
        kind: "rate", input: text,
        reason: "expected an SKTestSession.TimeRate name (e.g. monthlyRenewalEveryFiveMinutes), its raw value,"
          + " or sandbox-3m, sandbox-5m, sandbox-15m, sandbox-30m, sandbox-1h")
    }
  }

  /// Canonical spelling, which `init(parsing:)` reads back.
  public var name: String {
    switch self {
    case .storeKitTest(let rate): rate.name
    case .sandbox(let rate): rate.name
    }
  }

  public var description: String { name }

  public var schedule: RateSchedule {
    switch self {
    case .storeKitTest(let rate): rate.schedule
    case .sandbox(let rate): rate.schedule
    }
  }
}
