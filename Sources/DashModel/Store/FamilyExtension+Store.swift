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
    guard let (purchaser, expires, group) = extended(change), let names = try? await store.list() else { return [] }
    var out: [MemberOutcome] = []
    for name in names where name != own {
      guard let seen = try? await store.get(name), isMember(seen.state, of: purchaser) else { continue }
      let result = await store.update(existing: name) { (current) throws(ActionError) -> SubscriberEdit in
        .save(try follow(current, purchaser: purchaser, expires: expires, group: group,
                         at: moment(current, wall), timing: Simulator.timing(current)).get())
      }
      out.append(outcome(name, result))
    }
    return out
  }

  static func moment(_ state: SubscriptionState, _ wall: Instant) -> Instant {
    (try? Simulator.settings(state))?.now ?? wall
  }

  static func outcome(_ name: String, _ result: UpdateResult<ActionError>) -> MemberOutcome {
    switch result {
    case .applied(let c), .created(let c): MemberOutcome(name: name, message: c.message, skipped: nil)
    case .unchanged: MemberOutcome(name: name, message: nil, skipped: "nothing changed")
    case .refused(let why): MemberOutcome(name: name, message: nil, skipped: why.message)
    case .busy(let e), .failed(let e): MemberOutcome(name: name, message: nil, skipped: e.description)
    }
  }
}
