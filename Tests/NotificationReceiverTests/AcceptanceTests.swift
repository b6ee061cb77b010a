import AppStoreSigning
import DashModel
import Foundation
import Testing
@testable import NotificationReceiver
import CoreValues

/// The receiver accepts exactly what it should (docs/notifications.md, "What is accepted"): every
/// notification Apple sends for this app, and nothing that mixes apps, environments or signers.
@Suite struct AcceptanceTests {
  /// Apple sends these without `data`; with --bundle-id they were refused (403), so Apple would
  /// have retried them for days. They concern the app, not a subscriber: logged, nothing written.
  @Test func rescindConsentAndExternalPurchaseTokenAreAppLevelNotifications() async throws {
    let store = try LocalAppStore()
    defer { store.remove() }
    let rescind = await store.post(try LocalAppStore.rescindConsent())
    #expect(rescind.status == 200, "\(rescind.message)")
    #expect(rescind.message.hasPrefix("RESCIND_CONSENT ") && rescind.message.contains("nothing applied"), "\(rescind.message)")
    let token = await store.post(try LocalAppStore.externalPurchaseToken())
    #expect(token.status == 200, "\(token.message)")
    #expect(token.message.hasPrefix("EXTERNAL_PURCHASE_TOKEN/UNREPORTED ") && token.message.contains("Sandbox"), "\(token.message)")
    let production = await store.post(try LocalAppStore.externalPurchaseToken(externalPurchaseId: "6b2f9a1e"))
    #expect(production.status == 200 && production.message.contains("Production"), "\(production.message)")
    #expect(store.files.isEmpty)
  }

  @Test func anAppLevelNotificationForAnotherAppIsRefused() async throws {
    let store = try LocalAppStore()
    defer { store.remove() }
    let rescind = await store.post(try LocalAppStore.rescindConsent(bundleId: "com.evil.app"))
    #expect(rescind.status == 403 && rescind.message.contains("is for bundle id com.evil.app, not com.example.subdash"), "\(rescind.message)")
    let token = await store.post(try LocalAppStore.externalPurchaseToken(bundleId: "com.evil.app"))
    #expect(token.status == 403 && token.message.contains("is for bundle id com.evil.app"), "\(token.message)")
    // The app transaction inside appData is signed data too: verified and matched like the outer.
    let foreign = await store.post(try LocalAppStore.rescindConsent(appTransactionSigner: LocalAppStore.otherCA))
    #expect(foreign.status == 403 && foreign.message.contains("appData.signedAppTransactionInfo"), "\(foreign.message)")
    let otherEnvironment = await store.post(try LocalAppStore.rescindConsent(appTransactionEnvironment: "Production"))
    #expect(otherEnvironment.status == 403 && otherEnvironment.message.contains("appData.signedAppTransactionInfo"), "\(otherEnvironment.message)")
    #expect(store.files.isEmpty)
  }

  /// One subscriber is one environment: Production data never lands in a Sandbox customer's file
  /// and journal (or the reverse). Refused with 409, under the file's lock; the file is untouched.
  @Test func aNotificationFromTheOtherEnvironmentIsRefusedAndTheFileIsUntouched() async throws {
    for (first, second) in [("Sandbox", "Production"), ("Production", "Sandbox")] {
      let store = try LocalAppStore()
      defer { store.remove() }
      #expect(await store.post(try LocalAppStore.renewal(environment: first, period: 1)).status == 200)
      // The subscriber's document and its history, inline or in a journal: every file but the lock.
      let before = try store.contents()
      #expect(before.keys.contains("2000000100.json"))
      let outcome = await store.post(try LocalAppStore.renewal(environment: second, period: 2))
      #expect(outcome.status == 409, "\(first) then \(second): \(outcome.message)")
      #expect(outcome.message.contains("\(second) notification") && outcome.message.contains("a \(first) subscriber"), "\(outcome.message)")
      #expect(try store.contents() == before, "the document or its history changed, or a journal appeared")
    }
  }

  /// The nested transaction and renewal info are the notification's own: same environment, same
  /// app, vouched for by the same signer. Each mismatch is refused naming the field.
  @Test func nestedSignedDataMustMatchTheNotification() async throws {
    let store = try LocalAppStore()
    defer { store.remove() }
    let cases: [(String, [UInt8], String)] = [
      ("an unverified Xcode transaction in a verified notification",
       try LocalAppStore.renewal(transactionEnvironment: "Xcode", transactionSigner: LocalAppStore.otherCA),
       "data.signedTransactionInfo is for the Xcode environment, which nothing verifies"),
      ("an unverified LocalTesting renewal info",
       try LocalAppStore.renewal(renewalEnvironment: "LocalTesting", renewalSigner: LocalAppStore.otherCA),
       "data.signedRenewalInfo is for the LocalTesting environment"),
      ("a Production transaction in a Sandbox notification", try LocalAppStore.renewal(transactionEnvironment: "Production"),
       "data.signedTransactionInfo is for Production, the notification for Sandbox"),
      ("a Production renewal info in a Sandbox notification", try LocalAppStore.renewal(renewalEnvironment: "Production"),
       "data.signedRenewalInfo is for Production, the notification for Sandbox"),
      ("another app's transaction", try LocalAppStore.renewal(transactionBundleId: "com.evil.app"),
       "data.signedTransactionInfo is for bundle id com.evil.app, the notification for com.example.subdash"),
    ]
    for (name, body, reason) in cases {
      let outcome = await store.post(body)
      #expect(outcome.status == 403 && outcome.message.contains(reason), "\(name): \(outcome.message)")
    }
    #expect(store.files.isEmpty, "a refused notification wrote \(store.files)")
  }

  @Test func contentTypeIsJSONWithParametersInAnyCase() async throws {
    let store = try LocalAppStore()
    defer { store.remove() }
    for accepted in ["application/json; charset=utf-8", "Application/JSON", "application/json ;charset=UTF-8", " application/json"] {
      let outcome = await store.post(try LocalAppStore.renewal(otid: "20000003\(accepted.count)"), contentType: accepted)
      #expect(outcome.status == 200, "\(accepted): \(outcome.message)")
    }
    for refused in ["application/jsonfoo", "application/json-patch+json", "application/json,text/html", "application/"] {
      let outcome = await store.post(try LocalAppStore.renewal(), contentType: refused)
      #expect(outcome.status == 415, "\(refused): \(outcome.message)")
    }
  }

  /// Apple's originalTransactionId is a string; a number is not an id this receiver files by.
  @Test func aNumericOriginalTransactionIdIsABadRequest() async throws {
    let store = try LocalAppStore()
    defer { store.remove() }
    let outcome = await store.post(try LocalAppStore.renewal(otidJSON: "2000000100"))
    #expect(outcome.status == 400, "\(outcome.message)")
    #expect(outcome.message.contains("originalTransactionId is a number, not a string"), "\(outcome.message)")
    #expect(store.files.isEmpty)
  }
}
