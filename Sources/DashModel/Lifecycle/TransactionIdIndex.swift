import CoreValues
/// Where each transaction id was first met while folding a history (`FoldedHistory`): the same
/// answers as a `[String: Int]`, for less.
///
/// Why: with 100,000 transactions the dictionary was half of the fold, about 25 ms of `show`:
/// SipHash over every id, and every id retained into its storage. App Store ids are ASCII
/// digits, and for ASCII text Swift's string equality is byte equality, so a table keyed by a
/// cheap hash of the bytes (`StringInterner.hash`) finds exactly the ids the dictionary finds,
/// comparing strings only when two hashes agree. The first id that is not ASCII (Swift compares
/// such strings by canonical equivalence: "\u{212A}" is "K") moves everything to a dictionary.
struct TransactionIdIndex {
  /// Per slot: the value stored plus one (0: empty), and the hash of its id.
  private var values: [Int]
  private var hashes: [UInt64]
  private var count = 0
  /// Set once an id is not ASCII; the table is then empty and unused.
  private var dictionary: [String: Int]? = nil

  init(expected: Int) {
    var n = 16
    while n < expected * 2, n < 1 << 40 { n *= 2 }
    values = [Int](repeating: 0, count: n)
    hashes = [UInt64](repeating: 0, count: n)
  }

  /// The value stored for `id`, or nil after storing `value` for it. `idOf(v)` is the id a
  /// stored value `v` was stored for (read back only when hashes agree, or to move to a dictionary).
  mutating func claim(_ id: String, value: Int, idOf: (Int) -> String?) -> Int? {
    if dictionary == nil, let hash = Self.asciiHash(id) {
      let (slot, found) = lookUp(id, hash, idOf)
      if let found { return found }
      values[slot] = value + 1
      hashes[slot] = hash
      count += 1
      if count * 2 > values.count { grow() }
      return nil
    }
    var d = dictionary ?? movedToDictionary(idOf)
    dictionary = nil  // `d` is the only reference while it changes
    defer { dictionary = d }
    if let found = d[id] { return found }
    d[id] = value
    return nil
  }

  /// The value stored for `id`, if any.
  func find(_ id: String, idOf: (Int) -> String?) -> Int? {
    if let dictionary { return dictionary[id] }
    if let hash = Self.asciiHash(id) { return lookUp(id, hash, idOf).found }
    // An id that is not ASCII may still equal a stored ASCII one ("\u{212A}1" is "K1"): compared
    // with each, as the dictionary would. Once per fold (the latest transaction), and rare.
    for k in values.indices where values[k] != 0 && idOf(values[k] - 1) == id { return values[k] - 1 }
    return nil
  }

  /// The slot holding `id`'s value (and the value), or the empty slot where it belongs.
  private func lookUp(_ id: String, _ hash: UInt64, _ idOf: (Int) -> String?) -> (slot: Int, found: Int?) {
    let mask = values.count - 1
    var slot = Self.home(hash, in: values.count)
    while values[slot] != 0 {
      if hashes[slot] == hash, idOf(values[slot] - 1) == id { return (slot, values[slot] - 1) }
      slot = (slot + 1) & mask
    }
    return (slot, nil)
  }

  private mutating func grow() {
    let (oldValues, oldHashes) = (values, hashes)
    values = [Int](repeating: 0, count: oldValues.count * 2)
    hashes = [UInt64](repeating: 0, count: oldValues.count * 2)
    let mask = values.count - 1
    for k in oldValues.indices where oldValues[k] != 0 {
      var slot = Self.home(oldHashes[k], in: values.count)
      while values[slot] != 0 { slot = (slot + 1) & mask }
      values[slot] = oldValues[k]
      hashes[slot] = oldHashes[k]
    }
  }

  /// Everything stored so far, as a dictionary (the table is emptied).
  private mutating func movedToDictionary(_ idOf: (Int) -> String?) -> [String: Int] {
    var d: [String: Int] = [:]
    d.reserveCapacity(count * 2)
    for k in values.indices where values[k] != 0 {
      if let id = idOf(values[k] - 1) { d[id] = values[k] - 1 }
    }
    values = []
    hashes = []
    count = 0
    return d
  }

  /// The first slot to try for `hash` in a table of `size` slots (a power of two): the top bits of
  /// the hash times the golden ratio. Not its low bits: ids of one history differ in their last
  /// digits, which the byte hash moves into its high bits only, so low bits put most ids in one
  /// run of slots (the first version of this table was slower than the dictionary for that).
  @inline(__always)
  static func home(_ hash: UInt64, in size: Int) -> Int {
    Int(truncatingIfNeeded: (hash &* 0x9E37_79B9_7F4A_7C15) >> UInt64(64 - size.trailingZeroBitCount))
  }

  /// The hash of an ASCII id's bytes; nil when it is not ASCII.
  static func asciiHash(_ id: String) -> UInt64? {
    id.utf8.withContiguousStorageIfAvailable { bytes -> UInt64? in
      var high: UInt8 = 0
      for b in bytes { high |= b }
      return high < 0x80 ? StringInterner.hash(bytes) : nil
    } ?? nil
  }
}
