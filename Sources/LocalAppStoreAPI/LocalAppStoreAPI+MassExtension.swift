import DashModel
import Foundation
import CoreValues
import SubscriberStorage

/// Extend Subscription Renewal Dates for All Active Subscribers and Get Status of Subscription
/// Renewal Date Extensions. Apple's request is asynchronous: the answer is only the
/// requestIdentifier, the work runs afterwards (here on a thread of its own, one locked write per
/// subscriber file, as `subdash extend --all` does), and the status endpoint reports progress.
/// Each subscriber's file gets RENEWAL_EXTENDED or RENEWAL_EXTENSION / FAILURE, which a deliverer
/// following it sends; the one RENEWAL_EXTENSION / SUMMARY at the end is the server's to send.
extension LocalAppStoreAPI {
  func extendAll(_ body: [UInt8], _ env: AppStoreEnvironment) throws -> [UInt8] {
    let request = try MassExtensionRequest(body: body)
    // SubDash changes test data only, as the single extension does (4030004 there too).
    guard env != .production else {
      throw APIFailure.extensionRefused(code: 4_030_004, message: "Extending renewal dates is refused on Production data.")
    }
    let answer = object([("requestIdentifier", .string(request.requestIdentifier))])
    // Apple: reusing a requestIdentifier answers 200 again and extends nobody twice.
    let key = Self.massKey(request.requestIdentifier, env)
    let isNew = lock.withLock {
      guard massExtensions[key] == nil else { return false }
      massExtensions[key] = MassExtensionProgress(request: request, environment: env)
      return true
    }
    guard isNew else { return answer }
    if let store {
      // The store's update waits without blocking a thread; a directory's blocks on its lock, so
      // that one keeps a thread of its own.
      Task { [self] in
        for file in directory.stateFiles() where includes(file, request, env) {
          count(await MassExtension.apply(in: store, name: PathName.fileName(of: file), days: request.extendByDays, reason: request.reason,
                                          wall: wallNow, includes: inRequest(request, env)), key)
        }
        await finish(key, at: wallNow)
      }
      return answer
    }
    Thread.detachNewThread { [self] in
      extendEach(request, env, key: key)
      // Complete once the SUMMARY has been sent, so a client that sees `complete` finds it.
      Task { await finish(key, at: wallNow) }
    }
    return answer
  }

  func massExtensionStatus(productId: String, requestIdentifier: String, _ env: AppStoreEnvironment) throws -> [UInt8] {
    guard MassExtensionRequest.isRequestIdentifier(requestIdentifier) else { throw MassExtensionRequest.invalidRequestIdentifier }
    guard MassExtensionRequest.isProductId(productId) else { throw MassExtensionRequest.invalidProductId }
    guard let progress = lock.withLock({ massExtensions[Self.massKey(requestIdentifier, env)] }), progress.request.productId == productId else {
      throw APIFailure.invalidRequest(code: 4_040_009, message: "Subscription-renewal-date extension request not found.")
    }
    return JSONWriter.write(progress.statusJSON)
  }

  /// Requests are the environment's own: a sandbox request is unknown to production.
  static func massKey(_ requestIdentifier: String, _ env: AppStoreEnvironment) -> String { env.rawValue + " " + requestIdentifier }

  /// Every subscriber of the product in the request's environment: extended, failed (recorded in
  /// its file) or left out (not active), each decided on the file's latest state under its lock.
  private func extendEach(_ request: MassExtensionRequest, _ env: AppStoreEnvironment, key: String) {
    for file in directory.stateFiles() where includes(file, request, env) {
      count(MassExtension.apply(toFile: file, days: request.extendByDays, reason: request.reason, wall: wallNow, includes: inRequest(request, env)), key)
    }
  }

  private func inRequest(_ request: MassExtensionRequest, _ env: AppStoreEnvironment) -> @Sendable (SubscriptionState) -> Bool {
    { [directory] s in directory.isOurs(s, in: env) && request.covers(s.subscriber.latestTransaction) }
  }

  /// A cheap look first (most files of a directory are not the product's); the decision is made
  /// again on the locked state.
  private func includes(_ file: String, _ request: MassExtensionRequest, _ env: AppStoreEnvironment) -> Bool {
    guard let seen = try? StateFile.load(path: file) else { return false }
    return inRequest(request, env)(seen)
  }

  private func count(_ outcome: MassExtension.FileOutcome, _ key: String) {
    lock.withLock {
      switch outcome {
      case .extended: massExtensions[key]?.succeeded += 1
      case .failed: massExtensions[key]?.failed += 1
      case .leftOut, .unreadable: break  // not active, or a file that cannot be read: not counted
      }
    }
  }

  /// RENEWAL_EXTENSION / SUMMARY (`summary` with the counts instead of `data`), then complete.
  private func finish(_ key: String, at date: Instant) async {
    guard let progress = lock.withLock({ massExtensions[key] }) else { return }
    let r = progress.request
    var summary: [(String, JSON)] = [("environment", .string(progress.environment.rawValue))]
    if let id = settings.appAppleId { summary.append(("appAppleId", .int(id))) }
    summary += [("bundleId", .string(settings.check.bundleID)), ("productId", .string(r.productId)),
                ("requestIdentifier", .string(r.requestIdentifier))]
    if let codes = r.storefrontCountryCodes { summary.append(("storefrontCountryCodes", .array(codes.map(JSON.string)))) }
    summary += [("succeededCount", .int(Int64(progress.succeeded))), ("failedCount", .int(Int64(progress.failed)))]
    var n = MassExtension.summary(succeeded: progress.succeeded, failed: progress.failed, days: r.extendByDays, at: date)
    // Two requests can end in the same millisecond with the same counts: a receiver would take
    // the second SUMMARY for a redelivery of the first.
    n.notificationUUID = UUID().uuidString.lowercased()
    let sent = try? await sendAppLevel(n, progress.environment, summary: JSONObject(summary))
    lock.withLock {
      massExtensions[key]?.summary = sent
      massExtensions[key]?.completeDate = date
    }
  }
}
