import DashModel
import SubscriberStorage
import RetentionMessaging
/// Scenario lines for the Retention Messaging cancel flow (issue 21 §2):
///
///     retention message <uuid> "<header>" "<body>"   the developer uploads a message
///     retention default <productId> <locale> <uuid>  …makes it the default for a product and locale
///     retention url <https://…>                      …configures the realtime URL (`retention url none` deletes it)
///     retention key <keyId> <issuerId> <bundleId> <public.pem>
///                                                    …the In-App Purchase key promotional offers are checked
///                                                     with (what `serve` records from its --key; public key only)
///     cancel-page keep|accept|cancel                 the customer goes to cancel, sees the message, chooses
///     expect retention "<header>" | none             what the cancel page showed
///
/// `retention` lines write the configuration beside the state file, as `subdash serve` keeps it.
/// `cancel-page` asks the realtime URL through `retentionAsker` (`subdash simulate` runs
/// `subdash-retention`); without one, or without a URL, the App Store shows the default message.
public enum RetentionSetupChange: Equatable, Sendable {
  case message(id: String, header: String, body: String)
  case defaultMessage(productId: String, locale: String, id: String)
  case realtimeURL(String?)
  /// The developer's key, its PEM read from a file (relative to the script) when the line runs.
  case key(keyId: String, issuerId: String, bundleId: String, pemFile: String)
}

enum ScenarioRetention {
  static func setupVerb(_ l: ScenarioWords) throws(SimTextError) -> [ScenarioStep] {
    let w = l.words
    let usage = "expected retention message <uuid> \"<header>\" \"<body>\", retention default <productId> <locale> <uuid>, retention url <URL>|none or retention key <keyId> <issuerId> <bundleId> <public.pem>"
    guard w.count >= 3 else { throw SimTextError(usage) }
    switch l.keys[1] {
    case "message":
      guard w.count == 5, let id = uuid(w[2]) else { throw SimTextError(usage) }
      guard !w[3].isEmpty, w[3].count <= 66, !w[4].isEmpty, w[4].count <= 144 else {
        throw SimTextError("a retention message needs a header of 1-66 and a body of 1-144 characters (Apple's limits)")
      }
      return [.retentionSetup(.message(id: id, header: w[3], body: w[4]))]
    case "default":
      guard w.count == 5, let id = uuid(w[4]) else { throw SimTextError(usage) }
      return [.retentionSetup(.defaultMessage(productId: w[2], locale: w[3], id: id))]
    case "url":
      guard w.count == 3 else { throw SimTextError(usage) }
      if l.keys[2] == "none" { return [.retentionSetup(.realtimeURL(nil))] }
      guard w[2].hasPrefix("https://") || w[2].hasPrefix("http://"), w[2].count <= 256 else {
        throw SimTextError("the realtime URL must be an http(s) URL of at most 256 characters")
      }
      return [.retentionSetup(.realtimeURL(w[2]))]
    case "key":
      guard w.count == 6, !w[2].isEmpty, !w[5].isEmpty else { throw SimTextError(usage) }
      return [.retentionSetup(.key(keyId: w[2], issuerId: w[3], bundleId: w[4], pemFile: w[5]))]
    default: throw SimTextError(usage)
    }
  }

  static func cancelVerb(_ l: ScenarioWords) throws(SimTextError) -> [ScenarioStep] {
    guard l.words.count == 2, let choice = RetentionChoice(rawValue: l.keys[1]) else { throw SimTextError("expected cancel-page keep|accept|cancel") }
    return [.goToCancel(choice)]
  }

  /// `expect retention "<header>"` or `expect retention none`.
  static func expectation(_ l: ScenarioWords) throws(SimTextError) -> [Expectation] {
    guard l.words.count == 2 else { throw SimTextError("expected expect retention \"<header>\" or expect retention none") }
    return [.retention(l.keys[1] == "none" ? nil : l.words[1])]
  }

