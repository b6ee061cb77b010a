import Foundation
import Testing
@testable import DashModel
@testable import DashView
@testable import CoreValues
@testable import SubscriberImport

/// Imported without a `.storekit` file, a consumable purchase is listed under the plans as a
/// consumable, "not plans", never as a plan with "level ?".
@Suite struct DerivedCatalogOtherProductsRenderTests {
  @Test func thePlansPanelListsAnImportedConsumableAsNotAPlan() throws {
    let state = try Self.importedConsumable()
    let vm = ViewModel.derived(state: state, notifications: [], fileName: "history.json",
                               clock: DashClock(simulated: nil, wall: Instant(ms: 1_800_000_000_000)), options: DisplayOptions(readOnly: true))
    let frame = render(vm, UIState(), width: 120, height: 40)
    assertSnapshot(frame, named: "derived-catalog-consumable-120x40")
    let screen = frame.textDump
    #expect(!screen.contains("level ?"), "\(screen)")
    #expect(screen.contains("consumable (not plans): com.example.acorns 10.99"), "\(screen)")
    #expect(screen.contains("no subscription group in the catalog"), "\(screen)")
  }

  /// Apple's sample transaction (app-store-server-library's signedTransaction.json) made a
  /// consumable purchase: no expiry, no group, no offer, imported as Apple-signed.
  static func importedConsumable() throws -> SubscriptionState {
    let url = ImportRenderTests.fixtures.appendingPathComponent("appstore/signedTransaction.json")
    var t = try #require(try JSONSerialization.jsonObject(with: Data(contentsOf: url)) as? [String: Any])
    for key in ["expiresDate", "subscriptionGroupIdentifier", "webOrderLineItemId", "offerType", "offerIdentifier",
                "offerDiscountType", "offerPeriod", "isUpgraded", "revocationReason", "revocationDate",
                "billingPlanType", "commitmentInfo", "advancedCommerceInfo"] {
      t[key] = nil
    }
    t["type"] = "Consumable"
    t["productId"] = "com.example.acorns"
    t["environment"] = "Sandbox"
    let payload = String(decoding: try JSONSerialization.data(withJSONObject: t), as: UTF8.self)
    func b64(_ s: String) -> String {
      Data(s.utf8).base64EncodedString().replacingOccurrences(of: "+", with: "-").replacingOccurrences(of: "/", with: "_")
        .replacingOccurrences(of: "=", with: "")
    }
    let jws = b64(#"{"alg":"ES256","x5c":[]}"#) + "." + b64(payload) + ".AQID"
    let page = #"{"revision":"r","bundleId":"com.example","environment":"Sandbox","hasMore":false,"signedTransactions":["\#(jws)"]}"#
    let m = try Importer.merge(inputs: [ImportInput(label: "history.json", bytes: Array(page.utf8))],
                               options: .init(checker: SandboxApple()))
    return try Importer.viewingState(m, catalog: .derived, label: "history.json") { (_) throws(StateFileError) -> Catalog in
      throw StateFileError(file: "", message: "no catalog file")
    }
  }

  /// Answers as the real verifier does for Apple-signed Sandbox data; the verifier has its own tests.
  struct SandboxApple: SignedDataChecking {
    func check(compactJWS: String) -> SignatureVerdict { .appleSigned(environment: "Sandbox") }
  }
}
