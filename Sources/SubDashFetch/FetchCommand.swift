import AppStoreAPI
import AppStoreSigning
import ArgumentParser
import DashModel
import Foundation
import CoreValues

/// `subdash fetch`: asks the App Store Server API for everything about one customer and writes it,
/// only when every call succeeded, atomically and locked, to the output file.
@main
struct FetchCommand: AsyncParsableCommand {
  static let configuration = CommandConfiguration(
    commandName: "subdash fetch",
    abstract: "Fetch one customer's subscription data from the App Store Server API.",
    discussion: """
      Credentials come from the flags, else SUBDASH_APPSTORE_KEY_FILE / _KEY_ID / _ISSUER_ID / _BUNDLE_ID, \
      else a profile (--profile, SUBDASH_APPSTORE_PROFILE or ~/.config/subdash/appstore.profile; must be chmod 600). \
      Nothing is written unless every call succeeded. Exit codes: 0 written; 2 credentials, input or a 4xx; \
      1 Apple or the network. See docs/fetch.md.
      """)

  @Argument(help: "A transaction id or original transaction id of the customer.")
  var transactionID: String?

  @Option(name: .customLong("order-id"), help: "Look the customer up by the order ID from their App Store receipt email (production only).")
  var orderID: String?

  @Option(name: .shortAndLong, help: ArgumentHelp("Where to write what was fetched.", valueName: "STATE.json"))
  var output: String

  @Option(help: ArgumentHelp("production, sandbox, or auto (production, then sandbox when Apple says the transaction id is not found).", valueName: "production|sandbox|auto"))
  var environment: String = "auto"

  @Option(name: .customLong("key-file"), help: ArgumentHelp("The team's In-App Purchase key (.p8).", valueName: "FILE"))
  var keyFile: String?
  @Option(name: .customLong("key-id")) var keyID: String?
  @Option(name: .customLong("issuer-id")) var issuerID: String?
  @Option(name: .customLong("bundle-id")) var bundleID: String?
  @Option(help: ArgumentHelp("A credentials profile (key = value lines).", valueName: "FILE")) var profile: String?

  @Option(name: .customLong("base-url"), help: ArgumentHelp("Use this server instead of Apple's (tests; sandbox is <URL>/sandbox).", valueName: "URL"))
  var baseURL: String?

  @Option(name: .customLong("root"), help: ArgumentHelp("Trust this root (PEM or DER) for the server's TLS chain and for signed data (never shown as Apple's); repeatable.", valueName: "CERT"))
  var roots: [String] = []

  @Option(name: .long, help: ArgumentHelp("The app's .storekit file (without it, products come from the transactions).", valueName: "FILE.storekit"))
  var catalog: String?

  @Flag(name: .long, help: "No progress lines on stderr.")
  var quiet = false

  /// Set by the dashboard's refresh key: a credentials error then says where a refresh looks for
  /// them (the first fetch's flags are not kept anywhere).
  @Flag(name: .long, help: .hidden)
  var refresh = false

  var credentialsFromFlags: Bool { [keyFile, keyID, issuerID, bundleID].contains { $0 != nil } }

