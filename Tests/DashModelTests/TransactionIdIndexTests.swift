import Testing
@testable import DashModel
@testable import CoreValues

/// The fold of a history finds a transaction's earlier versions by id (`TransactionIdIndex`): it
/// must answer exactly as a `[String: Int]` does, Swift's string equality included.
@Suite struct TransactionIdIndexTests {
  /// Claims `ids` in turn in both, as `FoldedHistory` does (the value is the count of new ids),
  /// and returns what each answered.
  private func claims(_ ids: [String], expected: Int = 16) -> (index: [Int?], dictionary: [Int?]) {
    var index = TransactionIdIndex(expected: expected)
    var dictionary: [String: Int] = [:]
    var stored: [String] = []  // by value: the id it was stored for
    var fromIndex: [Int?] = [], fromDictionary: [Int?] = []
    for id in ids {
      let found = index.claim(id, value: stored.count, idOf: { stored[$0] })
      fromIndex.append(found)
      if let d = dictionary[id] { fromDictionary.append(d) } else { dictionary[id] = stored.count; fromDictionary.append(nil) }
      if found == nil { stored.append(id) }
    }
    return (fromIndex, fromDictionary)
  }

  @Test func repeatedIdsAreFoundAsADictionaryFindsThem() {
    // 5,000 ids, every seventh a later version of an earlier one: the table grows many times.
    var ids: [String] = []
    for k in 0..<5_000 { ids.append(k % 7 == 6 ? "20000000000\(k / 3)" : "20000000000\(k)") }
    let (index, dictionary) = claims(ids)
    #expect(index == dictionary)
    #expect(index.contains { $0 != nil }, "some ids repeat")
  }

  @Test func idsThatAreNotASCIIAreComparedAsSwiftComparesStrings() {
    // The Kelvin sign is "K" to Swift; "é" written two ways is one string too.
    for ids in [["K1", "2", "\u{212A}1"], ["\u{212A}1", "K1"], ["caf\u{E9}", "x", "cafe\u{301}", "caf\u{E9}"],
                (0..<100).map { "\($0)" } + ["\u{212A}", "K", "7"]] {
      let (index, dictionary) = claims(ids)
      #expect(index == dictionary, "\(ids.suffix(4))")
    }
    var index = TransactionIdIndex(expected: 4)
    _ = index.claim("K1", value: 0, idOf: { _ in "K1" })
    #expect(index.find("\u{212A}1", idOf: { _ in "K1" }) == 0, "found in the table: the Kelvin sign is K")
    #expect(index.find("\u{212A}9", idOf: { _ in "K1" }) == nil)
    _ = index.claim("\u{212A}2", value: 1, idOf: { $0 == 0 ? "K1" : "\u{212A}2" })
    #expect(index.find("\u{212A}1", idOf: { $0 == 0 ? "K1" : "\u{212A}2" }) == 0, "and in the dictionary")
  }

  /// Different ids whose hashes share a slot (a table of 16 slots) are told apart by comparing them.
  @Test func idsSharingASlotAreToldApart() {
    let ids = (0..<12).map { "id\($0)" } + (0..<12).map { "id\($0)" }
    let (index, dictionary) = claims(ids, expected: 1)
    #expect(index == dictionary)
    #expect(index.suffix(12) == (0..<12).map { Optional($0) })
  }
}
