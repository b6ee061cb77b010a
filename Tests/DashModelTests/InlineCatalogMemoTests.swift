import Foundation
import Testing
@testable import DashModel
@testable import CoreValues
@testable import SubscriberStorage

/// Files that hold the same inline catalog share one read of it (`InlineCatalogMemo`); a file with
/// another catalog, or a catalog that does not read, is read on its own, whatever came before.
@Suite struct InlineCatalogMemoTests {
  static func example(_ name: String) throws -> [UInt8] {
    Array(try Data(contentsOf: ExamplesTests.directory.appendingPathComponent(name)))
  }

  static func decode(_ bytes: [UInt8], _ name: String) throws -> SubscriptionState {
    try StateFile.decode(bytes, fileName: name) { (file) throws(StateFileError) in
      throw StateFileError(file: file, message: "inline catalogs only")
    }
  }

  /// The example with one plan's reference name changed in its inline catalog.
  static func renamed(_ bytes: [UInt8], to newName: String) throws -> [UInt8] {
    try withFirstPlanField(bytes, key: "referenceName", value: .string(newName))
  }

  static func inlineCatalog(_ bytes: [UInt8]) throws -> JSONObject {
    guard case .object(let root) = try JSONParser.parse(bytes), case .object(let catalog)? = root["catalog"] else {
      throw StateFileError(file: "example", message: "no inline catalog")
    }
    return catalog
  }

  static func read(_ json: JSONObject) throws(DecodeError) -> Catalog {
    try StoreKitReader.read(ObjectReader(json, at: JSONPath.root.appending("catalog")))
  }

  /// What the file's catalog reads as on its own, without the memo.
  static func readAlone(_ bytes: [UInt8]) throws -> Catalog {
    guard case .object(let root) = try JSONParser.parse(bytes), case .object(let catalog)? = root["catalog"] else {
      throw StateFileError(file: "example", message: "no inline catalog")
    }
    return try StoreKitReader.read(ObjectReader(catalog, at: JSONPath.root.appending("catalog")))
  }

  @Test func aFileWithAnotherCatalogGetsItsOwnAndTheFirstComesBack() throws {
    let active = try Self.example("active.json")
    let renamed = try Self.renamed(active, to: "Family Monthly (renamed)")
    for bytes in [active, active, renamed, renamed, active] {
      #expect(try Self.decode(bytes, "f.json").catalog == Self.readAlone(bytes))
    }
    #expect(try Self.decode(renamed, "f.json").catalog != Self.decode(active, "f.json").catalog)
    #expect(try Self.decode(renamed, "f.json").catalog.allSubscriptions.contains { $0.referenceName == "Family Monthly (renamed)" })
  }

  /// Files read on both cores at once, alternating between two catalogs: each gets its own.
  @Test func filesReadAtOnceOnEveryCoreGetTheirOwnCatalogs() throws {
    let active = try Self.example("active.json")
    let renamed = try Self.renamed(active, to: "Family Monthly (renamed)")
    let expected = [try Self.readAlone(active), try Self.readAlone(renamed)]
    let files = (0..<400).map { $0 % 3 == 0 ? renamed : active }
    // Four workers whatever the machine has: on one core they still interleave.
    let wrong = OrderedParallelMap.compactMap(count: files.count, minimum: 2, workers: 4) { k -> Int? in
      guard let state = try? Self.decode(files[k], "f.json") else { return k }
      return state.catalog == expected[k % 3 == 0 ? 1 : 0] ? nil : k
    }
    #expect(wrong.isEmpty)
  }

  @Test func aCatalogThatDoesNotReadIsAnErrorEveryTime() throws {
    let active = try Self.example("active.json")
    guard case .object(var root) = try JSONParser.parse(active) else { return }
    root["catalog"] = .object(JSONObject([("subscriptionGroups", .string("none"))]))
    let broken = JSONWriter.write(.object(root))
    var first: String?
    var second: String?
    do { _ = try Self.decode(broken, "broken.json") } catch { first = "\(error)" }
    _ = try Self.decode(active, "active.json")
    do { _ = try Self.decode(broken, "broken.json") } catch { second = "\(error)" }
    #expect(first != nil)
    #expect(first == second)
  }

  /// Two catalogs Swift's `==` takes as equal (a key spelled with the Kelvin sign U+212A instead of
  /// "K" is canonically equivalent) that read differently: the reader's key lookup does not find
  /// `_price\u{212A}nown`, so that plan's price counts as known. Each file gets its own.
  @Test func aCatalogEqualOnlyUpToUnicodeEquivalenceIsReadOnItsOwn() throws {
    let active = try Self.example("active.json")
    let plain = try Self.withFirstPlanField(active, key: "_priceKnown", value: .bool(false))
    let kelvin = try Self.withFirstPlanField(active, key: "_price\u{212A}nown", value: .bool(false))
    #expect(plain != kelvin)
    // A memo of its own: the shared one is also used by every other test running at the same time.
    let memo = InlineCatalogMemo()
    let a = try memo.catalog(try Self.inlineCatalog(plain), read: Self.read)
    let b = try memo.catalog(try Self.inlineCatalog(kelvin), read: Self.read)
    #expect(try a == Self.readAlone(plain))
    #expect(try b == Self.readAlone(kelvin))
    #expect(a.allSubscriptions.contains { !$0.priceKnown })
    #expect(b.allSubscriptions.allSatisfy { $0.priceKnown })
    // And the same bytes again are the kept catalog, read once.
    var reads = 0
    _ = try memo.catalog(try Self.inlineCatalog(kelvin)) { (json) throws(DecodeError) in reads += 1; return try Self.read(json) }
    #expect(reads == 0)
  }

  /// The example with `key: value` added to its first plan in the inline catalog.
  static func withFirstPlanField(_ bytes: [UInt8], key: String, value: JSON) throws -> [UInt8] {
    guard case .object(var root) = try JSONParser.parse(bytes), case .object(var catalog)? = root["catalog"],
          case .array(var groups)? = catalog["subscriptionGroups"], case .object(var group)? = groups.first,
          case .array(var plans)? = group["subscriptions"], case .object(var plan)? = plans.first else {
      throw StateFileError(file: "active.json", message: "unexpected example shape")
    }
    plan[key] = value
    plans[0] = .object(plan)
    group["subscriptions"] = .array(plans)
    groups[0] = .object(group)
    catalog["subscriptionGroups"] = .array(groups)
    root["catalog"] = .object(catalog)
    return JSONWriter.write(.object(root))
  }
}
