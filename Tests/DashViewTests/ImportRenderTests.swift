import Foundation
import Testing
@testable import DashModel
@testable import DashView

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
}