  func run() async throws {
    guard (transactionID == nil) != (orderID == nil) else {
      throw ValidationError("give either TRANSACTION_ID or --order-id ORDERID")
    }
    guard let choice = EnvironmentChoice(rawValue: environment) else {
      throw ValidationError("--environment must be production, sandbox or auto, not \(environment)")
    }
    if orderID != nil, choice == .sandbox {
      throw ValidationError("--order-id works in production only (Apple has no sandbox Look Up Order ID)")
    }
    // A URL no request can go to is said at once, not after four retries.
    if let baseURL, let why = OutboundURL.refusal(baseURL) {
      throw ValidationError("--base-url \(LogText.clip(baseURL, limit: 120)): \(why)")
    }
    let progress = Progress(quiet: quiet)
    let result: FetchResult
    do {
      let credentials = try CredentialLoader.load(
        flags: .init(keyFile: keyFile, keyID: keyID, issuerID: issuerID, bundleID: bundleID, profile: profile),
        environment: ProcessInfo.processInfo.environment)
      let client = try AppStoreClient(credentials: credentials, configuration: .init(baseURL: baseURL, trustRootFiles: roots),
                                      notice: { progress.always($0) })
      do {
        let fetcher = Fetcher(client: client, progress: { progress.line($0) })
        if let orderID {
          result = try await fetcher.fetch(orderID: orderID)
        } else {
          result = try await fetcher.fetch(transactionID: transactionID!, choice: choice)
        }
        await client.shutdown()
      } catch {
        await client.shutdown()
        throw error
      }
    } catch let error as AppStoreAPIError {
      if refresh, case .credentials = error {
        progress.always("subdash: \(error.description); \(Self.refreshCredentialsHint)")
        throw ExitCode(error.exitCode)
      }
      progress.always("subdash: \(error.description); \(output) was not written")
      throw ExitCode(error.exitCode)
    }
    let verifier: JWSVerifier
    do {
      verifier = try JWSVerifier(extraRoots: try roots.map { path in
        guard let data = FileManager.default.contents(atPath: path) else { throw ValidationError("--root \(path): cannot read") }
        return try TrustedRoot(fileContents: [UInt8](data), source: path)
      })
    } catch {
      progress.always("subdash: \(error); \(output) was not written")
      throw ExitCode(2)
    }
    let signatures = await FetchedSignatures.verify(result, verifier: verifier)
    let written: FetchedState.Written
    do {
      written = try FetchedState.write(result, to: output, checker: signatures, baseURL: baseURL, roots: roots,
                                       catalogPath: catalog, now: Date())
    } catch {
      // Import and state-file errors already name the input or file, line and JSON path.
      progress.always("subdash: \(error)")
      throw ExitCode(2)
    }
    // What changed first: the dashboard's refresh key shows this line on its status line.
    progress.always("\(PathName.fileName(of: output)): \(written.created ? "created" : "updated"): \(counted(written.newTransactions, "new transaction")), "
      + "\(counted(written.newNotifications, "new notification")) from the App Store Server API (\(result.environment.displayName), "
      + "transaction \(result.transactionID), \(result.transactionCount) in its history)")
    if credentialsFromFlags, !quiet { progress.always("note: \(Self.refreshCredentialsHint)") }
  }

  /// Credentials are never written to the state file, so the refresh key finds them only where
  /// any later fetch would: the environment or a profile.
  static let refreshCredentialsHint = "the dashboard's refresh key (l) reads credentials from \(CredentialLoader.keyFileVariable), "
    + "\(CredentialLoader.keyIDVariable), \(CredentialLoader.issuerIDVariable) and \(CredentialLoader.bundleIDVariable) "
    + "or a profile (~/.config/subdash/appstore.profile), not from the first fetch's flags"
}

extension AppStoreAPIError {
  /// 2 for what the user typed or configured (id, credentials), 1 for Apple or the network.
  var exitCode: Int32 {
    switch self {
    case .credentials, .unauthorized, .orderInvalid, .otherApp: return 2
    case .apple(_, _, let status, _, _): return (400..<500).contains(status) && status != 429 ? 2 : 1
    default: return 1
    }
  }
}

/// Progress goes to stderr, and only once the fetch has taken longer than a moment: a quick fetch
/// prints just its result line.
final class Progress: @unchecked Sendable {
  let quiet: Bool
  let started = Date()
  private let lock = NSLock()
  init(quiet: Bool) { self.quiet = quiet }

  func line(_ text: String) {
    guard !quiet, Date().timeIntervalSince(started) > 0.5 else { return }
    always(text)
  }

  func always(_ text: String) {
    lock.lock()
    defer { lock.unlock() }
    FileHandle.standardError.write(Data((text + "\n").utf8))
  }
}
