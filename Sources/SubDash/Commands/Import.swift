import ArgumentParser
import DashModel
import DashRuntime
import FoundationEssentials
import CoreValues
import SubscriberStorage
import SubscriberImport

/// `subdash import INPUT… -o STATE.json`: what a backend holds (signed JWS, notification bodies,
/// webhook logs, App Store Server API responses, decoded payloads, a RevenueCat customer) becomes
/// one subscriber's state file, written through the locked, atomic, journalled path.
struct Import: ParsableCommand {
  static let configuration = CommandConfiguration(
    commandName: "import",
    abstract: "Import real App Store (or RevenueCat) data into a state file.",
    discussion: """
      INPUT is a file (or - for stdin) holding a compact JWS, a notification body {"signedPayload"}, \
      JSON Lines of them (a webhook log), an App Store Server API response (Get All Subscription \
      Statuses, Get Transaction Info, Get Transaction History v1/v2 pages, Get Refund History, Look Up \
      Order ID, Get Notification History), decoded payloads or a RevenueCat GET /v1/subscribers response. \
      Input order never matters. An existing STATE gets what it does not hold yet. See docs/import.md.
      Exit codes: 0 imported; 2 bad input (one line naming the file, line and JSON path); nothing is written then.
      """)

  @Argument(help: "The inputs.")
  var inputs: [String]

  @Option(name: .shortAndLong, help: ArgumentHelp("The state file to create or add to.", valueName: "STATE.json"))
  var output: String

  @Option(name: .long, help: ArgumentHelp("The app's .storekit file (without it, products come from the transactions and plan actions are refused).", valueName: "FILE.storekit"))
  var catalog: String?

  @Option(name: .long, help: ArgumentHelp("The subscriber to import when the inputs hold several.", valueName: "ID"))
  var originalTransactionId: String?

  @Option(name: .customLong("root"), help: ArgumentHelp("Also trust this root certificate (DER or PEM); repeatable. Its data is marked \"locally signed, not Apple\", never Apple-signed.", valueName: "CERT"))
  var roots: [String] = []

  func run() throws {
    // Refused before anything is read or locked: the write path would leave `DIR.lock` beside it.
    if ListDirectory.isDirectory(output) {
      throw badInput("\(output): is a directory; -o names the state file to create or add to")
    }
    let checker = try SignatureCheck.checker(roots: roots)
    var defaultSubscriber: String?
    if let existing = try? StateFile.load(path: output) { defaultSubscriber = existing.subscriber.originalTransactionId }
    let merged: ImportMerge
    let choice: Importer.CatalogChoice?
    do throws(ImportError) {
      let options = Importer.Options(originalTransactionId: originalTransactionId, checker: checker)
      let items = try Importer.read(paths: inputs, options: options)
      merged = try Importer.merge(items: items, options: options, defaultSubscriber: defaultSubscriber)
      if merged.isEmpty {
        for w in merged.warnings { LineOut.stderr("subdash: warning: " + w) }
        throw ImportError.nothingToImport(inputs)
      }
    } catch { throw badInput(error.description) }
    do throws(StateFileError) {
      if let catalog { choice = try Importer.catalogChoice(catalogPath: catalog, statePath: output) } else { choice = nil }
    } catch { throw badInput(error.description) }
    for w in merged.warnings { LineOut.stderr("subdash: warning: " + w) }
    let written: Importer.Written
    do { written = try Importer.write(merged, to: output, catalog: choice) } catch { throw badInput(error.description) }
    let badge = written.state.importProvenance?.badge(ascii: !Terminal.localeIsUTF8()) ?? "no App Store payload"
    let verb = written.created ? "created" : "updated"
    print("\(output): \(verb): \(counted(written.newTransactions, "new transaction")), \(counted(written.newNotifications, "new notification")); \(badge)"
      + (written.state.catalog.derivedFromTransactions ? "; \(Importer.noCatalogMessage)" : ""))
  }
}

/// `subdash FILE` / `subdash show FILE` on an importable input rather than a state file: the
/// input is imported in memory (nothing written) and shown read-only, with a hint to `import`.
enum ImportedView {
  /// The in-memory state, or nil when `path` is not an importable input (then the state file's
  /// own error stands). Errors of a recognised input are reported as import errors.
  /// The import's warnings (placeholders skipped, items of other subscribers left out) come back
  /// too: `show` prints them on stderr, the dashboard lists them in its message log.
  /// `originalTransactionId` picks one subscriber of an input holding several (a Get All
  /// Subscription Statuses response), as `import --original-transaction-id` does.
  static func load(_ path: String, stateError: StateFileError, originalTransactionId: String? = nil) throws -> (state: SubscriptionState, warnings: [String])? {
    guard path != "-", let input = try? Importer.readInput(path), !isNotText(input.bytes), !looksLikeStateFile(input.bytes),
          !isBrokenJSONDocument(input.bytes) else { return nil }
    do {
      let merged = try Importer.merge(inputs: [input], options: .init(originalTransactionId: originalTransactionId, checker: try SignatureCheck.checker()))
      if merged.isEmpty { throw ImportError.nothingToImport([path]) }
      let state = try Importer.viewingState(merged, catalog: .derived, label: path) { (_) throws(StateFileError) -> Catalog in
        throw StateFileError(file: path, message: "no catalog file")
      }
      LineOut.stderr("subdash: \(path) is not a state file; showing it imported in memory (read-only, nothing written). Save it with: subdash import \(path) -o STATE.json")
      return (state, merged.warnings)
    } catch let e as ImportError {
      // A file that is neither a state file nor an input: the state file's message is the useful one.
      if e.kind == .unrecognised { throw badInput(stateError.naming(path).description) }
      throw badInput(e.description)
    }
  }

  /// An empty file, or bytes no App Store input holds (a NUL, or not UTF-8: an executable, an
  /// image): not an input to import, so the state file's own error stands, the words the list
  /// gives the same file ("the file is empty", "unexpected byte 0x7F"), not an importer's guess
  /// ("not a compact JWS").
  static func isNotText(_ bytes: [UInt8]) -> Bool {
    guard bytes.contains(where: { $0 != 0x20 && $0 != 0x0A && $0 != 0x0D && $0 != 0x09 }) else { return true }
    return bytes.contains(0) || String(validating: bytes, as: UTF8.self) == nil
  }

  /// A JSON object that does not parse, and is not JSON Lines either (its first line alone does
  /// not parse): most likely a state file being edited, whose own error names line and column.
  static func isBrokenJSONDocument(_ bytes: [UInt8]) -> Bool {
    guard bytes.first(where: { $0 != 0x20 && $0 != 0x0A && $0 != 0x0D && $0 != 0x09 }) == UInt8(ascii: "{"),
          (try? JSONParser.parse(bytes)) == nil else { return false }
    let firstLine = Array(bytes.prefix(while: { $0 != 0x0A }))
    return (try? JSONParser.parse(firstLine)) == nil
  }

  /// A SubDash state (format or subscriber with App Store fields) is never re-imported.
  static func looksLikeStateFile(_ bytes: [UInt8]) -> Bool {
    guard case .object(let o)? = try? JSONParser.parse(bytes) else { return false }
    return o["format"] != nil || o["subscriber"]?.objectValue?["latestTransaction"] != nil || o["catalog"] != nil || o["catalogFile"] != nil
  }
}
