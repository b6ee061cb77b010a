/// Small statistics and formatting for benchmark tables.
enum Stats {
  static func median(_ xs: [Double]) -> Double {
    guard !xs.isEmpty else { return .nan }
    let s = xs.sorted()
    return s.count % 2 == 1 ? s[s.count / 2] : (s[s.count / 2 - 1] + s[s.count / 2]) / 2
  }

  static func percentile(_ xs: [Double], _ p: Double) -> Double {
    guard !xs.isEmpty else { return .nan }
    let s = xs.sorted()
    return s[min(s.count - 1, Int((Double(s.count - 1) * p).rounded()))]
  }

  /// "0.253 s" or "12.4 ms" or "85 µs": three significant figures in a readable unit.
  static func time(_ seconds: Double) -> String {
    if seconds.isNaN { return "n/a" }
    if seconds >= 1 { return fixed(seconds, 2) + " s" }
    if seconds >= 0.001 { return fixed(seconds * 1000, seconds >= 0.1 ? 0 : 1) + " ms" }
    return fixed(seconds * 1_000_000, 0) + " µs"
  }

  static func bytes(_ n: Int) -> String {
    if n >= 1 << 20 { return fixed(Double(n) / Double(1 << 20), 1) + " MiB" }
    if n >= 1 << 10 { return fixed(Double(n) / Double(1 << 10), 1) + " KiB" }
    return "\(n) B"
  }

  static func fixed(_ v: Double, _ decimals: Int) -> String {
    var scale = 1.0
    for _ in 0..<decimals { scale *= 10 }
    let r = (v * scale).rounded() / scale
    var s = String(r)
    if decimals == 0, s.hasSuffix(".0") { s.removeLast(2) }
    if let dot = s.firstIndex(of: "."), decimals > 0 {
      let have = s.distance(from: dot, to: s.endIndex) - 1
      if have < decimals { s += String(repeating: "0", count: decimals - have) }
    }
    return s
  }
}
