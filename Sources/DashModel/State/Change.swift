/// What an action or a simulation step produces: the new current state, the history entries it
/// appends, the notifications it emits, and a one-line human result for the status line.
public struct Change: Equatable, Sendable {
  public var state: SubscriptionState
  public var transactions: [TransactionPayload]
  public var notifications: [NotificationRecord]
  public var message: String

  public init(state: SubscriptionState, transactions: [TransactionPayload] = [], notifications: [NotificationRecord] = [], message: String) {
    self.state = state
    self.transactions = transactions
    self.notifications = notifications
    self.message = message
  }
}

/// Deterministic identifiers, so the same scenario and seed give a byte-identical file. They are
/// derived from the history's counters (and the simulation seed), never from a random source.
public enum Identifiers {
  /// A numeric transaction id in App Store style, unique within this subscriber's history.
  public static func transactionId(sequence: Int) -> String { String(2_000_000_000_000_000 + UInt64(max(0, sequence))) }

  public static func webOrderLineItemId(sequence: Int) -> String { String(3_000_000_000_000_000 + UInt64(max(0, sequence))) }

  /// A version-4-shaped UUID derived from (seed, sequence, time) with SplitMix64.
  public static func notificationUUID(seed: UInt64, sequence: Int, at time: Instant) -> String {
    var x = seed &+ UInt64(truncatingIfNeeded: sequence) &* 0x9E37_79B9_7F4A_7C15 &+ UInt64(truncatingIfNeeded: Int64(time.ms))
    func next() -> UInt64 {
      x &+= 0x9E37_79B9_7F4A_7C15
      var z = x
      z = (z ^ (z >> 30)) &* 0xBF58_476D_1CE4_E5B9
      z = (z ^ (z >> 27)) &* 0x94D0_49BB_1331_11EB
      return z ^ (z >> 31)
    }
    let a = next(), b = next()
    let hex = { (v: UInt64, n: Int) -> String in
      let s = String(v, radix: 16)
      return String(repeating: "0", count: max(0, n - s.count)) + s.suffix(n)
    }
    let timeLow = hex(a >> 32, 8)
    let timeMid = hex((a >> 16) & 0xFFFF, 4)
    let version = hex(0x4000 | (a & 0x0FFF), 4)
    let variant = hex(0x8000 | ((b >> 48) & 0x3FFF), 4)
    let node = hex(b & 0xFFFF_FFFF_FFFF, 12)
    return "\(timeLow)-\(timeMid)-\(version)-\(variant)-\(node)"
  }
}
