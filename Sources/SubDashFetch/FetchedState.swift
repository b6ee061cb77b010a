import AppStoreAPI
import DashModel
import Foundation
import CoreValues
import SubscriberImport

/// Turns what the API returned into the state file, through the import engine (the same merge
/// rules, provenance and locked, atomic, journalled write as `subdash import`), then records how
/// to fetch it again (`fetchedFrom`; never the key).
enum FetchedState {
  struct Written {
    var created: Bool
    var newTransactions: Int
    var newNotifications: Int
  }

  static func inputs(_ result: FetchResult) -> [ImportInput] {
    var pages: [String: Int] = [:]
    return result.responses.map { response in
      pages[response.endpoint, default: 0] += 1
      let label = "App Store Server API (\(result.environment.displayName)): \(response.endpoint) page \(pages[response.endpoint]!)"
      return ImportInput(label: label, bytes: response.body)
    }
  }

  /// The subscriber is the one the fetched transaction belongs to: Get All Subscription Statuses
  /// returns every subscription group of the customer, which the importer would otherwise refuse
  /// as "several subscribers".
  static func write(_ result: FetchResult, to path: String, checker: any SignedDataChecking, baseURL: String?,
                    roots: [String], catalogPath: String?, now: Date) throws -> Written {
    let original = originalTransactionID(result) ?? result.transactionID
    let options = Importer.Options(originalTransactionId: original, checker: checker)
    let merged = try Importer.merge(inputs: inputs(result), options: options)
    // Checked before anything is written: a bad app transaction stops the fetch like a bad page.
    let app = try result.appTransaction.map {
      try FetchedAppTransaction(response: $0, checker: checker, bundleId: merged.latestTransaction?.bundleId ?? merged.transactions.last?.bundleId ?? "",
                                environment: result.environment.displayName)
    }
    let catalog = try catalogPath.map { catalogPath throws(StateFileError) in try Importer.catalogChoice(catalogPath: catalogPath, statePath: path) }
    let origin = FetchOrigin(transactionId: result.transactionID, orderId: result.orderID, environment: result.environment.displayName,
                             baseURL: baseURL, roots: roots.map(absolute), fetchedDate: Instant(ms: (now.timeIntervalSince1970 * 1000).rounded()))
    // How to fetch again is recorded in the same locked write as what was fetched.
    let written = try Importer.write(merged, to: path, catalog: catalog) { document in
      origin.write(into: &document)
      app?.write(into: &document)
    }
    return Written(created: written.created, newTransactions: written.newTransactions, newNotifications: written.newNotifications)
  }

  /// The dashboard may run the refresh from another directory.
  static func absolute(_ path: String) -> String {
    path.hasPrefix("/") ? path : FileManager.default.currentDirectoryPath + "/" + path
  }

  static func originalTransactionID(_ result: FetchResult) -> String? {
    guard let info = result.responses.first(where: { $0.endpoint == "Get Transaction Info" }),
          let object = (try? JSONParser.parse(info.body))?.objectValue,
          let jws = object["signedTransactionInfo"]?.stringValue else { return nil }
    guard case .success(let payload) = CompactJWS.payload(jws) else { return nil }
    return payload["originalTransactionId"]?.stringValue
  }
}
