import CoreValues
import DashModel
import SubscriberStorage
import RetentionMessaging
/// A population of subscribers advanced by one virtual clock (`subdash simulate --population N
/// DIR`). A directory without state files is first filled with N subscribers made from a template
/// subscriber (a fresh originalTransactionId and appAccountToken each, its history ids moved into
/// the subscriber's own range) with the mix's billing failure rate and share of auto-renew off,
/// each with its own seed derived from the population's. Then each subscriber is advanced on its
/// own (`advance`), every write through the subscriber store. Subscribers draw only from their own
/// seed, so the same seed gives byte-identical files whatever order (or threads) they run in.
public struct Population: Sendable {
  public let store: DirectorySubscriberStore
  public let count: Int
  public let seed: UInt64
  public let mix: PopulationMix
  public let months: Int
  /// The subscriber every member is made from (the demo subscriber's state document).
  public let template: String
  /// Where each subscriber's notifications from this run go (`--deliver`): a delivery book is
  /// opened in every file at its history's end before the clock moves.
  public var deliverTo: String?
  /// The App Store's cancel page for a member who turns auto-renew off (`subdash simulate` runs
  /// `subdash-retention`, the dashboard's and scenarios' helper: with a realtime URL configured
  /// beside the files, a signed realtime request within Apple's time limit; else the default
  /// message). nil: the member turns auto-renew off with no cancel page, as before.
  public var retentionAsker: (@Sendable (String) -> Result<RetentionOutcome, RetentionSetupError>)?

  public init(directory: String, count: Int, seed: UInt64, mix: PopulationMix, months: Int, template: String, deliverTo: String? = nil) {
    store = DirectorySubscriberStore(directory: directory)
    self.count = count
    self.seed = seed
    self.mix = mix
    self.months = months
    self.template = template
    self.deliverTo = deliverTo
  }

  /// The directory's subscribers, after creating the directory (0700) when it is missing.
  public func subscribers() throws(PopulationError) -> [String] {
    if let why = PrivateDirectory.create(store.directory) { throw PopulationError("\(store.directory): cannot create the directory: \(why)") }
    do { return try store.list() } catch { throw PopulationError(error.description) }
  }

  // MARK: Making the members

  /// Subscriber i's ids start at i × 1,000,000 past Apple-style 2…/3… (a million each).
  public static func idOffset(_ i: Int) -> Int64 { Int64(i) * 1_000_000 }

  static let placeholderId = "4999999999999999"
  static let placeholderToken = "00000000-0000-4000-8000-999999999999"
  static let templateId = "2000000871234560"

  /// Creates the N members, each a new state file made under its lock with its starting settings
  /// (and, for a mix of products, its first purchase) in the same write.
  /// Returns what each churning member's cancel page showed (empty without `retentionAsker`).
  ///
  /// `keepGoing(made)` is asked before each member (`made` are whole so far): false stops there,
  /// between two files, so a Ctrl-C never leaves one half written (the caller removes the rest).
  @discardableResult
  public func create(keepGoing: (_ made: Int) -> Bool = { _ in true }) throws(PopulationError) -> [RetentionShown] {
    let members = try Members(self)
    var rng = SplitMix(seed: seed)
    var shown: [RetentionShown] = []
    for i in 0..<count {
      guard keepGoing(i) else { break }
      let member = members.member(i, &rng)
      // With a cancel page to show, the member is created with auto-renew on and goes to cancel
      // afterwards, as a customer does: the App Store asks the developer's server first.
      let cancelsLater = member.churns && retentionAsker != nil
      let result = store.update(member.name, wait: .bounded) { (current) throws(ActionError) -> SubscriberEdit in
        guard current == nil else { return .leave }
        return .create(try member.newSubscriber(turningAutoRenewOff: !cancelsLater))
      }
      switch result {
      case .created: if cancelsLater { shown.append(try goToCancel(member.name)) }
      case .applied, .unchanged: throw PopulationError("\(member.name): exists already; a population is made only in a directory without state files")
      case .refused(let refusal): throw PopulationError("\(member.name): \(refusal.message)")
      case .busy(let e), .failed(let e): throw PopulationError(e.description)
      }
    }
    return shown
  }

  /// What a churning member's cancel page showed and what the member chose there.
  public struct RetentionShown: Sendable, Equatable {
    public var name: String
    public var outcome: RetentionOutcome?
    /// Why no cancel page could be shown (the helper failed); the member cancelled anyway.
    public var problem: String?
    /// Keep, accept (the alternate product or promotional offer) or cancel.
    public var choice: RetentionChoice = .cancel
    /// Why taking the offer was refused by the App Store's rules (then the member cancelled).
    public var acceptRefused: String?
  }

