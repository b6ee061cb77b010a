import DashModel
import Foundation
import SubscriberStorage

/// What `subdash serve` prints once it listens (stdout, after the "listening on" line scripts
/// wait for): the endpoints it answers and a curl line that works as pasted, with a token from
/// `subdash token` and the key options serve was given, against a subscriber in DIR.
enum ServeBanner {
  /// Endpoints as `METHOD path` and Apple's name for them; sandbox is the same under /sandbox.
  static let endpoints: [(String, String)] = [
    ("GET  /inApps/v1/subscriptions/{transactionId}", "Get All Subscription Statuses"),
    ("GET  /inApps/v1/transactions/{transactionId}", "Get Transaction Info"),
    ("GET  /inApps/v2/history/{transactionId}", "Get Transaction History (v1 too)"),
    ("GET  /inApps/v2/refund/lookup/{transactionId}", "Get Refund History"),
    ("POST /inApps/v1/notifications/history", "Get Notification History"),
    ("GET  /inApps/v1/lookup/{orderId}", "Look Up Order ID (production only)"),
    ("POST /inApps/v1/notifications/test", "Request a Test Notification"),
    ("GET  /inApps/v1/notifications/test/{testNotificationToken}", "Get Test Notification Status"),
    ("PUT  /inApps/v1/subscriptions/extend/{originalTransactionId}", "Extend a Subscription Renewal Date"),
    ("POST /inApps/v1/subscriptions/extend/mass", "Extend Renewal Dates for All Active Subscribers"),
    ("GET  /inApps/v1/subscriptions/extend/mass/{productId}/{requestIdentifier}", "Get Status of Subscription Renewal Date Extensions"),
    ("PUT  /inApps/v2/transactions/consumption/{transactionId}", "Send Consumption Information"),
    ("PUT  /inApps/v1/transactions/{originalTransactionId}/appAccountToken", "Set App Account Token"),
    ("GET  /inApps/v1/transactions/appTransactions/{transactionId}", "Get App Transaction Info"),
    ("POST /inApps/v1/transactions/{transactionId}/finish", "Finish Transaction"),
    ("PUT  /inApps/v1/messaging/message/{messageIdentifier}", "Upload Message (DELETE: Delete Message)"),
    ("GET  /inApps/v1/messaging/message/list", "Get Message List"),
    ("PUT  /inApps/v1/messaging/default/{productId}/{locale}", "Configure Default Message (GET, DELETE too)"),
    ("PUT  /inApps/v1/messaging/realtime/url", "Configure Realtime URL (GET, DELETE too)"),
    ("POST /inApps/v1/messaging/performanceTest", "Initiate Performance Test"),
    ("GET  /inApps/v1/messaging/performanceTest/result/{requestId}", "Get Performance Test Results"),
  ]

  struct Key {
    var file: String
    var keyID: String
    var issuerID: String
    var bundleID: String
  }

  static func text(base: String, key: Key, example: (id: String, sandbox: Bool)?) -> String {
    var out = "App Store Server API (production /inApps/…, sandbox /sandbox/inApps/…; bearer token required):\n"
    let width = endpoints.map(\.0.count).max() ?? 0
    for (path, name) in endpoints { out += "  " + path + String(repeating: " ", count: width - path.count + 2) + name + "\n" }
    out += "  POST any other path                  App Store Server Notifications V2 (no token)\n"
    let token = "subdash token --key \(quoted(key.file)) --key-id \(quoted(key.keyID)) --issuer-id \(quoted(key.issuerID)) --bundle-id \(quoted(key.bundleID))"
    let path = (example?.sandbox == true ? "/sandbox" : "") + "/inApps/v1/subscriptions/" + (example?.id ?? "TRANSACTION_ID")
    out += "try: curl -sS -H \"Authorization: Bearer $(\(token))\" \(base)\(path)\n"
    return out
  }

  /// The first subscriber in DIR with an originalTransactionId, for the curl line (at most 20
  /// files are read: a large directory must not delay the start).
  /// Only a subscriber serve answers for: this app's, in Production or Sandbox (files from Xcode
  /// are not the App Store's).
  static func example(in directory: String, bundleID: String) -> (id: String, sandbox: Bool)? {
    let names = ((try? StateFileDirectory.names(in: directory)) ?? []).prefix(20)
    for name in names {
      guard let state = try? StateFile.load(path: directory + "/" + name), let id = state.subscriber.originalTransactionId else { continue }
      let environment = state.subscriber.environment ?? .sandbox
      guard environment == .production || environment == .sandbox,
            (state.subscriber.latestTransaction?.bundleId).map({ $0 == bundleID }) ?? true else { continue }
      return (id, environment == .sandbox)
    }
    return nil
  }

  /// A word as the shell reads it back unchanged: bare when it is plain, else in single quotes.
  static func quoted(_ word: String) -> String {
    let plain = !word.isEmpty && word.allSatisfy { $0.isASCII && ($0.isLetter || $0.isNumber || "-_./:=@+,".contains($0)) }
    return plain ? word : "'" + word.replacingOccurrences(of: "'", with: "'\\''") + "'"
  }
}

extension ListenCommand {
  /// The banner for this server's options, or nil when it does not answer the API (listen).
  func serveBanner(port: Int) -> String? {
    guard serveAPI, let key, let keyId, let issuerId, let bundleId, let directory else { return nil }
    // A server on every address is reached on loopback from this machine.
    let reachable = ["0.0.0.0", "::", ""].contains(host) ? "127.0.0.1" : host
    let base = "http://\(reachable.contains(":") ? "[\(reachable)]" : reachable):\(port)"
    return ServeBanner.text(base: base, key: .init(file: key, keyID: keyId, issuerID: issuerId, bundleID: bundleId),
                            example: ServeBanner.example(in: directory, bundleID: bundleId))
  }

  /// Log lines say which command wrote them: `subdash serve` runs this binary too.
  var logPrefix: String { serveAPI ? "subdash serve" : "subdash listen" }
}