  private static func uuid(_ text: String) -> String? {
    let hex = text.lowercased()
    let groups = hex.split(separator: "-", omittingEmptySubsequences: false).map(\.count)
    guard groups == [8, 4, 4, 4, 12], hex.allSatisfy({ $0 == "-" || $0.isHexDigit }) else { return nil }
    return hex
  }
}

extension ScenarioRunner {
  /// `retention …`: the configuration beside the state file, changed as the developer's call would.
  func changeRetention(_ change: RetentionSetupChange) -> Result<[Change], ActionError> {
    do {
      var setup = try RetentionSetup.load(besideStateFile: store.path)
      switch change {
      case .message(let id, let header, let body): setup.messages[id] = RetentionSetup.Message(header: header, body: body)
      case .defaultMessage(let product, let locale, let id):
        guard setup.messages[id] != nil else { return .failure(.other("retention default: message \(id) was never uploaded")) }
        setup.defaults[product + "/" + locale] = id
      case .realtimeURL(let url): setup.realtimeURL = url
      case .key(let keyId, let issuerId, let bundleId, let pemFile):
        let path = pemFile.hasPrefix("/") ? pemFile : scriptDirectory + "/" + pemFile
        let bytes: [UInt8]
        do { bytes = try ScenarioWorkspace.read(path) } catch { return .failure(.other("retention key: \(error.description)")) }
        let text = String(decoding: bytes, as: UTF8.self)
        // Only a public key goes into the configuration: a private key named here is refused, never
        // copied, also when it follows a public key in the same file.
        guard text.hasPrefix("-----BEGIN PUBLIC KEY-----"), !text.contains("PRIVATE KEY"), bytes.count <= 16_384 else {
          return .failure(.other("retention key: \(pemFile) is not a public key in PEM (-----BEGIN PUBLIC KEY-----); give the public half of the key"))
        }
        setup.inAppPurchaseKeys.removeAll { $0.keyId == keyId }
        setup.inAppPurchaseKeys.append(InAppPurchaseKey(keyId: keyId, issuerId: issuerId, bundleId: bundleId, publicKeyPEM: text))
      }
      try setup.save(besideStateFile: store.path)
      return .success([])
    } catch {
      return .failure(.other(error.description))
    }
  }

  /// `cancel-page CHOICE`: what the App Store shows (asked through `retentionAsker`), kept for
  /// `expect retention`, then the customer's choice applied as the same plan action a key applies.
  func goToCancel(_ choice: RetentionChoice, _ line: ScenarioLine, _ run: inout Run) throws(ScenarioFailure) -> Result<[Change], ActionError> {
    guard let state = run.state, let customer = RetentionCustomer(state) else { return .failure(.noSubscription) }
    let outcome: RetentionOutcome
    if let retentionAsker {
      switch retentionAsker(store.path) {
      case .success(let o): outcome = o
      case .failure(let problem): return .failure(.other(problem.description))
      }
    } else {
      let setup: RetentionSetup
      do { setup = try RetentionSetup.load(besideStateFile: store.path) } catch { return .failure(.other(error.description)) }
      outcome = RealtimeAnswer.fallback(setup, customer, problem: setup.realtimeURL == nil ? nil : "no realtime request sent: this run has no sender")
    }
    run.retention = outcome
    guard let action = choice.action(for: outcome.offer, in: state) else {
      if choice == .accept { return .failure(.other("cancel-page accept: the cancel page offered nothing to take (\(outcome.origin))")) }
      return .success([])
    }
    return try perform(ScenarioLine(number: line.number, text: line.text, step: .plan(action)), state: state)
  }

  func checkRetention(_ expected: String?, _ run: Run) -> (expected: String, actual: String)? {
    let shown = run.retention?.offer?.header
    guard shown != expected else { return nil }
    return (expected.map { "the retention message \"\($0)\"" } ?? "no retention message",
            shown.map { "\"\($0)\" (\(run.retention?.origin ?? ""))" } ?? (run.retention.map { "none (\($0.origin))" } ?? "no cancel-page step yet"))
  }
}
