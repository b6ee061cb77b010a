import AppStoreSigning
import Foundation
import DashModel
import CoreValues

extension NotificationReceiver {
  /// Signed data inside a notification is the notification's own, checked as Apple's libraries
  /// check a transaction against the verifier's app and environment: vouched for by the same root
  /// (an Xcode/LocalTesting payload, which nothing verifies, is never carried by a verified one),
  /// for the same environment and the same app. nil when all of it holds; else the refusal, naming
  /// the field. `data.signedTransactionInfo`/`signedRenewalInfo` were verified with the outer;
  /// RESCIND_CONSENT's `appData.signedAppTransactionInfo` is verified here.
  func refusal(ofSignedDataIn verified: VerifiedJWS, payload: JSONObject, scope: NotificationScope, label: String) async -> Outcome? {
    var inner = verified.nested.map { (path: $0.path, verified: $0.verified) }
    if scope.field == "appData", let value = payload["appData"]?.objectValue?["signedAppTransactionInfo"] {
      let path = "appData.signedAppTransactionInfo"
      guard let jws = value.stringValue else { return .refused(400, "\(label): \(path) is not a string") }
      do { inner.append((path, try await verifier.verify(jws))) } catch {
        return .refused(403, "\(label): \(path): \(Self.oneLine(error))")
      }
    }
    for (path, nested) in inner {
      if case .unverified(let environment) = nested.signedBy {
        return .refused(403, "\(label): \(path) is for the \(Self.clip(environment)) environment, which nothing verifies (Apple's libraries skip its signature); a verified notification carries only verified data")
      }
      guard nested.signedBy == verified.signedBy else {
        return .refused(403, "\(label): \(path) is signed under another root than the notification")
      }
      let fields = nested.payload
      // An app transaction names its environment `receiptType`. A payload naming none is taken
      // as the notification's (files written before the field existed are delivered too).
      let environment = fields[path.hasSuffix("signedAppTransactionInfo") ? "receiptType" : "environment"]?.stringValue
      if let environment, environment != scope.environment {
        return .refused(403, "\(label): \(path) is for \(Self.clip(environment)), the notification for \(scope.environment ?? "no environment")")
      }
      if let theirs = fields["bundleId"]?.stringValue, theirs != scope.bundleId {
        return .refused(403, "\(label): \(path) is for bundle id \(Self.clip(theirs)), the notification for \(Self.clip(scope.bundleId ?? "none"))")
      }
    }
    return nil
  }

  /// `application/json`, in any case, with or without parameters (`; charset=utf-8`): the media
  /// type is everything before the first `;`, so `application/jsonfoo` is not JSON.
  static func isJSON(_ contentType: String) -> Bool {
    let mediaType = contentType.split(separator: ";", maxSplits: 1, omittingEmptySubsequences: false).first ?? ""
    return mediaType.trimmingCharacters(in: .init(charactersIn: " \t")).lowercased() == "application/json"
  }
}

extension NotificationReceiver {
  /// 409 Conflict: the notification is authentic, but its subscriber is the other environment's
  /// (the importer refused it under the file's lock). Said by subscriber id, not file name.
  static func otherEnvironment(_ error: StateFileError, _ label: String, subscriber: String) -> String {
    let held = error.environments?.subscriber ?? "?", incoming = error.environments?.incoming ?? "?"
    return "\(label): subscriber \(subscriber) is a \(held) subscriber; a \(incoming) notification is never merged into its history"
  }
}

extension StateFileError {
  /// The subscriber's and the refused data's environments, when that is why a write was refused.
  public var environments: (subscriber: String, incoming: String)? {
    if case .otherEnvironment(let subscriber, let incoming) = kind { return (subscriber, incoming) }
    return nil
  }
}
