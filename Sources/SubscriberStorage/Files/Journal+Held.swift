#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#elseif canImport(Darwin)
import Darwin
#endif
import CoreValues
import DashModel

extension Journal {
  /// Which of `keys` the committed journal holds, without decoding the entries that cannot be
  /// one of them.
  ///
  /// Why: an import or a notification asks this on every write, and decoding every entry made
  /// each write cost the history's length (`SubDashBench growth`: 92 ms at 10,000 entries, 422 ms
  /// at 50,000, against 1.4 ms for the save itself). The journal's bytes are searched for each key
  /// as a JSON string (`"2000000123"`); only the lines where it occurs are decoded, and a key is
  /// held only when such a line is an entry of that kind with that key, exactly as a full read
  /// decides. What the search could miss sends the whole journal through a full read, as before:
  /// a key JSON may spell another way (anything but letters, digits and `-_.:`, and `K`, which
  /// Swift takes as equal to the Kelvin sign), a journal that spells a printable character as an
  /// escape (`\u0031`: SubDash never writes one, a hand or another tool might), and more than
  /// `searchedKeysLimit` keys (a whole history imported again), where one search per key would
  /// cost more than decoding every line once.
  public static func held(_ keys: HistoryKeys, path: String, committedBytes: Int64) throws(StateFileError) -> HistoryKeys {
    guard committedBytes > 0, !keys.isEmpty else { return HistoryKeys() }
    return try held(keys, inJournal: committed(path: path, committedBytes: committedBytes), file: PathName.fileName(of: path))
  }

  /// `held` over a journal's committed bytes in memory (the fuzzer's entry too).
  static func held(_ keys: HistoryKeys, inJournal journal: ArraySlice<UInt8>, file: String) throws(StateFileError) -> HistoryKeys {
    guard keys.transactionIds.count + keys.notificationUUIDs.count <= searchedKeysLimit,
          keys.transactionIds.allSatisfy(isPlainKey), keys.notificationUUIDs.allSatisfy(isPlainKey),
          !spellsAPrintableCharacterAsAnEscape(journal) else {
      return keys.held(in: try decodeAll(journal, file: file))
    }
    // Lines already decoded, by where they start: a renewal's id is in its transaction's line and
    // in its notification's, and both keys of one write may point at the same lines.
    var decoded: [Int: Entry] = [:]
    var out = HistoryKeys()
    try journal.withUnsafeBufferPointer { (all) throws(StateFileError) in
      for id in keys.transactionIds {
        let found = try someEntry(quoting: id, in: all, file: file, decoded: &decoded) {
          if case .transaction(let t) = $0 { t.transactionId == id } else { false }
        }
        if found { out.transactionIds.insert(id) }
      }
      for uuid in keys.notificationUUIDs {
        let found = try someEntry(quoting: uuid, in: all, file: file, decoded: &decoded) {
          if case .notification(let n) = $0 { n.identity == uuid } else { false }
        }
        if found { out.notificationUUIDs.insert(uuid) }
      }
    }
    return out
  }

  /// Every entry of a journal's committed bytes, oldest first; a damaged one is an error with its line.
  static func decodeAll(_ journal: ArraySlice<UInt8>, file: String) throws(StateFileError) -> [Entry] {
    var out: [Entry] = []
    for (k, line) in journal.split(separator: 0x0A).enumerated() {
      do { out.append(try decode(Array(line), file: file)) } catch { var e = error; e.line = k + 1; throw e }
    }
    return out
  }

  /// Keys a write asks for one at a time: a notification asks two. A search per key reads the
  /// journal once each (~0.5 ms per 4 MiB here), decoding every line once costs ~20 ms per MiB.
  static let searchedKeysLimit = 8

  /// Letters, digits and `-_.:` but `K`: in a journal without escaped printable characters, a JSON
  /// string equal to such a key has the key's bytes and no others. (`K` is the one such character
  /// another one is canonically equivalent to, the Kelvin sign, and Swift's `==` says they are equal.)
  static func isPlainKey(_ key: String) -> Bool {
    !key.isEmpty && key.utf8.allSatisfy { b in
      (b >= 0x30 && b <= 0x39) || (b >= 0x41 && b <= 0x5A && b != UInt8(ascii: "K")) || (b >= 0x61 && b <= 0x7A)
        || b == UInt8(ascii: "-") || b == UInt8(ascii: "_") || b == UInt8(ascii: ".") || b == UInt8(ascii: ":")
    }
  }

  /// Whether the journal writes a printable ASCII character as `\u00XX` (XX from 20 to 7F), the
  /// one way a plain key could be in it under other bytes.
  static func spellsAPrintableCharacterAsAnEscape(_ journal: ArraySlice<UInt8>) -> Bool {
    // By backslash (memchr: a vector scan), since a journal has few: a four-byte `memmem` needle
    // skips too little and took longer than the keys' own searches.
    journal.withUnsafeBufferPointer { all in
      guard let base = all.baseAddress else { return false }
      var from = 0
      while from < all.count, let hit = memchr(base + from, Int32(UInt8(ascii: "\\")), all.count - from) {
        let at = UnsafeRawPointer(base).distance(to: UnsafeRawPointer(hit))
        if at + 4 < all.count, all[at + 1] == UInt8(ascii: "u"), all[at + 2] == UInt8(ascii: "0"), all[at + 3] == UInt8(ascii: "0"),
           all[at + 4] >= UInt8(ascii: "2"), all[at + 4] <= UInt8(ascii: "7") { return true }
        // An escaped backslash is one character: what follows it starts no escape.
        from = at + (at + 1 < all.count && all[at + 1] == UInt8(ascii: "\\") ? 2 : 1)
      }
      return false
    }
  }

  /// Whether a line holding `"key"` is an entry `matches` accepts. A damaged line met on the way
  /// is the error a full read gives, with its line number.
  private static func someEntry(quoting key: String, in journal: UnsafeBufferPointer<UInt8>, file: String,
                                decoded: inout [Int: Entry], matches: (Entry) -> Bool) throws(StateFileError) -> Bool {
    let needle = Array("\"\(key)\"".utf8)
    var from = 0
    while let at = ByteSearch.firstIndex(of: needle, in: journal, from: from) {
      var start = at
      while start > 0 && journal[start - 1] != 0x0A { start -= 1 }
      var stop = at + needle.count
      while stop < journal.count && journal[stop] != 0x0A { stop += 1 }
      let entry: Entry
      if let known = decoded[start] {
        entry = known
      } else {
        do { entry = try decode(Array(journal[start..<stop]), file: file) } catch {
          var e = error
          // Numbered as a full read numbers them: blank lines are not entries.
          e.line = journal[..<start].split(separator: 0x0A).count + 1
          throw e
        }
        decoded[start] = entry
      }
      if matches(entry) { return true }
      from = stop + 1
    }
    return false
  }
}
