import AppStoreSigning
import ArgumentParser
import DashModel
import Foundation
import NotificationDelivery
import CoreValues
import SubscriberStorage
import RetentionMessaging

/// `subdash-retention FILE`: the customer of FILE goes to cancel. Reads the Retention Messaging
/// configuration `subdash serve` keeps beside FILE, asks the realtime URL as the App Store does
/// (signed request, Apple's time limit) and prints what the customer is shown as one JSON line
/// (`RetentionOutcome`). The dashboard and `subdash simulate --scenario` run it, so neither
/// carries an HTTP client; it never writes FILE (the customer's choice is applied by the caller).
@main
struct RetentionCommand: AsyncParsableCommand {
  static let configuration = CommandConfiguration(
    commandName: "subdash-retention",
    abstract: "Show what the App Store shows FILE's customer who goes to cancel (Retention Messaging).",
    discussion: """
      Reads DIR/.retention-messaging.json (written by `subdash serve`'s Retention Messaging \
      endpoints) beside FILE. With a realtime URL, POSTs a realtime request signed by the local \
      test CA (originalTransactionId, appAppleId, productId, userLocale, requestIdentifier, \
      signedDate, environment) and waits at most --time-limit-ms for the answer; without one, or \
      when the answer fails, the default message for the product and locale, else none. A \
      promotional offer is shown only when its signature verifies against the In-App Purchase key \
      `subdash serve` records in that file (its --key-id and --key), and carries a nonce no \
      offer accepted in the last 24 hours carried (DIR/.promotional-offer-nonces.jsonl). Prints \
      one JSON line: {"offer": {…} or null, "problem", "requestIdentifier", "elapsedMs"}. \
      Exit codes: 0 answered (whatever was shown); 2 FILE or the configuration could not be read.
      """)

  @Option(help: ArgumentHelp("The customer's locale (userLocale).", valueName: "LOCALE")) var locale = RetentionCustomer.defaultLocale
  @Option(help: ArgumentHelp("The local test CA (created when missing; default ~/.config/subdash/ca).", valueName: "DIR")) var ca: String?
  @Option(name: .customLong("time-limit-ms"), help: "How long the developer's server has to answer (Apple: about 700 ms).")
  var timeLimitMs = RetentionAsker.appleTimeLimitMs
  @Option(name: .customLong("app-apple-id"), help: "appAppleId in the request (Apple's verifier requires it for Production).") var appAppleId: Int64?
  @Argument(help: "The state file of the customer going to cancel.") var file: String

  func validate() throws {
    guard (1...30_000).contains(timeLimitMs) else { throw ValidationError("--time-limit-ms must be 1…30000") }
    let parts = locale.split(separator: "-", omittingEmptySubsequences: false)
    guard (1...3).contains(parts.count), parts.allSatisfy({ (2...4).contains($0.count) && $0.allSatisfy { $0.isASCII && $0.isLetter } }) else {
      throw ValidationError("--locale must look like en-US")
    }
  }

  func run() async throws {
    let state: SubscriptionState
    do { state = try StateFile.load(path: file) } catch { throw Self.fail(error.description) }
    guard let customer = RetentionCustomer(state, locale: locale) else {
      throw Self.fail("\(file): no subscription to cancel (no latest transaction with a product and originalTransactionId)")
    }
    let setup: RetentionSetup
    do { setup = try RetentionSetup.load(besideStateFile: file) } catch { throw Self.fail(error.description) }
    var outcome = RealtimeAnswer.fallback(setup, customer, problem: nil)
    if setup.realtimeURL != nil {
      let authority: LocalCertificateAuthority
      do { authority = try LocalCertificateAuthority.loadOrCreate(in: ca, trustedBy: "your server", say: Self.say) } catch {
        throw Self.fail("\(ca ?? LocalCertificateAuthority.defaultDirectory()): \(error)")
      }
      let asker = RetentionAsker(authority: authority, timeLimitMs: timeLimitMs, appAppleId: appAppleId,
                                 nonceLedger: OfferNonceLedger.path(besideStateFile: file))
      let wall = Instant(ms: (Date().timeIntervalSince1970 * 1000).rounded(.down))
      outcome = await asker.ask(customer, setup: setup, catalog: state.catalog, now: wall)
    }
    print(outcome.jsonLine)
  }

  static func say(_ line: String) {
    FileHandle.standardError.write(Data((line + "\n").utf8))
  }

  static func fail(_ message: String) -> ExitCode {
    say("subdash: " + message.split(whereSeparator: \.isNewline).joined(separator: " "))
    return ExitCode(2)
  }
}
