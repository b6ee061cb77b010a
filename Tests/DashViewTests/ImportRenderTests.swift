import Foundation
import Testing
@testable import DashModel
@testable import DashView
@testable import CoreValues
@testable import SubscriberImport

/// Every App Store and RevenueCat sample opens imported in memory and renders; the header says
/// where the data came from (`unverified (Xcode)`, `RevenueCat`, `unsigned (decoded payload)`).
@Suite struct ImportRenderTests {
  static let fixtures = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
    .appendingPathComponent("DashModelTests/Fixtures")

  func imported(_ relative: String, otid: String? = nil) throws -> SubscriptionState {
    let bytes = Array(try Data(contentsOf: Self.fixtures.appendingPathComponent(relative)))
    let merged = try Importer.merge(inputs: [ImportInput(label: relative, bytes: bytes)], options: .init(originalTransactionId: otid))
    return try Importer.viewingState(merged, catalog: .derived, label: relative) { (_) throws(StateFileError) -> Catalog in
      throw StateFileError(file: relative, message: "no catalog file")
    }
  }

  func header(_ state: SubscriptionState, ascii: Bool) -> String {
    let wall = Instant(ms: 1_800_000_000_000)
    let vm = ViewModel.derived(state: state, notifications: state.subscriber.notifications.reversed(), fileName: "in.json",
                               clock: DashClock(simulated: nil, wall: wall), options: DisplayOptions(readOnly: true, ascii: ascii))
    return render(vm, UIState(), width: 100, height: 30).lines[0]
  }

  @Test func everySampleRenders() throws {
    let all = try FileManager.default.contentsOfDirectory(atPath: Self.fixtures.appendingPathComponent("appstore").path).map { "appstore/" + $0 }
      + ["revenuecat/CustomerInfo.json", "revenuecat/CustomerInfo-v2.json"]
    #expect(all.count >= 14)
    for f in all.sorted() {
      let otid = f.hasSuffix("getAllSubscriptionStatusesResponse.json") ? "3749183" : nil
      let top = header(try imported(f, otid: otid), ascii: false)
      #expect(top.hasPrefix("SubDash ["), "\(f): \(top)")
    }
  }

  @Test func theHeaderNamesTheProvenance() throws {
    #expect(header(try imported("appstore/xcode_xcode-signed-transaction.jws"), ascii: false).hasPrefix("SubDash [unverified (Xcode)] [read-only]"))
    #expect(header(try imported("appstore/signedTransaction.json"), ascii: true).hasPrefix("SubDash [unsigned (decoded payload)] [read-only]"))
    #expect(header(try imported("revenuecat/CustomerInfo.json"), ascii: false).hasPrefix("SubDash [RevenueCat] [read-only]"))
  }

  func screen(_ state: SubscriptionState, width: Int = 100, height: Int = 40) -> String {
    let vm = ViewModel.derived(state: state, notifications: state.subscriber.notifications.reversed(), fileName: "in.json",
                               clock: DashClock(simulated: nil, wall: Instant(ms: 1_800_000_000_000)), options: DisplayOptions(readOnly: true))
    return render(vm, UIState(), width: width, height: height).textDump
  }

  /// Without a .storekit file the catalog comes from the transactions: it cannot know levels, and
  /// a product whose transactions carried no price has none. The screen says "unknown" rather than
  /// "level 1 of 1" and "0.00", which a support person would read as facts.
  @Test func aCatalogDerivedFromTransactionsSaysWhatItDoesNotKnow() throws {
    let decoded = screen(try imported("appstore/signedTransaction.json"))
    #expect(decoded.contains("level unknown (no catalog)"))
    #expect(!decoded.contains("level 1 of 1"))
    #expect(decoded.contains("10.99 USD / period unknown"))

    let revenueCat = screen(try imported("revenuecat/CustomerInfo-v2.json"))
    #expect(revenueCat.contains("price unknown / 1 month"))
    #expect(!revenueCat.contains("0.00"))
    #expect(revenueCat.contains("level ?"))
  }

  /// A RevenueCat customer's Play Store purchase is on the dashboard too, as RevenueCat gave it,
  /// under a title that says it is not App Store data.
  @Test func otherStoresPurchasesAppearOnTheDashboard() throws {
    let text = screen(try imported("revenuecat/CustomerInfo-v2.json"))
    #expect(text.contains("Other stores (RevenueCat; not App Store data)"))
    #expect(text.contains("play_store subscription com.revenuecat.annual_39.99.2_week_intro"))
    #expect(!screen(try imported("appstore/signedTransaction.json")).contains("Other stores"))
  }
}
