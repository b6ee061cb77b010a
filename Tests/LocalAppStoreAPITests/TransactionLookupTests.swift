import DashModel
import CoreValues
import Foundation
import Testing
@testable import LocalAppStoreAPI
import SubscriberStorage

/// A backend asks by whatever transaction id it holds (a renewal's, from the app), which names no
/// file: the server finds the subscriber whatever the files' names, and follows the directory as
/// files are added, renewed and removed after its first answer.
@Suite struct TransactionLookupTests {
  static let info = "/sandbox/inApps/v1/transactions/"

  static func answeredTransactionId(_ s: ServeFixture, _ id: String) async throws -> String? {
    let r = await s.get(Self.info + id)
    guard r.status == 200 else { return nil }
    let signed = try #require(ServeFixture.object(r)["signedTransactionInfo"] as? String)
    return try await ServeFixture.verified(signed)["transactionId"] as? String
  }

  static func transactionIds(_ path: String) throws -> [String] {
    try SubscriberRecord(path: path, state: try StateFile.load(path: path)).transactions.compactMap(\.transactionId)
  }

  @Test func anyTransactionIdFindsItsSubscriberAsTheDirectoryChanges() async throws {
    let s = try ServeFixture()
    defer { s.remove() }
    // Named so that no id names the file: every answer comes from the table.
    let family = s.directory + "/family.json"
    try FileManager.default.moveItem(atPath: s.path, toPath: family)
    let ids = try Self.transactionIds(family)
    try #require(ids.count >= 3)
    for id in ids { #expect(try await Self.answeredTransactionId(s, id) == id) }

    // A subscriber that arrives after the table was learned.
    try s.add(example: "auto-renew-off")
    let premium = s.directory + "/auto-renew-off.json"
    let premiumId = try #require(try Self.transactionIds(premium).first)
    #expect(try await Self.answeredTransactionId(s, premiumId) == premiumId)

    // A renewal written afterwards: its new transaction id is found.
    let before = Set(try Self.transactionIds(family))
    _ = try StateFile.update(path: family, refusing: ActionError.self) { (current) throws(ActionError) -> Change in
      try Simulator.advanceToNextEvent(current)
    }
    let renewed = try #require(try Self.transactionIds(family).first { !before.contains($0) })
    #expect(try await Self.answeredTransactionId(s, renewed) == renewed)

    // A removed subscriber is no longer answered, however recently it was.
    try FileManager.default.removeItem(atPath: premium)
    #expect(await s.get(Self.info + premiumId).status == 404)
    // An id nobody holds is 404 (4040010), and the family's are still found.
    let unknown = await s.get(Self.info + "123456789")
    #expect(unknown.status == 404 && ServeFixture.object(unknown)["errorCode"] as? Int == 4_040_010)
    #expect(try await Self.answeredTransactionId(s, ids[1]) == ids[1])
  }

  /// A file replaced by another subscriber under the same name (same size class, new inode): the
  /// table's old entry is confirmed against the file as it is now, so the old ids are not answered.
  @Test func aFileReplacedByAnotherSubscriberNoLongerAnswersForTheOld() async throws {
    let s = try ServeFixture()
    defer { s.remove() }
    let family = s.directory + "/family.json"
    try FileManager.default.moveItem(atPath: s.path, toPath: family)
    let old = try #require(try Self.transactionIds(family).last { $0 != ServeFixture.id })
    #expect(try await Self.answeredTransactionId(s, old) == old)
    let premium = try Data(contentsOf: URL(fileURLWithPath: ServeFixture.examples + "/auto-renew-off.json"))
    try premium.write(to: URL(fileURLWithPath: family), options: .atomic)
    #expect(await s.get(Self.info + old).status == 404)
    let premiumId = try #require(try Self.transactionIds(family).first)
    #expect(try await Self.answeredTransactionId(s, premiumId) == premiumId)
  }

  @Test func aSubscriberMovedToAnotherFileIsFoundThere() async throws {
    let s = try ServeFixture()
    defer { s.remove() }
    let ids = try Self.transactionIds(s.path)
    let renewal = try #require(ids.last { $0 != ServeFixture.id })
    #expect(try await Self.answeredTransactionId(s, renewal) == renewal)
    try FileManager.default.moveItem(atPath: s.path, toPath: s.directory + "/moved.json")
    #expect(try await Self.answeredTransactionId(s, renewal) == renewal)
  }
}
