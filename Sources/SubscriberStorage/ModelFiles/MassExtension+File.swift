import CoreValues
import DashModel
extension MassExtension {
  /// What one subscriber file's part in a mass extension came to.
  public enum FileOutcome: Sendable {
    /// Extended and saved (RENEWAL_EXTENDED is in the file).
    case extended(Change)
    /// Refused by an eligibility rule and saved (RENEWAL_EXTENSION / FAILURE is in the file).
    case failed(Change, ActionError)
    /// Not part of the request (not active, another product, Production data): nothing written.
    case leftOut(String)
    /// The file could not be read or written: nothing written, not counted.
    case unreadable(String)
  }

  /// One subscriber file of a mass extension (`subdash extend --all`, and `subdash serve`'s Extend
  /// Subscription Renewal Dates for All Active Subscribers): decided on the file's latest state
  /// under its lock, at its own moment (`simulation.now`, else `wall`), through the one write path.
  /// `includes` narrows the request (a product, storefronts); it is asked of the locked state.
  public static func apply(toFile path: String, days: Int, reason: ExtendReasonCode, wall: Instant,
                           includes: (SubscriptionState) -> Bool = { _ in true }) -> FileOutcome {
    let refusal = RefusalBox()
    let (store, name) = DirectorySubscriberStore.holding(path)
    let result = store.update(existing: name, wait: .bounded) { (current) throws(ActionError) -> SubscriberEdit in
      try decide(current, days: days, reason: reason, wall: wall, includes: includes, refusal: refusal)
    }
    return withFamily(outcome(result, refusal.value)) { FamilyExtension.extendMembers(after: $0, in: store, skipping: name, wall: wall) }
  }

  /// The same for a subscriber of any store (`serve --db`'s is the team database).
  public static func apply(in store: any SubscriberStore, name: String, days: Int, reason: ExtendReasonCode, wall: Instant,
                           includes: @escaping @Sendable (SubscriptionState) -> Bool = { _ in true }) async -> FileOutcome {
    let refusal = RefusalBox()
    let result = await store.update(existing: name) { (current) throws(ActionError) -> SubscriberEdit in
      try decide(current, days: days, reason: reason, wall: wall, includes: includes, refusal: refusal)
    }
    let saved = outcome(result, refusal.value)
    guard case .extended(let change) = saved else { return saved }
    return withFamily(saved, await FamilyExtension.extendMembers(after: change, in: store, skipping: name, wall: wall))
  }

  /// A purchaser's extension extends its family members (Apple: automatically); their lines join
  /// the purchaser's message, one a line.
  private static func withFamily(_ saved: FileOutcome, _ members: (Change) -> [FamilyExtension.MemberOutcome]) -> FileOutcome {
    guard case .extended(let change) = saved else { return saved }
    return withFamily(saved, members(change))
  }

  private static func withFamily(_ saved: FileOutcome, _ members: [FamilyExtension.MemberOutcome]) -> FileOutcome {
    guard case .extended(var change) = saved, !members.isEmpty else { return saved }
    change.message += members.map { "\n  " + $0.line }.joined()
    return .extended(change)
  }

  /// The decision on the locked state, for both: the extension, or the failure the eligibility
  /// rules record (kept in `refusal`), or not part of the request (thrown: nothing written).
  private static func decide(_ current: SubscriptionState, days: Int, reason: ExtendReasonCode, wall: Instant,
                             includes: (SubscriptionState) -> Bool, refusal: RefusalBox) throws(ActionError) -> SubscriberEdit {
    guard includes(current) else { throw .other("not part of the request") }
    let now = (try? Simulator.settings(current))?.now ?? wall
    switch apply(days: days, reason: reason, to: current, at: now, timing: Simulator.timing(current)) {
    case .extended(let change): refusal.value = nil; return .save(change)
    case .failed(let change, let error): refusal.value = error; return .save(change)
    case .notIncluded(let why): throw .other(why)
    }
  }

  private static func outcome(_ result: UpdateResult<ActionError>, _ refusal: ActionError?) -> FileOutcome {
    switch result {
    // A saved change is the extension, or the failure the eligibility rules recorded.
    case .applied(let change), .created(let change): return refusal.map { .failed(change, $0) } ?? .extended(change)
    case .unchanged: return .leftOut("nothing changed")
    case .refused(let why): return .leftOut(why.message)
    case .busy(let e), .failed(let e): return .unreadable(e.description)
    }
  }
}

/// The eligibility failure a locked decision recorded, read after the store let go (one writer
/// at a time: the store runs the decision once per hold, before it returns).
private final class RefusalBox: @unchecked Sendable {
  var value: ActionError?
}