  /// The member goes to cancel: the cancel page (asked of the developer's server, bounded), then
  /// the member's choice there, drawn from its own seed (`RetentionDraw`), applied as the same plan
  /// action the dashboard's keys apply, through the store: keep writes nothing; accept switches
  /// plan or takes the offer, and when Apple's rules refuse that the member cancels after all.
  func goToCancel(_ name: String) throws(PopulationError) -> RetentionShown {
    var shown = RetentionShown(name: name)
    switch retentionAsker?(store.path(of: name)) {
    case .success(let outcome)?: shown.outcome = outcome
    case .failure(let problem)?: shown.problem = problem.description
    case nil: break
    }
    let offer = shown.outcome?.offer
    let mix = mix
    // Made inside the store's update (which runs it here, before returning), carried out of it.
    var decided: (choice: RetentionChoice, refused: String?) = (.cancel, nil)
    let result = store.update(existing: name, wait: .bounded) { (current) throws(ActionError) -> SubscriberEdit in
      let settings = try Simulator.settings(current)
      let now = settings.now ?? Instant(ms: 0)
      let choice = RetentionDraw.choice(seed: settings.seed, offer: offer, mix: mix)
      decided.choice = choice
      guard let action = choice.action(for: offer, in: current) else { return .leave }
      switch Actions.apply(action, to: current, at: now, timing: TimeRate.realTime) {
      case .success(let change): return .save(change)
      case .failure(let refusal) where choice == .accept:
        decided.choice = .cancel
        decided.refused = refusal.message
        return .save(try Actions.apply(.setAutoRenew(false), to: current, at: now, timing: TimeRate.realTime).get())
      case .failure(let refusal): throw refusal
      }
    }
    shown.choice = decided.choice
    shown.acceptRefused = decided.refused
    switch result {
    case .applied, .created, .unchanged: return shown
    case .refused(let refusal): throw PopulationError("\(name): \(refusal.message)")
    case .busy(let e), .failed(let e): throw PopulationError(e.description)
    }
  }

  /// Refuses a mix naming a product the template's catalog lacks, before any file is made.
  public static func checkProducts(_ mix: PopulationMix, template: String, mixPath: String) throws(PopulationError) {
    guard !mix.products.isEmpty else { return }
    let state = try decodeTemplate(template)
    for id in mix.products.map(\.id) where state.catalog.product(id) == nil {
      let known = state.catalog.allSubscriptions.map(\.productID).joined(separator: ", ")
      throw PopulationError("\(mixPath): $.products.\(id) is not a plan in the demo catalog (\(known))")
    }
  }

  static func decodeTemplate(_ text: String, name: String = "demo") throws(PopulationError) -> SubscriptionState {
    do {
      return try StateFile.decode(Array(text.utf8), fileName: name) { (file) throws(StateFileError) in
        throw StateFileError(file: file, message: "a population's template holds its catalog inline")
      }
    } catch { throw PopulationError("the template subscriber did not load: \(error.description)") }
  }

  /// Every transactionId and webOrderLineItemId in a state text's subscriber history.
  public static func historyIds(_ text: String) -> [String] {
    guard case .object(let doc)? = try? JSONParser.parse(Array(text.utf8)), let sub = doc["subscriber"]?.objectValue else { return [] }
    var ids: [String] = []
    let transactions = (sub["transactions"]?.arrayValue ?? []) + [sub["latestTransaction"]].compactMap { $0 }
    for t in transactions.compactMap(\.objectValue) {
      for key in ["transactionId", "webOrderLineItemId"] {
        if let v = t[key]?.stringValue, !ids.contains(v) { ids.append(v) }
      }
    }
    return ids
  }

  /// The template with a customer who never subscribed (its catalog, offer codes and clock),
  /// whose account already has its originalTransactionId and appAccountToken, so the first
  /// purchase gets them rather than a sequence number every file would share.
  public static func newCustomerTemplate(_ template: String) throws(PopulationError) -> String {
    guard case .object(var doc)? = try? JSONParser.parse(Array(template.utf8)) else {
      throw PopulationError("the template subscriber did not parse")
    }
    // The template's app and environment, which its transactions say and a new account has no
    // transaction to say yet (else new purchases would carry a placeholder bundle id).
    var simulation = doc["simulation"]?.objectValue ?? JSONObject()
    let templateTransaction = doc["subscriber"]?.objectValue?["latestTransaction"]?.objectValue
    if simulation["bundleId"] == nil, let bundle = templateTransaction?["bundleId"] { simulation["bundleId"] = bundle }
    if simulation["environment"] == nil, let environment = templateTransaction?["environment"] { simulation["environment"] = environment }
    doc["simulation"] = .object(simulation)
    doc["subscriber"] = .object(JSONObject([
      ("renewalInfo", .object(JSONObject([("originalTransactionId", .string(placeholderId)), ("appAccountToken", .string(placeholderToken))]))),
      ("notifications", .array([])),
    ]))
    return JSONWriter.string(.object(doc))
  }
}
