import AppStoreSigning
import ArgumentParser
import DashModel
import Foundation
import NotificationDelivery
import CoreValues
import SubscriberStorage

/// `subdash deliver` (run by `subdash`, and by `subdash simulate --deliver`): follows a state file
/// and POSTs each new notification, signed by the local test CA, to the developer's server.
@main
struct DeliverCommand: AsyncParsableCommand {
  static let configuration = CommandConfiguration(
    commandName: "subdash deliver",
    abstract: "Send a state file's new notifications to a server as App Store Server Notifications V2, signed by the local test CA.",
    discussion: """
      Follows FILE: every notification written to it from now on (by `subdash simulate`, a \
      dashboard key, a scenario) is signed as a V2 signedPayload with nested signedTransactionInfo \
      and signedRenewalInfo and POSTed to URL as {"signedPayload": "…"}. 200–206 is delivered; \
      anything else, a timeout (--timeout) or a refused connection is retried 1, 12, 24, 48 and 72 \
      hours after the previous attempt (subscription time: scaled by the file's time rate), as the \
      App Store does in production; --retry-schedule sandbox makes one attempt only, as Apple's \
      sandbox does. Every attempt is recorded in FILE's "deliveries" (Apple's sendAttempts and \
      result names), shown by the dashboard and `subdash show`. Pending deliveries survive Ctrl-C \
      and resume on the next run. The CA is created on first use (see `subdash ca`). \
      Exit codes: 0 done or stopped; 2 the file could not be read or written; 64 bad options. \
      See docs/notifications.md.
      """)

  @Option(name: .customLong("to"), help: ArgumentHelp("Where to POST (http or https).", valueName: "URL")) var url: String
  @Option(help: ArgumentHelp("The local test CA (created when missing; default ~/.config/subdash/ca).", valueName: "DIR")) var ca: String?
  @Option(name: .customLong("retry-schedule"), help: "production (1/12/24/48/72 h) or sandbox (one attempt).") var retrySchedule = "production"
  @Option(name: .customLong("duplicate-rate"), help: "Chance 0…1 that a delivered notification is sent again (same UUID).") var duplicateRate = 0.0
  @Option(name: .customLong("reorder-window"), help: ArgumentHelp("Hold each notification a random 0…S seconds so close ones arrive out of order.", valueName: "S"))
  var reorderWindow = 0.0
  @Option(help: "Seed for the duplicate and reorder choices.") var seed: UInt64 = 1
  @Option(help: ArgumentHelp("Seconds before an attempt counts as TIMED_OUT.", valueName: "S")) var timeout = 5.0
  @Option(name: .customLong("app-apple-id"), help: "data.appAppleId (Apple's verifiers require it for Production).") var appAppleId: Int64?
  @Flag(help: "Send what is written and pending, then stop once nothing is left.") var drain = false
  @Flag(name: .customLong("until-stdin-closes"), help: .hidden) var untilStdinCloses = false
  @Argument(help: "The state file, or with --drain a directory of them (a population: each file's book must exist, as `simulate --population --deliver` makes it).") var file: String

  func validate() throws {
    guard RetrySchedule(rawValue: retrySchedule) != nil else { throw ValidationError("--retry-schedule must be production or sandbox") }
    guard (0...1).contains(duplicateRate) else { throw ValidationError("--duplicate-rate must be between 0 and 1") }
    guard reorderWindow >= 0, reorderWindow <= 3600 else { throw ValidationError("--reorder-window must be 0…3600 seconds") }
    guard timeout > 0, timeout <= 120 else { throw ValidationError("--timeout must be more than 0 and at most 120 seconds") }
    if let why = OutboundURL.refusal(url) { throw ValidationError("--to \(LogText.clip(url, limit: 120)): \(why)") }
  }

  func run() async throws {
    // A state file that is not there is one error line, before anything is made (a test CA
    // created in a fresh home would print its trust lines above it).
    guard FileManager.default.fileExists(atPath: file) else { throw Self.fail("\(file): no such state file; nothing was created") }
    let authority: LocalCertificateAuthority
    do { authority = try LocalCertificateAuthority.loadOrCreate(in: ca, trustedBy: "your server", say: Self.say) } catch {
      throw Self.fail("\(ca ?? LocalCertificateAuthority.defaultDirectory()): \(error)")
    }
    let stop = StopSwitch()
    let drained = StopSwitch()
    if drain { drained.set() }
    let signals = Self.trap([SIGINT, SIGTERM, SIGHUP], stop)
    defer { _ = signals }
    if untilStdinCloses { Self.watchStdin(drained) }
    var isDirectory: ObjCBool = false
    if FileManager.default.fileExists(atPath: file, isDirectory: &isDirectory), isDirectory.boolValue {
      guard drain else { throw Self.fail("\(file) is a directory: deliver a directory with --drain (each file's pending and new notifications, then stop)") }
      return try await deliverDirectory(authority, stop: stop)
    }
    let sender = HTTPNotificationSender()
    let deliverer = deliverer(for: file, seed: seed, authority: authority, sender: sender, log: { Self.say($0) })
    Self.say("delivering \(file)'s new notifications to \(url)")
    let totals: Deliverer.Totals
    do {
      // `simulate --deliver` waits for "ready" on our stdout before it writes anything.
      let handshake = untilStdinCloses
      totals = try await deliverer.run(stop: { stop.isSet }, drain: { drained.isSet }, started: {
        if handshake { FileHandle.standardOutput.write(Data("ready\n".utf8)) }
      })
    } catch {
      await sender.shutdown()
      throw Self.fail(error.description)
    }
    await sender.shutdown()
    Self.say(totals.summary(stopped: stop.isSet))
  }

