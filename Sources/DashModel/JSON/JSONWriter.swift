/// Writes JSON deterministically: two-space indentation, keys in the object's own order, numbers
/// exactly as stored. Determinism is what makes "same scenario + seed = byte-identical file" true.
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

  private static func newline(_ out: inout [UInt8], _ indent: Int) {
    out.append(0x0A)
    out.append(contentsOf: repeatElement(0x20, count: indent))
  }

  private static func emit(_ v: JSON, into out: inout [UInt8], indent: Int, pretty: Bool) {
    switch v {
    case .null: out.append(contentsOf: Array("null".utf8))
    case .bool(let b): out.append(contentsOf: Array((b ? "true" : "false").utf8))
    case .number(let n): out.append(contentsOf: Array(n.utf8))
    case .string(let s): escape(s, into: &out)
    case .array(let items):
      if items.isEmpty { out.append(contentsOf: [0x5B, 0x5D]); return }
      out.append(0x5B)
      for (k, item) in items.enumerated() {
        if k > 0 { out.append(0x2C) }
        if pretty { newline(&out, indent + 2) }
        emit(item, into: &out, indent: indent + 2, pretty: pretty)
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
    for b in s.utf8 {
      switch b {
      case 0x22: out.append(contentsOf: [0x5C, 0x22])
      case 0x5C: out.append(contentsOf: [0x5C, 0x5C])
      case 0x0A: out.append(contentsOf: [0x5C, 0x6E])
      case 0x0D: out.append(contentsOf: [0x5C, 0x72])
      case 0x09: out.append(contentsOf: [0x5C, 0x74])
      case 0..<0x20, 0x7F:
        out.append(contentsOf: [0x5C, 0x75, 0x30, 0x30, hex[Int(b >> 4)], hex[Int(b & 0xF)]])
      default: out.append(b)
      }
    }
    out.append(0x22)
  }
}
