import DashModel
#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif
import CoreValues
import SubscriberStorage

/// Follows one state file and delivers its new notifications: signs each as the App Store would,
/// POSTs it, and records every attempt in the file's `deliveries` (through the locked write path,
/// so the simulator's and the dashboard's writes are never lost). Failed attempts are retried on
/// the schedule; pending deliveries survive a restart because they live in the file.
public struct Deliverer: Sendable {
  public let path: String
  public let options: DeliveryOptions
  let signer: NotificationSigner
  let sender: any NotificationSending
  let wallClock: @Sendable () -> Instant
  let log: @Sendable (String) -> Void

  public init(path: String, options: DeliveryOptions, signer: NotificationSigner, sender: any NotificationSending,
              wallClock: @escaping @Sendable () -> Instant, log: @escaping @Sendable (String) -> Void) {
    self.path = path
    self.options = options
    self.signer = signer
    self.sender = sender
    self.wallClock = wallClock
    self.log = log
  }

  /// What a run did, for the closing line.
  public struct Totals: Sendable, Equatable {
    public var attempts = 0
    public var delivered = 0
    public var gaveUp = 0
    public var duplicates = 0
    public var pending = 0
    public init() {}

    /// Another run's totals added in (a directory's files).
    public mutating func add(_ t: Totals) {
      attempts += t.attempts
      delivered += t.delivered
      gaveUp += t.gaveUp
      duplicates += t.duplicates
      pending += t.pending
    }

    /// The closing line of `subdash deliver FILE`: what was sent, and what is still unsent (the
    /// pending count is taken after a last read of the file, so a notification committed just
    /// before the stop is counted, not called "nothing pending").
    public func summary(stopped: Bool) -> String {
      var parts = [counted(attempts, "attempt"), "\(delivered) delivered"]
      if duplicates > 0 { parts.append("\(counted(duplicates, "duplicate")) sent") }
      if gaveUp > 0 { parts.append("\(gaveUp) given up") }
      parts.append(pending == 0 ? "nothing pending" : "\(pending) pending (resumed by the next `subdash deliver`)")
      return "subdash deliver: " + (stopped ? "stopped; " : "") + parts.joined(separator: ", ")
    }
  }

  /// Runs until `stop()` (Ctrl-C: pending deliveries stay in the file for the next run) or, once
  /// `drain()` is true, until nothing is pending and no new notification has appeared.
  ///
  /// Every notification committed before a turn starts is read in that turn. The file's stamps
  /// are taken before the read they stand for, never after a write of ours: a stamp taken after
  /// recording an attempt also covered whatever the simulator committed while that attempt was in
  /// flight, so the last notification of a burst waited for the next write to the file (issue 37
  /// §4). Our own writes therefore cost one more read, which finds nothing and writes nothing.
  public func run(stop: @Sendable () -> Bool, drain: @Sendable () -> Bool, started: @Sendable () -> Void = {}) async throws(DeliveryError) -> Totals {
    var follow = try start()
    started()
    var totals = Totals()
    var rng = SplitMix(seed: options.seed)
    // No stamp yet: the first turn always reads, so a write made just after `start` is not missed.
    var lastLook: Look?
    while !stop() {
      let look = Look(path: path, journal: follow.journalPath)
      if look != lastLook {
        try take(&follow, rng: &rng)
        lastLook = look
      }
      let now = wallClock()
      let due = Array(follow.book.due(at: now).prefix(options.concurrency))
      if !due.isEmpty {
        let results = await send(due)
        try record(results, into: &follow, totals: &totals, rng: &rng)
        continue
      }
      if drain() {
        // The writer has finished: one last look for what it wrote, then stop when all is sent.
        try take(&follow, rng: &rng)
        if follow.book.pending.isEmpty { break }
      }
      let untilDue = follow.book.nextDue.map { max(0, ($0 - wallClock()).ms / 1000) } ?? 0.05
      try? await Task.sleep(for: .milliseconds(Int64(min(0.05, untilDue) * 1000) + 1))
    }
    // Stopped: what was committed since the last read is unsent too. Queued in the book now, it is
    // counted in the closing line and resumed by the next run, like any other pending delivery.
    try take(&follow, rng: &rng)
    totals.pending = follow.book.pending.count
    return totals
  }

  /// What the loop compares between turns: the state file, and the journal it names. The journal
  /// only grows, so a commit is seen even when the rewritten state file keeps its size and lands
  /// on a recycled inode within one timestamp tick.
  struct Look: Equatable {
    var state: FileStamp?
    var journal: FileStamp?
    init(path: String, journal: String?) {
      state = FileStamp(path: path)
      self.journal = journal.flatMap { FileStamp(path: $0) }
    }
  }

  // MARK: - Following the file

  struct Following {
    var book: DeliveryBook
    var intake: DeliveryIntake
    /// The journal the last read followed (none until the file has one).
    var journalPath: String?
  }

