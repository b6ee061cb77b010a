/// Writes JSON deterministically: two-space indentation, keys in the object's own order, numbers
/// exactly as stored. Determinism is what makes "same scenario + seed = byte-identical file" true.
///
/// Bytes are appended straight from each string's UTF-8 storage: `show --json` of a long history
/// writes tens of megabytes, and making a temporary array per value (as `Array(s.utf8)` does)
/// was most of the writing time.
public enum JSONWriter {
  public static func write(_ value: JSON, pretty: Bool = true) -> [UInt8] {
    var out: [UInt8] = []
    out.reserveCapacity(4096)
    emit(value, into: &out, indent: 0, pretty: pretty)
    if pretty { out.append(0x0A) }
    return out
  }

  public static func string(_ value: JSON, pretty: Bool = true) -> String {
    String(decoding: write(value, pretty: pretty), as: UTF8.self)
  }

  /// Writes `object` pretty-printed, as `write(.object(object))` would, except that the values of
  /// the keys in `spliced` are written by their closures, which append exactly the bytes
  /// `write` would have written for that value at the indentation they are given (`show --json`
  /// writes a 100,000-period timeline straight from its structs this way).
  public static func write(_ object: JSONObject, splicing spliced: [String: (inout [UInt8], _ indent: Int) -> Void],
                           reservingCapacity capacity: Int = 4096) -> [UInt8] {
    var out: [UInt8] = []
    out.reserveCapacity(capacity)
    if object.count == 0 {
      out.append(contentsOf: [0x7B, 0x7D, 0x0A])
      return out
    }
    out.append(0x7B)
    for (k, e) in object.entries.enumerated() {
      if k > 0 { out.append(0x2C) }
      newline(&out, 2)
      escape(e.key, into: &out)
      out.append(0x3A)
      out.append(0x20)
      if let writer = spliced[e.key] { writer(&out, 2) } else { emit(e.value, into: &out, indent: 2, pretty: true) }
    }
    newline(&out, 0)
    out.append(0x7D)
    out.append(0x0A)
    return out
  }

  static func newline(_ out: inout [UInt8], _ indent: Int) {
    // The line break and up to 15 spaces appended as one run, not byte by byte: a long timeline
    // writes seven of these per period. (The words' bytes are in memory order on any platform.)
    if indent >= 0, indent < 16 {
      var run = (UInt64(littleEndian: 0x2020_2020_2020_200A), UInt64(littleEndian: 0x2020_2020_2020_2020))
      withUnsafeBytes(of: &run) { out.append(contentsOf: UnsafeRawBufferPointer(rebasing: $0[0..<(indent + 1)])) }
      return
    }
    out.append(0x0A)
    for _ in 0..<indent { out.append(0x20) }
  }

  /// Appends a string's UTF-8 bytes without a temporary array (native strings are contiguous).
  @inline(__always)
  static func raw(_ s: String, into out: inout [UInt8]) {
    var s = s
    s.withUTF8 { out.append(contentsOf: $0) }
  }

  private static func emit(_ v: JSON, into out: inout [UInt8], indent: Int, pretty: Bool) {
    switch v {
    case .null: out.append(contentsOf: [0x6E, 0x75, 0x6C, 0x6C])
    case .bool(let b): b ? out.append(contentsOf: [0x74, 0x72, 0x75, 0x65]) : out.append(contentsOf: [0x66, 0x61, 0x6C, 0x73, 0x65])
    case .number(let n): raw(n, into: &out)
    case .string(let s): escape(s, into: &out)
    case .array(let items):
      if items.isEmpty { out.append(contentsOf: [0x5B, 0x5D]); return }
      out.append(0x5B)
      for k in items.indices {
        if k > 0 { out.append(0x2C) }
        if pretty { newline(&out, indent + 2) }
        emit(items[k], into: &out, indent: indent + 2, pretty: pretty)
      }
      if pretty { newline(&out, indent) }
      out.append(0x5D)
    case .object(let obj):
      if obj.count == 0 { out.append(contentsOf: [0x7B, 0x7D]); return }
      out.append(0x7B)
      for (k, e) in obj.entries.enumerated() {
        if k > 0 { out.append(0x2C) }
        if pretty { newline(&out, indent + 2) }
        escape(e.key, into: &out)
        out.append(0x3A)
        if pretty { out.append(0x20) }
        emit(e.value, into: &out, indent: indent + 2, pretty: pretty)
      }
      if pretty { newline(&out, indent) }
      out.append(0x7D)
    }
  }

  private static let hex: [UInt8] = Array("0123456789abcdef".utf8)

  static func escape(_ s: String, into out: inout [UInt8]) {
    out.append(0x22)
    var s = s
    s.withUTF8 { bytes in
      // Runs of bytes that need no escape (almost all of them) are copied at once.
      var start = 0
      for i in bytes.indices {
        let b = bytes[i]
        guard b < 0x20 || b == 0x22 || b == 0x5C || b == 0x7F else { continue }
        if start < i { out.append(contentsOf: UnsafeBufferPointer(rebasing: bytes[start..<i])) }
        start = i + 1
        switch b {
        case 0x22: out.append(contentsOf: [0x5C, 0x22])
        case 0x5C: out.append(contentsOf: [0x5C, 0x5C])
        case 0x0A: out.append(contentsOf: [0x5C, 0x6E])
        case 0x0D: out.append(contentsOf: [0x5C, 0x72])
        case 0x09: out.append(contentsOf: [0x5C, 0x74])
        default: out.append(contentsOf: [0x5C, 0x75, 0x30, 0x30, hex[Int(b >> 4)], hex[Int(b & 0xF)]])
        }
      }
      if start < bytes.count { out.append(contentsOf: UnsafeBufferPointer(rebasing: bytes[start...])) }
    }
    out.append(0x22)
  }
}
