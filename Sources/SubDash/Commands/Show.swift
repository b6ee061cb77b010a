import ArgumentParser
import DashModel
import DashRuntime
import DashView
import FoundationEssentials
#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif
import CoreValues
import SubscriberStorage
import SubscriberImport

/// `subdash show FILE`: the dashboard's information as plain text (or the derived lifecycle as
/// JSON) on stdout. Never writes the file.
struct Show: ParsableCommand {
  static let configuration = CommandConfiguration(
    commandName: "show",
    abstract: "Print a subscriber's state as plain text (or JSON) for a ticket or a script.",
    discussion: "Exit codes: 0 ok; 1 standard output could not be written (--json); 2 the file could not be read or is invalid (one-line error on stderr naming file:line:column and JSON path).")

  @Argument(help: "The state file (JSON).")
  var file: String

  @Flag(name: .long, help: "Print the derived lifecycle (status, access verdict, dates, warnings) as JSON.")
  var json = false

  // Unconditional: `--events -1` is a value to refuse in words (validate), not an unknown option.
  @Option(name: .long, parsing: .unconditional, help: "How many recent notifications to list (0 or more).")
  var events = 10

  @Flag(name: .long, help: "Only ASCII characters in the output.")
  var ascii = false

  @OptionGroup var viewing: ViewingOptions

  @OptionGroup var subscriber: SubscriberChoice

  /// Bad --now/--retry-access values are usage errors (64) reported with `show`'s usage line.
  func validate() throws {
    _ = try viewing.nowOverride()
    _ = try viewing.retryAccessOverride()
    if events < 0 { throw ValidationError("--events \(events): a count of recent notifications is 0 or more") }
  }

  func run() throws {
    try ShowRequest(file: file, json: json, events: events, ascii: ascii,
                    viewing: .init(now: try viewing.nowOverride(), retryAccess: try viewing.retryAccessOverride()),
                    subscriber: .init(originalTransactionId: subscriber.originalTransactionId)).run()
  }
}

/// What `show` was asked, as plain values: ArgumentParser fills them from `Show`, and
/// `ShowRequest.parseCommon` from the usual short command lines without ArgumentParser (its
/// parse by reflection was half of a `show` process; SubDash+Main.swift).
struct ShowRequest {
  var file: String
  var json = false
  var events = 10
  var ascii = false
  var viewing = Viewing()
  var subscriber = SubscriberChoice.Wanted()

  /// --now and --retry-access, already checked.
  struct Viewing {
    var now: Instant?
    var retryAccess: AccessPolicy.RetryAccess?
    func nowOverride() -> Instant? { now }
    func apply(to state: inout SubscriptionState) {
      if let r = retryAccess { state.document.policy.billingRetryAccess = r }
    }
  }

  /// `show FILE`, `show --json FILE`, `show FILE --ascii` …: one file and the flags --json and
  /// --ascii, each at most once; nil for anything else (other options, help, a second file, an
  /// argument starting with "-"), which ArgumentParser then parses and reports as always.
  static func parseCommon(_ arguments: ArraySlice<String>) -> ShowRequest? {
    var file: String?
    var json = false, ascii = false
    for a in arguments {
      switch a {
      case "--json" where !json: json = true
      case "--ascii" where !ascii: ascii = true
      default:
        guard file == nil, let first = a.utf8.first, first != UInt8(ascii: "-") else { return nil }
        file = a
      }
    }
    guard let file else { return nil }
    return ShowRequest(file: file, json: json, ascii: ascii)
  }
}