  /// Opens the file's delivery book for `options.url`: a new book starts at the end of the history
  /// (what is already there was delivered by someone else, or never will be); an existing one
  /// resumes its pending deliveries, to the new URL if it changed.
  func start() throws(DeliveryError) -> Following {
    var opened: DeliveryBook?
    var latest: TransactionPayload?
    try update("start delivering to \(options.url)") { s in
      latest = s.subscriber.latestTransaction
      var book = s.document.deliveries ?? DeliveryBook(url: options.url, journalOffset: s.document.journal?.committedBytes ?? 0, schedule: options.schedule)
      if book.url != options.url {
        log("delivering to \(options.url) (this file delivered to \(LogText.clip(book.url, limit: 200)) before; its \(book.pending.count) pending deliveries go to the new URL)")
      }
      book.url = options.url
      book.schedule = options.schedule
      opened = book
      s.document.deliveries = book
      return true
    }
    guard let book = opened else { throw DeliveryError("\(path): cannot start delivering") }
    if !book.pending.isEmpty { log("resuming \(book.pending.count) pending deliver\(book.pending.count == 1 ? "y" : "ies") from an earlier run") }
    if let env = latest?.environment, env == .xcode || env == .localTesting {
      log("note: \(PathName.fileName(of: path)) is in the \(env.rawValue) environment; receivers built on Apple's libraries (and subdash listen) refuse it, since nothing verifies Xcode payloads. Sandbox data (simulation.environment \"Sandbox\", or a sandbox --rate) is what they accept")
    }
    return Following(book: book, intake: DeliveryIntake(lastTransaction: latest))
  }

  /// Signs and queues the notifications written since the book's journal offset.
  func take(_ follow: inout Following, rng: inout SplitMix) throws(DeliveryError) {
    let state: SubscriptionState
    do { state = try StateFile.load(path: path) } catch { throw DeliveryError(error.description) }
    guard let current = state.document.deliveries else { throw DeliveryError("\(path): its deliveries were removed while delivering") }
    follow.book = current
    guard let journal = state.document.journal else { return }
    let journalPath = PathName.directory(of: path) + "/" + journal.file
    follow.journalPath = journalPath
    let from = current.journalOffset
    // A journal shorter than the offset, or one whose offset falls inside a line, is not the one
    // the offset was taken from: follow the new one from its end.
    var entries: [Journal.Entry] = []
    var replaced = journal.committedBytes < from
    if !replaced {
      do { entries = try Journal.entries(path: journalPath, after: from, committedBytes: journal.committedBytes) } catch { replaced = true }
    }
    if replaced {
      log("\(PathName.fileName(of: path)): the history was replaced; following from its end")
      follow.intake = DeliveryIntake(lastTransaction: state.subscriber.latestTransaction)
    }
    let now = wallClock()
    var fresh: [Delivery] = []
    for (n, t) in follow.intake.take(entries) {
      let envelope = NotificationEnvelope(n, transaction: t ?? state.subscriber.latestTransaction,
                                          renewalInfo: state.subscriber.renewalInfo, appAppleId: options.appAppleId)
      let payload: String
      do { payload = try signer.signedPayload(envelope) } catch { throw DeliveryError("cannot sign \(n.label): \(error)") }
      fresh.append(Delivery(notificationUUID: n.notificationUUID ?? "", notificationType: n.notificationType.rawValue,
                            subtype: n.subtype?.rawValue, signedDate: n.signedDate, signedPayload: payload,
                            firstAttempt: now + jitter(&rng)))
    }
    let end = journal.committedBytes
    guard !fresh.isEmpty || end != from else { return }
    try update(fresh.isEmpty ? "delivery: history read" : "delivery: \(counted(fresh.count, "new notification")) to send") { s in
      guard var book = s.document.deliveries, book.journalOffset == from else { return false }  // another deliverer took them
      for d in fresh { book.enqueue(d) }
      book.journalOffset = end
      s.document.deliveries = book
      follow.book = book
      return true
    }
  }

  private func jitter(_ rng: inout SplitMix) -> Span {
    options.reorderWindow > 0 ? Span(ms: (rng.unit() * options.reorderWindow * 1000).rounded(.down)) : .zero
  }

  // MARK: - Sending

  struct AttemptResult: Sendable {
    var delivery: Delivery
    var attempt: DeliveryAttempt
    var detail: String?
  }

  /// One attempt for each due delivery, `options.concurrency` at a time (in order when 1).
  func send(_ due: [Delivery]) async -> [AttemptResult] {
    await withTaskGroup(of: AttemptResult.self) { group in
      for d in due {
        group.addTask {
          let started = wallClock()
          let clock = ContinuousClock.now
          let outcome = await sender.send(NotificationSigner.body(d.signedPayload ?? ""), to: options.url, timeout: options.timeout)
          let elapsed = ContinuousClock.now - clock
          let ms = Int(elapsed.components.seconds * 1000 + elapsed.components.attoseconds / 1_000_000_000_000_000)
          return AttemptResult(delivery: d, attempt: DeliveryAttempt(attemptDate: Instant(ms: started.ms.rounded(.down)), result: outcome.result,
                                                                     httpStatus: outcome.httpStatus, milliseconds: ms), detail: outcome.detail)
        }
      }
      var out: [AttemptResult] = []
      for await r in group { out.append(r) }
      return out.sorted { $0.attempt.attemptDate < $1.attempt.attemptDate }
    }
  }

