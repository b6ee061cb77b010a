import CoreValues
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
/// derived from the history's counters, the simulation seed and the subscriber, never from a
/// random source.
public enum Identifiers {
  /// A numeric transaction id in App Store style, unique within this subscriber's history.
  public static func transactionId(sequence: Int) -> String { String(2_000_000_000_000_000 + UInt64(max(0, sequence))) }

  public static func webOrderLineItemId(sequence: Int) -> String { String(3_000_000_000_000_000 + UInt64(max(0, sequence))) }

  /// The id for `sequence`, or the next after `highest` when the file already holds a larger one
  /// (an imported App Store history): Apple's ids only grow, and a backend ordering transactions
  /// by id must find the simulated ones last.
  public static func transactionId(sequence: Int, after highest: UInt64?) -> String {
    next(String(2_000_000_000_000_000 + UInt64(max(0, sequence))), after: highest)
  }

  public static func webOrderLineItemId(sequence: Int, after highest: UInt64?) -> String {
    next(String(3_000_000_000_000_000 + UInt64(max(0, sequence))), after: highest)
  }

  private static func next(_ id: String, after highest: UInt64?) -> String {
    guard let highest, let v = UInt64(id), v <= highest, highest < UInt64.max else { return id }
    return String(highest + 1)
  }

  /// A version-4-shaped UUID derived from (seed, subscriber, sequence, time) with SplitMix64.
  ///
  /// `subscriber` (`Subscriber.identityKey`: originalTransactionId and appAccountToken) is part
  /// of it because the seed defaults to 0 and every example file sits at the same virtual clock:
  /// without it the first notification written to two different files at the same moment had the
  /// same notificationUUID, and a test server de-duplicating by UUID (as Apple tells servers to)
  /// dropped the second. The same file and seed still give the same UUIDs.
  public static func notificationUUID(seed: UInt64, subscriber: String, sequence: Int, at time: Instant) -> String {
    var x = seed &+ fnv1a(subscriber) &+ UInt64(truncatingIfNeeded: sequence) &* 0x9E37_79B9_7F4A_7C15 &+ UInt64(truncatingIfNeeded: Int64(time.ms))
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

  /// FNV-1a over the UTF-8 bytes: a stable 64-bit digest (Swift's `hashValue` is seeded per
  /// process, so it would break determinism).
  static func fnv1a(_ text: String) -> UInt64 {
    var h: UInt64 = 0xCBF2_9CE4_8422_2325
    for byte in text.utf8 {
      h ^= UInt64(byte)
      h &*= 0x0000_0100_0000_01B3
    }
    return h
  }
}
