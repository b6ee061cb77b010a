import CoreValues
import DashModel
/// After a purchaser's extension is saved, the family members in the same store follow it, each
/// through the store's own locked update, decided on the member's latest state at the member's
/// own moment (its simulated clock, else `wall`). Every caller of an extension goes through here:
/// `subdash extend` (one file, `--all`), the dashboard's key, and `serve`'s Extend endpoints.
extension FamilyExtension {
  /// One family member's part: its name in the store, and the change saved or why none was.
  public struct MemberOutcome: Sendable, Equatable {
    public var name: String
    /// The saved change's message, or nil when nothing was written (`skipped` says why).
    public var message: String?
    public var skipped: String?
    /// The member's renewal date after the change (nil when nothing was written).
    public var renewalDate: Instant? = nil

    /// "family member NAME: MESSAGE" for a command's output.
    public var line: String { "family member \(name): " + (message ?? "not extended: \(skipped ?? "?")") }
  }

  /// The members of the purchaser in a directory store (names sorted, so output is stable).
  public static func extendMembers(after change: Change, in store: DirectorySubscriberStore, skipping own: String,
                                   wall: Instant) -> [MemberOutcome] {
    guard let (purchaser, expires, group) = extended(change), let names = try? store.list() else { return [] }
    var out: [MemberOutcome] = []
    for name in names where name != own {
      // A cheap unlocked look first: only linked family members are locked and decided again.
      guard let seen = try? store.get(name), isMember(seen.state, of: purchaser) else { continue }
      let result = store.update(existing: name, wait: .bounded) { (current) throws(ActionError) -> SubscriberEdit in
        .save(try follow(current, purchaser: purchaser, expires: expires, group: group,
                         at: moment(current, wall), timing: Simulator.timing(current)).get())
      }
      out.append(outcome(name, result))
    }
    return out
  }

  /// The same for any store (`serve --db`'s team database), without holding a thread while waiting.
  public static func extendMembers(after change: Change, in store: any SubscriberStore, skipping own: String,
                                   wall: Instant) async -> [MemberOutcome] {
    guard let extended = extended(change) else { return [] }
    return await extendMembers(of: extended, in: store, skipping: own, wall: wall)
  }

  /// The members of `extended.purchaser` in `store`, each through the store's locked update.
  /// `lookingIn`: a directory kept in step with the store (`subdash db mirror`'s) for the cheap
  /// unlocked look at every subscriber, instead of reading each row from the store; the locked
  /// update decides again on the store's latest state either way. `each` hears every member's
  /// outcome as soon as it is known (the mirror tells the waiting dashboard one line at a time).
  public static func extendMembers(of extended: (purchaser: String, expires: Instant, group: String?),
                                   in store: any SubscriberStore, lookingIn mirror: DirectorySubscriberStore? = nil,
                                   skipping own: String, wall: Instant,
                                   each: (MemberOutcome) -> Void = { _ in }) async -> [MemberOutcome] {
    let (purchaser, expires, group) = extended
    let listed: [String]?
    if let mirror { listed = try? mirror.list() } else { listed = try? await store.list() }
    guard let names = listed else { return [] }
    var out: [MemberOutcome] = []
    for name in names where name != own {
      let seen: SubscriberSnapshot?
      if let mirror { seen = try? mirror.get(name) } else { seen = try? await store.get(name) }
      guard let seen, isMember(seen.state, of: purchaser) else { continue }
      let result = await store.update(existing: name) { (current) throws(ActionError) -> SubscriberEdit in
        .save(try follow(current, purchaser: purchaser, expires: expires, group: group,
                         at: moment(current, wall), timing: Simulator.timing(current)).get())
      }
      let said = outcome(name, result)
      out.append(said)
      each(said)
    }
    return out
  }

  static func moment(_ state: SubscriptionState, _ wall: Instant) -> Instant {
    (try? Simulator.settings(state))?.now ?? wall
  }

  static func outcome(_ name: String, _ result: UpdateResult<ActionError>) -> MemberOutcome {
    switch result {
    case .applied(let c), .created(let c):
      MemberOutcome(name: name, message: c.message, skipped: nil,
                    renewalDate: c.state.subscriber.renewalInfo?.renewalDate ?? c.state.subscriber.latestTransaction?.expiresDate)
    case .unchanged: MemberOutcome(name: name, message: nil, skipped: "nothing changed")
    case .refused(let why): MemberOutcome(name: name, message: nil, skipped: why.message)
    case .busy(let e), .failed(let e): MemberOutcome(name: name, message: nil, skipped: e.description)
    }
  }
}
