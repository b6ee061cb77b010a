import ArgumentParser
import DashModel
import DashRuntime
import DashView
import CoreValues
import SubscriberStorage

/// `subdash extend FILE --days N --reason 0..3`: Apple's Extend a Subscription Renewal Date on a
/// simulated state file; `--all` over files and directories is Extend for All Active Subscribers.
struct Extend: ParsableCommand {
  static let configuration = CommandConfiguration(
    commandName: "extend",
    abstract: "Extend a subscription's renewal date by 1-90 days, as the App Store Server API does.",
    discussion: """
      Apple's rules: 1-90 days a request, at most two extensions per 365 days; refused in a free offer period, in billing retry, in grace with a past expiry, after expiry, and for a family member's access. A refusal names Apple's error (e.g. SubscriptionMaxExtensionError). The expiry and renewal date move and RENEWAL_EXTENDED is recorded. Refused on Production data.

      --all takes state files and directories of them (a simulated group): every active subscriber is extended (RENEWAL_EXTENDED) or records RENEWAL_EXTENSION / FAILURE; inactive ones are left out; the RENEWAL_EXTENSION / SUMMARY with the counts is printed last.

      The moment is the file's simulated clock (simulation.now), else the wall clock. Exit codes: 0 ok; 1 refused (or, with --all, any failure); 2 bad input in a file; 64 a bad command line. See docs/simulation.md.
      """)

  @Argument(help: "The state file (with --all: state files and directories).")
  var paths: [String]

  @Option(help: "Days to extend by, 1-90.")
  var days: Int

  @Option(help: "Apple's extendReasonCode: 0 undeclared, 1 customer satisfaction, 2 other, 3 service issue or outage.")
  var reason: Int = 0

  @Flag(help: "Extend every active subscriber in the files and directories given (Apple's mass extension).")
  var all = false

  func validate() throws {
    if paths.isEmpty { throw ValidationError("missing the state FILE") }
    if !all && paths.count > 1 { throw ValidationError("one FILE at a time; use --all for several files or a directory") }
    do throws(ActionError) {
      guard ExtendRenewal.allowedDays.contains(days) else { throw .extensionRefused(.invalidExtendByDays(days)) }
      _ = try ExtendReasonCode.parse(reason)
    } catch {
      throw ValidationError(error.message)
    }
  }

  func run() throws {
    let code = ExtendReasonCode(rawValue: reason)!
    if all { throw ExitCode(try extendAll(code)) }
    let path = paths[0]
    if ListDirectory.isDirectory(path) {
      LineOut.stderr("subdash: \(path) is a directory; use --all to extend every active subscriber in it")
      throw ExitCode(64)
    }
    switch save(path, { state, now in
      Actions.apply(.extendRenewalDate(days: days, reason: code), to: state, at: now, timing: DashboardSession.timing(of: state))
    }) {
    case .saved(let change):
      LineOut.stdout(change.message)
      // Family members in the same directory follow the purchaser (Apple extends them automatically).
      let (store, name) = DirectorySubscriberStore.holding(path)
      for member in FamilyExtension.extendMembers(after: change, in: store, skipping: name, wall: WallClock.now()) {
        LineOut.stdout(Sanitizer.clean(member.line))  // a member's name is a directory entry
      }
    case .refused(let message): LineOut.stderr("subdash: \(message)"); throw ExitCode(1)
    case .badFile(let message): LineOut.stderr("subdash: \(message)"); throw ExitCode(2)
    }
  }

  /// Every file of the group, one locked write each; prints a line per file, then the summary.
  private func extendAll(_ code: ExtendReasonCode) throws -> Int32 {
    var files: [String] = []
    for p in paths {
      if ListDirectory.isDirectory(p) {
        do { files += try ListDirectory.stateFileNames(in: p).map { ListDirectory.filePath($0, in: p) } } catch {
          LineOut.stderr("subdash: \(error.description)")
          return 2
        }
      } else {
        files.append(p)
      }
    }
    var succeeded = 0, failed = 0, unreadable = 0
    // The SUMMARY is dated at the last subscriber's moment: a simulated group's clock, else now.
    var last = WallClock.now()
    for file in files {
      switch MassExtension.apply(toFile: file, days: days, reason: code, wall: WallClock.now()) {
      case .extended(let c):
        succeeded += 1
        last = c.notifications.last?.signedDate ?? last
        LineOut.stdout("extended  \(file): \(c.message)")
      case .failed(let c, let e):
        failed += 1
        last = c.notifications.last?.signedDate ?? last
        LineOut.stdout("FAILURE   \(file): \(e.message)")
      case .leftOut(let why): LineOut.stdout("left out  \(file): \(why)")
      case .unreadable(let why): unreadable += 1; LineOut.stderr("subdash: \(why)")
      }
    }
    let summary = MassExtension.summary(succeeded: succeeded, failed: failed, days: days, at: last)
    LineOut.stdout(SimulateOutput.line(summary))
    return unreadable > 0 ? 2 : failed > 0 ? 1 : 0
  }

  private enum Saved {
    case saved(Change)
    case refused(String)
    case badFile(String)
  }

  /// One locked, atomic update at the file's own moment (`simulation.now`, else the wall clock).
  private func save(_ path: String, _ body: (SubscriptionState, Instant) -> Result<Change, ActionError>) -> Saved {
    let wall = WallClock.now()
    let (store, name) = DirectorySubscriberStore.holding(path)
    switch store.update(existing: name, wait: .bounded, { (current) throws(ActionError) -> SubscriberEdit in
      .save(try body(current, WallClock.viewingTime(for: current, override: nil, wall: wall).now).get())
    }) {
    case .applied(let change), .created(let change): return .saved(change)
    case .unchanged: return .refused("nothing changed")
    case .refused(let r): return .refused(r.message)
    case .busy(let e), .failed(let e): return .badFile(e.description)
    }
  }
}
