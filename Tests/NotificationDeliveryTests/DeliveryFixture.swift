import AppStoreSigning
import DashModel
import Foundation
import NotificationDelivery
import CoreValues
import SubscriberStorage

/// A subscriber file the tests drive with the simulation engine (Examples/active.json at one
/// renewal every two seconds: Apple's whole retry schedule takes about 0.2 s), and a deliverer
/// following it.
struct DeliveryFixture {
  static let ca = try! LocalCertificateAuthority.create()
  let directory: String
  var path: String { directory + "/active.json" }

  init(rate: String = "oneRenewalEveryTwoSeconds") throws {
    directory = FileManager.default.temporaryDirectory.appendingPathComponent("subdash-deliver-\(UUID().uuidString)").path
    try FileManager.default.createDirectory(atPath: directory, withIntermediateDirectories: true)
    let examples = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()
      .appendingPathComponent("Examples").path
    for name in ["active.json", "backyard-birds.storekit"] {
      try FileManager.default.copyItem(atPath: examples + "/" + name, toPath: directory + "/" + name)
    }
    try step { s throws(ActionError) in try Simulator.setSettings(s, [("timeRate", .string(rate))]).get() }
  }

  func remove() { try? FileManager.default.removeItem(atPath: directory) }

  /// One locked engine step on the file, as `subdash simulate` makes it.
  @discardableResult
  func step(_ body: (SubscriptionState) throws(ActionError) -> Change) throws -> Change {
    try StateFile.update(path: path, refusing: ActionError.self, body).change
  }

  /// `count` renewals, one engine step each; their notifications in order.
  @discardableResult
  func renew(_ count: Int) throws -> [NotificationRecord] {
    var out: [NotificationRecord] = []
    for _ in 0..<count { out += try step { s throws(ActionError) in try Simulator.advanceToNextEvent(s) }.notifications }
    return out
  }

  var state: SubscriptionState { get throws { try StateFile.load(path: path) } }
  var book: DeliveryBook? { get throws { try state.document.deliveries } }

  func deliverer(to url: String, _ options: (inout DeliveryOptions) -> Void = { _ in }, log: Lines = Lines()) -> (Deliverer, HTTPNotificationSender) {
    var o = DeliveryOptions(url: url, timeout: 2)
    options(&o)
    let sender = HTTPNotificationSender()
    return (Deliverer(path: path, options: o, signer: NotificationSigner(authority: Self.ca), sender: sender,
                      wallClock: { Instant(ms: (Date().timeIntervalSince1970 * 1000).rounded(.down)) }, log: { log.add($0) }), sender)
  }

  /// Runs a deliverer until everything written so far is sent (or `seconds` pass).
  func deliverAll(to url: String, seconds: Double = 20, _ options: (inout DeliveryOptions) -> Void = { _ in }, log: Lines = Lines(),
                  whileRunning: @escaping @Sendable () throws -> Void = {}) async throws -> Deliverer.Totals {
    let (deliverer, sender) = deliverer(to: url, options, log: log)
    let deadline = Date().addingTimeInterval(seconds)
    let done = Lines()
    do {
      let totals = try await deliverer.run(stop: { Date() > deadline }, drain: { !done.all.isEmpty }, started: {
        try? whileRunning()
        done.add("written")
      })
      await sender.shutdown()
      return totals
    } catch {
      await sender.shutdown()
      throw error
    }
  }
}

/// Lines collected from several tasks.
final class Lines: @unchecked Sendable {
  private let lock = NSLock()
  private var lines: [String] = []
  func add(_ line: String) { lock.withLock { lines.append(line) } }
  var all: [String] { lock.withLock { lines } }
}