  /// Writes the attempts into the latest book, schedules retries and duplicates, logs each.
  func record(_ results: [AttemptResult], into follow: inout Following, totals: inout Totals, rng: inout SplitMix) throws(DeliveryError) {
    var lines: [String] = []
    var rolls = rng
    var counted = Totals()
    // The wait a line states runs from now: an attempt that took a while (a connection retried
    // until the connect timeout) may already be past its retry time.
    let recordedAt = wallClock()
    try update("delivery: \(CoreValues.counted(results.count, "attempt"))") { s in
      guard var book = s.document.deliveries else { return false }
      lines = []
      rolls = rng
      counted = Totals()
      for r in results {
        let d = r.delivery
        guard let i = book.pending.firstIndex(where: {
          $0.notificationUUID == d.notificationUUID && $0.isDuplicate == d.isDuplicate && $0.sendAttempts.count == d.sendAttempts.count
        }) else { continue }
        let attempts = d.sendAttempts.count + 1
        let retryAt = r.attempt.result == .success ? nil : book.schedule.nextAttempt(afterAttempts: attempts, lastAt: r.attempt.attemptDate, for: s)
        book.record(r.attempt, forPendingAt: i, retryAt: retryAt)
        lines.append(Self.line(d, r, attempt: attempts, of: book.schedule.maxAttempts, retryAt: retryAt, now: recordedAt))
        counted.attempts += 1
        if r.attempt.result == .success {
          if d.isDuplicate { counted.duplicates += 1 } else { counted.delivered += 1 }
        } else if retryAt == nil {
          counted.gaveUp += 1
        }
        if r.attempt.result == .success, !d.isDuplicate, options.duplicateRate > 0, rolls.unit() < options.duplicateRate, let payload = d.signedPayload {
          book.enqueue(Delivery(notificationUUID: d.notificationUUID, notificationType: d.notificationType, subtype: d.subtype,
                                signedDate: d.signedDate, signedPayload: payload, firstAttempt: r.attempt.attemptDate + jitter(&rolls),
                                isDuplicate: true))
        }
      }
      s.document.deliveries = book
      follow.book = book
      return true
    }
    rng = rolls
    totals.add(counted)
    for line in lines { log(line) }
  }

  /// `✓ DID_RENEW 7819afd7 → 200 in 12 ms` / `✗ DID_RENEW 7819afd7 → 500 (UNSUCCESSFUL_HTTP_RESPONSE_CODE); retry 2 of 6 in 0.4 s`.
  static func line(_ d: Delivery, _ r: AttemptResult, attempt: Int, of max: Int, retryAt: Instant?, now: Instant) -> String {
    let what = "\(LogText.clip(d.label)) \(LogText.clip(String(d.notificationUUID.prefix(8))))\(d.isDuplicate ? " (duplicate)" : "")"
    let took = r.attempt.milliseconds.map { " in \($0) ms" } ?? ""
    if r.attempt.result == .success {
      return "✓ \(what) → \(r.attempt.httpStatus.map(String.init) ?? "ok")\(took)\(attempt > 1 ? " (attempt \(attempt))" : "")"
    }
    let reason = r.detail.map { ": \(LogText.clip($0, limit: 200))" } ?? ""
    let answer = r.attempt.httpStatus.map { "\($0) (\(r.attempt.result.rawValue))\(reason)" } ?? "\(r.attempt.result.rawValue)\(reason)"
    guard let retryAt else {
      return "✗ \(what) → \(answer); gave up after \(counted(attempt, "attempt"))"
    }
    let wait = retryAt - Swift.max(now, r.attempt.attemptDate)
    return "✗ \(what) → \(answer); retry \(attempt + 1) of \(max) " + (wait.ms > 0 ? "in \(Format.wait(wait))" : "now")
  }

  // MARK: - The write path

  /// A locked, re-read update of the file's document only (no history is added). `change`
  /// returns false to write nothing.
  private func update(_ message: String, _ change: (inout SubscriptionState) -> Bool) throws(DeliveryError) {
    let (store, name) = DirectorySubscriberStore.holding(path)
    switch store.update(existing: name, wait: .bounded, { (s) throws(Never) -> SubscriberEdit in
      var next = s
      guard change(&next) else { return .leave }
      return .save(Change(state: next, message: message))
    }) {
    case .applied, .created, .unchanged: return
    case .busy(let e), .failed(let e): throw DeliveryError(e.description)
    }
  }
}
