import DashModel

/// What the filter searches, laid out for a scan of 100,000 rows per keystroke: every row's
/// lowercased search text and product text in one byte buffer (no per-row arrays to retain and
/// release), and its status and flags as one bit mask. A changed row's new text is appended and
/// its old bytes are left unreferenced; the buffer is compacted when they outweigh the live ones.
struct ListSearch: Equatable, Sendable {
  private var bytes: [UInt8] = []
  /// Per row: where its search text and its product text are in `bytes`.
  private var text: [Range<Int32>] = []
  private var product: [Range<Int32>] = []
  private var masks: [UInt32] = []
  private var liveBytes = 0

  init(_ rows: [ListRow] = []) {
    text.reserveCapacity(rows.count)
    product.reserveCapacity(rows.count)
    masks.reserveCapacity(rows.count)
    for row in rows { append(row) }
  }

  mutating func append(_ row: ListRow) {
    text.append(0..<0)
    product.append(0..<0)
    masks.append(0)
    set(text.count - 1, row)
  }

  /// Replaces row `i`'s entry (a live change).
  mutating func set(_ i: Int, _ row: ListRow) {
    liveBytes -= text[i].count + product[i].count
    var start = Int32(bytes.count)
    row.appendSearchText(to: &bytes)
    text[i] = start..<Int32(bytes.count)
    start = Int32(bytes.count)
    row.appendProductText(to: &bytes)
    product[i] = start..<Int32(bytes.count)
    masks[i] = Self.mask(row)
    liveBytes += text[i].count + product[i].count
    if bytes.count > 1 << 16 && bytes.count > 2 * liveBytes { compact() }
  }

  /// Keeps only the rows at `kept` (in that order): the rows that survive a deletion.
  mutating func keep(_ kept: [Int]) {
    var next = ListSearch()
    next.bytes.reserveCapacity(liveBytes)
    for i in kept {
      next.text.append(next.store(Array(bytes[Int(text[i].lowerBound)..<Int(text[i].upperBound)])))
      next.product.append(next.store(Array(bytes[Int(product[i].lowerBound)..<Int(product[i].upperBound)])))
      next.masks.append(masks[i])
    }
    next.liveBytes = next.bytes.count
    self = next
  }

  private mutating func compact() { keep(Array(text.indices)) }

  private mutating func store(_ piece: [UInt8]) -> Range<Int32> {
    let start = Int32(bytes.count)
    bytes.append(contentsOf: piece)
    return start..<Int32(bytes.count)
  }

  /// The rows of `order` that match every term, in that order.
  func matching(_ filter: ListFilter, in order: [Int]) -> [Int] {
    var need: UInt32 = 0
    var statusAny: UInt32 = 0, flagSets: [UInt32] = []
    var texts: [[UInt8]] = [], products: [[UInt8]] = []
    for term in filter.terms {
      switch term {
      case .status(let any):
        // Several status terms must all hold: their intersection.
        let m = any.reduce(UInt32(0)) { $0 | Self.bit($1) }
        statusAny = need & Self.statusBits != 0 ? statusAny & m : m
        need |= Self.statusBits
      case .flag(let any): flagSets.append(any.reduce(UInt32(0)) { $0 | Self.bit($1) })
      case .product(let p): products.append(Array(p.utf8))
      case .text(let t): texts.append(Array(t.utf8))
      }
    }
    return bytes.withUnsafeBufferPointer { buffer in
      var out: [Int] = []
      rows: for i in order {
        let m = masks[i]
        if need != 0 && m & statusAny == 0 { continue }
        for f in flagSets where m & f == 0 { continue rows }
        for t in texts where !Self.contains(buffer, text[i], t) { continue rows }
        for p in products where !Self.contains(buffer, product[i], p) { continue rows }
        out.append(i)
      }
      return out
    }
  }

  /// Byte substring search inside one row's range (lowercased text, so bytes suffice).
  private static func contains(_ hay: UnsafeBufferPointer<UInt8>, _ range: Range<Int32>, _ needle: [UInt8]) -> Bool {
    let n = needle.count
    guard n > 0 else { return true }
    let lo = Int(range.lowerBound), hi = Int(range.upperBound)
    guard hi - lo >= n else { return false }
    let first = needle[0]
    var i = lo
    let last = hi - n
    while i <= last {
      if hay[i] == first {
        var j = 1
        while j < n && hay[i + j] == needle[j] { j += 1 }
        if j == n { return true }
      }
      i += 1
    }
    return false
  }

  private static let statusBits: UInt32 = (1 << UInt32(ListStatus.allCases.count)) - 1

  private static func bit(_ s: ListStatus) -> UInt32 { 1 << UInt32(ListStatus.allCases.firstIndex(of: s)!) }

  private static func bit(_ f: ListFlag) -> UInt32 { 1 << UInt32(ListStatus.allCases.count + ListFlag.allCases.firstIndex(of: f)!) }

  private static func mask(_ row: ListRow) -> UInt32 { row.flags.reduce(bit(row.status)) { $0 | bit($1) } }
}
