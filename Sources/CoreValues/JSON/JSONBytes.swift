/// Pieces of JSON appended straight to a byte buffer, each exactly as `JSONWriter` writes the
/// `JSON` value it stands for, for output too long to build as values first (`show --json` of a
/// 100,000-period timeline: a dictionary-like object per period, a string per date, was most
/// of its time).
public enum JSONBytes {
  /// A newline and `indent` spaces, as between the items of a pretty-printed array or object.
  @inline(__always)
  public static func newline(_ out: inout [UInt8], indent: Int) { JSONWriter.newline(&out, indent) }

  /// `"key": ` (key escaped as `JSONWriter` escapes it).
  @inline(__always)
  public static func key(_ key: String, into out: inout [UInt8]) {
    JSONWriter.escape(key, into: &out)
    out.append(0x3A)
    out.append(0x20)
  }

  /// `JSON.string(s)`.
  @inline(__always)
  public static func string(_ s: String, into out: inout [UInt8]) { JSONWriter.escape(s, into: &out) }

  /// `s.map(JSON.string) ?? .null`.
  @inline(__always)
  public static func stringOrNull(_ s: String?, into out: inout [UInt8]) {
    if let s { JSONWriter.escape(s, into: &out) } else { null(into: &out) }
  }

  @inline(__always)
  public static func null(into out: inout [UInt8]) {
    out.append(0x6E); out.append(0x75); out.append(0x6C); out.append(0x6C)
  }

  /// `JSON.int(v)`: the decimal digits of `v`, as `String(v)` spells them.
  public static func int(_ v: Int64, into out: inout [UInt8]) {
    if v < 0 { out.append(0x2D) }
    var m = v.magnitude
    var digits: (UInt64, UInt64, UInt64) = (0, 0, 0)
    withUnsafeMutableBytes(of: &digits) { b in
      var i = b.count
      repeat {
        i -= 1
        b[i] = UInt8(truncatingIfNeeded: m % 10) &+ 0x30
        m /= 10
      } while m > 0
      out.append(contentsOf: UnsafeRawBufferPointer(rebasing: b[i...]))
    }
  }

  /// `JSON.double(v)`: whole values as integers, anything else as Swift spells the double.
  public static func double(_ v: Double, into out: inout [UInt8]) {
    if v.isFinite, v == v.rounded(), abs(v) < 9.0e15 { int(Int64(v), into: &out); return }
    JSONWriter.raw(v.isFinite ? String(v) : "0", into: &out)
  }

  /// `JSON.string(t.description)`: ISO 8601 in UTC. Whole milliseconds in years 1000–9999 (every
  /// date a state file may hold) are formatted here; anything else goes through `description`.
  public static func iso(_ t: Instant, into out: inout [UInt8]) {
    let f = Civil.fields(t.ms)
    guard f.fraction == 0, (1000...9999).contains(f.date.year) else {
      JSONWriter.escape(t.description, into: &out)
      return
    }
    out.append(0x22)
    fixed(f.date.year, 4, &out)
    out.append(0x2D)
    fixed(f.date.month, 2, &out)
    out.append(0x2D)
    fixed(f.date.day, 2, &out)
    out.append(0x54)
    fixed(f.hour, 2, &out)
    out.append(0x3A)
    fixed(f.minute, 2, &out)
    out.append(0x3A)
    fixed(f.second, 2, &out)
    if f.millisecond != 0 {
      out.append(0x2E)
      fixed(f.millisecond, 3, &out)
    }
    out.append(0x5A)
    out.append(0x22)
  }

  /// `width` decimal digits of a non-negative `value` below 10^width, zero-padded.
  @inline(__always)
  private static func fixed(_ value: Int, _ width: Int, _ out: inout [UInt8]) {
    var divisor = 1
    for _ in 1..<width { divisor &*= 10 }
    var v = value
    while divisor > 0 {
      out.append(UInt8(truncatingIfNeeded: v / divisor) &+ 0x30)
      v %= divisor
      divisor /= 10
    }
  }
}

/// The four bytes JSON allows between tokens (RFC 8259 §2): what a reader skips around a value.
public enum JSONWhitespace {
  public static func contains(_ b: UInt8) -> Bool { b == 0x20 || b == 0x0A || b == 0x0D || b == 0x09 }
}
