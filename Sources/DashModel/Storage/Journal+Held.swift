#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#elseif canImport(Darwin)
import Darwin
#endif

extension Journal {
  /// Which of `keys` the committed journal holds, without decoding the entries that cannot be
  /// one of them.
  ///
  /// Why: an import or a notification asks this on every write, and decoding every entry made
  /// each write cost the history's length (`SubDashBench growth`: 92 ms at 10,000 entries, 422 ms
  /// at 50,000, against 1.4 ms for the save itself). The journal's bytes are searched for each key
  /// as a JSON string (`"2000000123"`); only the lines where it occurs are decoded, and a key is
  /// held only when such a line is an entry of that kind with that key, exactly as a full read
  /// decides. A key the search could miss (one JSON may spell another way: anything but letters,
  /// digits and `-_.:`) sends the whole journal through a full read, as before.
  public static func held(_ keys: HistoryKeys, path: String, committedBytes: Int64) throws(StateFileError) -> HistoryKeys {
    guard committedBytes > 0, !keys.isEmpty else { return HistoryKeys() }
    let name = PathName.fileName(of: path)
    let bytes: [UInt8]
    switch Posix.readAll(path: path, limit: Int.max, followSymlinks: false) {
    case .failure(let why): throw StateFileError(file: name, message: "cannot read the history journal: \(why)")
    case .success(let b): bytes = b
    }
    guard Int64(bytes.count) >= committedBytes else { throw StateFileError(file: name, message: "the history journal is shorter than the state file says") }
    return try held(keys, inJournal: bytes[..<Int(committedBytes)], file: name)
  }

  /// `held` over a journal's committed bytes in memory (the fuzzer's entry too).
  static func held(_ keys: HistoryKeys, inJournal journal: ArraySlice<UInt8>, file: String) throws(StateFileError) -> HistoryKeys {
    guard keys.transactionIds.allSatisfy(isPlainKey), keys.notificationUUIDs.allSatisfy(isPlainKey) else {
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
          if case .notification(let n) = $0 { n.notificationUUID == uuid } else { false }
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

  /// Letters, digits and `-_.:`: a JSON string of these has one spelling, the one searched for
  /// (JSON could write any character as `\u00XX`, but only as a choice no writer of journals makes
  /// for these).
  static func isPlainKey(_ key: String) -> Bool {
    !key.isEmpty && key.utf8.allSatisfy { b in
      (b >= 0x30 && b <= 0x39) || (b >= 0x41 && b <= 0x5A) || (b >= 0x61 && b <= 0x7A)
        || b == UInt8(ascii: "-") || b == UInt8(ascii: "_") || b == UInt8(ascii: ".") || b == UInt8(ascii: ":")
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
          e.line = journal[..<start].reduce(1) { $1 == 0x0A ? $0 + 1 : $0 }
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