  /// Every state file in the directory, eight at a time, each until nothing is pending. Only
  /// failures are logged per attempt; one closing line gives the totals and the rate.
  func deliverDirectory(_ authority: LocalCertificateAuthority, stop: StopSwitch) async throws {
    let names = (try? StateFileDirectory.names(in: file)) ?? []
    let sender = HTTPNotificationSender()
    let started = Date()
    var totals = Deliverer.Totals(), unreadable: [String] = []
    await withTaskGroup(of: (Deliverer.Totals?, String?).self) { group in
      var next = 0
      func add() {
        guard next < names.count else { return }
        let deliverer = deliverer(for: file + "/" + names[next], seed: seed &+ UInt64(next), authority: authority, sender: sender,
                                  log: { line in if !line.hasPrefix("✓") { Self.say(line) } })
        next += 1
        group.addTask {
          do { return (try await deliverer.run(stop: { stop.isSet }, drain: { true }), nil) } catch { return (nil, "\(error)") }
        }
      }
      for _ in 0..<8 { add() }
      for await (t, failure) in group {
        if let t { totals.add(t) }
        if let failure { unreadable.append(failure) }
        add()
      }
    }
    await sender.shutdown()
    for u in unreadable { Self.say("subdash deliver: " + u) }
    let seconds = Date().timeIntervalSince(started)
    Self.say("subdash deliver: \(counted(names.count, "file")); \(counted(totals.attempts, "attempt")), \(totals.delivered) delivered"
             + (totals.gaveUp > 0 ? ", \(totals.gaveUp) given up" : "") + (totals.pending > 0 ? ", \(totals.pending) pending" : "")
             + String(format: " in %.1f s (%.0f notifications/s)", seconds, Double(totals.delivered) / max(seconds, 0.001)))
    if !unreadable.isEmpty { throw ExitCode(2) }
  }

  /// A deliverer for one state file with the command line's options.
  func deliverer(for path: String, seed: UInt64, authority: LocalCertificateAuthority, sender: HTTPNotificationSender,
                 log: @escaping @Sendable (String) -> Void) -> Deliverer {
    let options = DeliveryOptions(url: url, schedule: RetrySchedule(rawValue: retrySchedule) ?? .production, duplicateRate: duplicateRate,
                                  reorderWindow: reorderWindow, seed: seed, timeout: timeout, appAppleId: appAppleId)
    return Deliverer(path: path, options: options, signer: NotificationSigner(authority: authority), sender: sender,
                     wallClock: { Instant(ms: (Date().timeIntervalSince1970 * 1000).rounded(.down)) }, log: log)
  }

  static func say(_ line: String) {
    FileHandle.standardError.write(Data((line + "\n").utf8))
  }

  static func fail(_ message: String) -> ExitCode {
    say("subdash: " + message.split(whereSeparator: \.isNewline).joined(separator: " "))
    return ExitCode(2)
  }

  /// SIGINT/SIGTERM/SIGHUP stop the loop at its next turn (pending deliveries stay in the file).
  static func trap(_ numbers: [Int32], _ flag: StopSwitch) -> [DispatchSourceSignal] {
    numbers.map { n in
      signal(n, SIG_IGN)
      let source = DispatchSource.makeSignalSource(signal: n, queue: .global())
      source.setEventHandler { flag.set() }
      source.resume()
      return source
    }
  }

  /// `simulate --deliver` holds our stdin open while it writes; EOF means the simulation is over.
  static func watchStdin(_ flag: StopSwitch) {
    Thread.detachNewThread {
      var byte: UInt8 = 0
      while read(0, &byte, 1) > 0 {}
      flag.set()
    }
  }
}

/// A one-way switch shared with signal handlers and the stdin watcher.
final class StopSwitch: @unchecked Sendable {
  private let lock = NSLock()
  private var value = false
  var isSet: Bool { lock.withLock { value } }
  func set() { lock.withLock { value = true } }
}
