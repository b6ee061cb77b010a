import DashModel
import Synchronization
import Testing
import CoreValues

/// A history page's signed transactions go to the checker together (`checkAll`), so a checker
/// can verify them at once on every core instead of one blocking call per transaction.
@Suite struct ImportPageCheckTests {
  let t0: Int64 = 1_770_000_000_000

  /// Records the batches it is given and answers like Apple's verifier for every JWS.
  final class Recorder: SignedDataChecking, Sendable {
    let batches = Mutex<[[String]]>([])
    func check(compactJWS: String) -> SignatureVerdict {
      batches.withLock { $0.append([compactJWS]) }
      return .appleSigned(environment: "Sandbox")
    }
    func checkAll(_ compactJWS: [String]) -> [CheckedJWS] {
      batches.withLock { $0.append(compactJWS) }
      return compactJWS.map { _ in CheckedJWS(verdict: .appleSigned(environment: "Sandbox"), payload: nil) }
    }
  }

  @Test func aHistoryPageIsCheckedAsOneBatchInOrder() throws {
    let transactions = (1...5).map { ImportKit.transaction($0, purchase: t0 + Int64($0) * 1000) }
    let recorder = Recorder()
    let m = try ImportKit.merge([ImportKit.input("p.json", ImportKit.historyPage(transactions, hasMore: false))], checker: recorder)
    #expect(m.transactions.map(\.transactionId) == ["1", "2", "3", "4", "5"])
    #expect(recorder.batches.withLock { $0 } == [transactions.map(ImportKit.jws)])
  }

  /// A verified payload handed back with the verdict is the one imported (not decoded again).
  @Test func aPayloadFromTheBatchIsTheOneImported() throws {
    struct Hands: SignedDataChecking {
      let payload: JSONObject
      func check(compactJWS: String) -> SignatureVerdict { .invalid("asked one at a time") }
      func checkAll(_ compactJWS: [String]) -> [CheckedJWS] {
        compactJWS.map { _ in CheckedJWS(verdict: .appleSigned(environment: "Sandbox"), payload: payload) }
      }
    }
    let verified = try #require(try JSONParser.parse(Array(ImportKit.transaction(9, purchase: t0).utf8)).objectValue)
    let page = ImportKit.historyPage([ImportKit.transaction(1, purchase: t0)], hasMore: false)
    let m = try ImportKit.merge([ImportKit.input("p.json", page)], checker: Hands(payload: verified))
    #expect(m.transactions.map(\.transactionId) == ["9"])
  }
}
