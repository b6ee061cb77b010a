import Testing
@testable import DashModel
@testable import CoreValues
@testable import DashView

/// Each example file summarised as one row: the dashboard's status word, what is due and the flags.
@Suite struct ListRowTests {
  @Test func graceRowSaysGraceAndWhenItEnds() {
    let row = ListFixture.row("grace-period")
    #expect(row.status == .grace)
    #expect(row.status.word == "GRACE PERIOD")
    #expect(row.originalTransactionId == "2000000820915733")
    #expect(row.productName == "Family")
    #expect(row.due?.kind == .ends)
    #expect(row.flags.contains(.grace))
    #expect(row.lastEvent == "DID_FAIL_TO_RENEW/GRACE_PERIOD")
  }

  @Test func refundedRowIsRevokedWithTheRefundFlagAndItsToken() {
    let row = ListFixture.row("refunded")
    #expect(row.status == .revoked)
    #expect(row.flags == [.refunded])
    #expect(row.due == nil)
    #expect(row.appAccountToken == "c0b8e2d4-5f17-4a63-9e2a-8b41d7f09c35")
  }

  @Test func activeRowsSayWhatHappensNext() {
    #expect(ListFixture.row("active").due?.kind == .renews)
    #expect(ListFixture.row("auto-renew-off").due?.kind == .expires)
    #expect(ListFixture.row("auto-renew-off").flags == [.autoRenewOff])
    #expect(ListFixture.row("pending-downgrade").due?.kind == .switches)
    #expect(ListFixture.row("pending-downgrade").flags == [.pendingChange])
    #expect(ListFixture.row("price-increase").flags == [.priceIncrease])
  }

  @Test func neverSubscribedAndContradictoryFiles() {
    #expect(ListFixture.row("new-subscriber").status == .none)
    #expect(ListFixture.row("contradictory").flags.contains(.checkFile))
  }

  /// The row's status is the dashboard's: derived from the same report, at the same moment.
  @Test func statusAgreesWithTheLifecycleReportForEveryExample() {
    for stem in Scenarios.exampleNames {
      let s = Scenarios.example(stem)
      #expect(ListFixture.row(stem).status == ListStatus(Lifecycle.derive(s.state, at: s.now)), "\(stem)")
    }
  }

  /// A boundary: one millisecond before expiresDate the row is active, at expiresDate it is not.
  @Test func rowsAreDerivedAtTheMomentGiven() {
    let s = Scenarios.example("auto-renew-off")
    let expires = s.state.subscriber.latestTransaction!.expiresDate!
    #expect(ListRow.derive(file: "f.json", state: s.state, at: expires - .millisecond).status == .active)
    #expect(ListRow.derive(file: "f.json", state: s.state, at: expires).status == .expired)
  }
}

/// Imported data says whether Apple signed it; the list shows that as a flag.
@Suite struct ListProvenanceTests {
  func row(signature: Provenance.Signature?) -> ListRow {
    var s = Scenarios.example("active")
    if let signature {
      s.state.subscriber.latestTransaction?.source[Provenance.key] =
        Provenance(input: "notification.json", shape: "signedPayload", signature: signature, environment: "Sandbox").json
    }
    return ListRow.derive(file: "active.json", state: s.state, at: s.now)
  }

  @Test func appleSignedOrNotAndNothingForSimulatedFiles() {
    #expect(row(signature: .appleSigned).flags.contains(.appleSigned))
    #expect(row(signature: .unverified).flags.contains(.notAppleSigned))
    #expect(row(signature: .revenueCat).flags.contains(.notAppleSigned))
    let simulated = row(signature: nil).flags
    #expect(!simulated.contains(.appleSigned) && !simulated.contains(.notAppleSigned))
  }

  @Test func theFilterFindsUnsignedRows() {
    let s = ListFixture.state([row(signature: .unsigned)])
    var filtered = s
    filtered.setFilter("flag:unsigned")
    #expect(filtered.visible.count == 1)
    filtered.setFilter("flag:apple")
    #expect(filtered.visible.isEmpty)
  }
}