extension ShowRequest {
  func run() throws {
    var state: SubscriptionState
    ShowHeapRoom.prepare(forFileAt: file)
    do {
      state = try StateFile.loadForViewing(path: file)
      try subscriber.check(state, file: file)
    } catch let error as StateFileError {
      // An App Store or RevenueCat input opens imported in memory, nothing written.
      guard let imported = try ImportedView.load(file, stateError: error, originalTransactionId: subscriber.originalTransactionId) else {
        throw badInput(error.naming(file).description)
      }
      for w in imported.warnings { LineOut.stderr("subdash: warning: " + w) }
      state = imported.state
    }
    viewing.apply(to: &state)
    let wall = WallClock.now()
    let (now, simulated) = WallClock.viewingTime(for: state, override: viewing.nowOverride(), wall: wall)
    let report = Lifecycle.derive(state, at: now)
    // The whole history (inline and journal), for the summary and the timeline.
    let history = CustomerHistory.load(state, statePath: file)
    let story = CustomerStory.derive(history, state: state, now: now)
    if json {
      var o = report.json.objectValue ?? JSONObject()
      o["file"] = .string(file)
      o["simulatedClock"] = .bool(simulated)
      // The payloads themselves, in App Store Server API field names, for lookups by
      // originalTransactionId or appAccountToken, and the recent log as `--events` says.
      let sub = state.subscriber
      o["subscriptionGroupIdentifier"] = sub.latestTransaction?.subscriptionGroupIdentifier.map(JSON.string) ?? o["groupId"]
      o["latestTransaction"] = sub.latestTransaction?.json ?? .null
      // A consumable, or a product the catalog lacks, is flagged (the dashboard's verdict).
      o["purchase"] = PurchaseVerdict.json(state) ?? .null
      o["renewalInfo"] = sub.renewalInfo?.json ?? .null
      o["notifications"] = .array(try recentEvents(state).map(\.json))
      o["summary"] = story.summaryJSON
      // Its place in the document; the periods themselves are written as bytes below.
      o["timeline"] = .array([])
      o["timelineMarks"] = story.timelineMarksJSON
      // What each key would do to a 12-month commitment (the dashboard's previews).
      if case .object(var c)? = o["commitment"],
         let keys = CommitmentKeys.json(state, at: now, timing: (try? Simulator.rules(state).rate) ?? TimeRate.realTime) {
        c["keys"] = keys
        o["commitment"] = .object(c)
      }
      // Finish Transaction calls from the developer's server (`serve` records them), and the
      // subscription this one was migrated from (Apple's previousOriginalTransactionId), when present.
      let finished = FinishedTransactions.read(state.document)
      if !finished.isEmpty {
        o["finishedTransactions"] = .array(finished.map { .object(JSONObject([("transactionId", .string($0.transactionId)), ("finishedDate", .double($0.finishedDate.ms))])) })
      }
      if let previous = PreviousOriginalTransaction.id(of: sub) {
        o["previousOriginalTransactionId"] = .string(previous)
      }
      // The app transaction `fetch` recorded (Get App Transaction Info), when it did.
      if let app = FetchedAppTransaction(document: state.document) { o[FetchedAppTransaction.key] = app.json }
      // Deliveries to the developer's server (`subdash deliver`): Apple's sendAttempts per notification.
      if let book = state.document.deliveries { o["deliveries"] = book.json }
      // The timeline (a period per transaction, 100,000 for a long history) goes straight from
      // the story to standard output, in chunks, exactly as `JSONWriter` writes
      // `story.timelineJSON` (`ShowTimelineStream`); the document ends with a newline, so a
      // shell prompt or the next `jq` line starts on its own.
      var failure: Int32?
      let rest = JSONWriter.write(o, splicing: ["timeline": { out, indent in
        failure = ShowTimelineStream.stream(story, head: &out, indent: indent) { LineOut.stdoutBytes($0) }
      }], reservingCapacity: 65_536)
      if let code = failure ?? LineOut.stdoutBytes(rest) {
        LineOut.stderr("subdash: cannot write the JSON to standard output: \(String(cString: strerror(code)))")
        throw ExitCode(1)
      }
      // The process ends once this returns. A long file is hundreds of megabytes of small
      // objects (the parsed document, its history, the story), and releasing them one by one
      // took a tenth of `show --json`; the system takes the memory back at exit in one go.
      KeptUntilExit.keep((state, history, story, report))
      return
    }
    let recent = try recentEvents(state)
    var vm = ViewModel.derived(
      state: state, notifications: recent, fileName: file,
      clock: DashClock(simulated: simulated ? now : nil, wall: wall, viewingAt: viewing.nowOverride()),
      options: DisplayOptions(readOnly: true, ascii: ascii, color: false))
    vm.story = story
    for line in PlainReport.lines(vm, ascii: ascii) { print(line) }
  }

  /// The recent log. A state file copied without its journal (into a support ticket, say) still
  /// shows its state: the missing history is said once on stderr and no events are listed. Any
  /// other problem with the journal (cut short, unreadable) stays an error.
  private func recentEvents(_ state: SubscriptionState) throws -> [NotificationRecord] {
    if let journal = state.document.journal, access(PathName.directory(of: file) + "/" + journal.file, F_OK) != 0, errno == ENOENT {
      LineOut.stderr("subdash: warning: \(file): its history journal \(journal.file) is missing (copied without it?): the state is shown, its events are not")
      return []
    }
    do { return try StateFile.recentNotifications(state, statePath: file, limit: max(0, events)) } catch { throw badInput(error.description) }
  }
}

/// Values left allocated for the rest of the process (see `ShowRequest.run`).
private final class KeptUntilExit<Value> {
  let value: Value
  private init(_ value: Value) { self.value = value }
  static func keep(_ value: Value) { _ = Unmanaged.passRetained(KeptUntilExit(value)) }
}
