import CoreValues
import DashModel
import SubscriberStorage
/// How member i of a population is made: its ids, its copy of the template, its seed and what it
/// does at the start (settings, a purchase, auto-renew off), all drawn in member order from the
/// population's seed.
struct Members {
  let population: Population
  let copy: PopulationTemplate
  let historyIds: [String]
  let newCustomers: Bool

  init(_ population: Population) throws(PopulationError) {
    self.population = population
    let template = population.template
    newCustomers = !population.mix.products.isEmpty
    // The template's appAccountToken, replaced per subscriber like its id.
    let templateToken: String? = {
      guard case .object(let o)? = try? JSONParser.parse(Array(template.utf8)) else { return nil }
      return o["subscriber"]?.objectValue?["latestTransaction"]?.objectValue?["appAccountToken"]?.stringValue
    }()
    // What each subscriber's copy replaces: a new customer's placeholders, or the template's id,
    // token and history ids (the history made this subscriber's, above the range its new ids use).
    historyIds = newCustomers ? [] : Population.historyIds(template).filter { $0 != Population.templateId }
    let marked = newCustomers ? [Population.placeholderId, Population.placeholderToken] : [Population.templateId, templateToken ?? ""] + historyIds
    copy = PopulationTemplate(newCustomers ? try Population.newCustomerTemplate(template) : template, marking: marked)
  }

  struct Member {
    let name: String
    let text: String
    let settings: [(key: String, value: JSON)]
    let purchase: PurchaseRequest?
    let churns: Bool

    /// The member's file: its copy of the template with its starting change applied in memory.
    /// `turningAutoRenewOff` false: a churning member is made with auto-renew on, to go to cancel
    /// after its file exists (`Population.goToCancel`).
    func newSubscriber(turningAutoRenewOff: Bool = true) throws(ActionError) -> NewSubscriber {
      let state: SubscriptionState
      do { state = try Population.decodeTemplate(text, name: name) } catch { throw .other(error.message) }
      var change = try Simulator.setSettings(state, settings).get()
      if let purchase {
        let now = (try Simulator.settings(change.state)).now ?? Instant(ms: 0)
        let bought = try Simulator.buy(purchase, state: change.state, at: now).get()
        change = Change(state: bought.state, transactions: change.transactions + bought.transactions,
                        notifications: change.notifications + bought.notifications, message: bought.message)
      }
      if churns && turningAutoRenewOff {
        let now = (try Simulator.settings(change.state)).now ?? Instant(ms: 0)
        let off = try Actions.apply(.setAutoRenew(false), to: change.state, at: now, timing: TimeRate.realTime).get()
        change = Change(state: off.state, transactions: change.transactions + off.transactions,
                        notifications: change.notifications + off.notifications, message: off.message)
      }
      var document = change.state.document
      if document.format == nil {
        document.format = DashModelInfo.stateFormat
        document.source["format"] = .string(DashModelInfo.stateFormat)
      }
      return NewSubscriber(document: document.json.objectValue ?? JSONObject(),
                           history: change.transactions.map(Journal.Entry.transaction) + change.notifications.map(Journal.Entry.notification),
                           message: "population member created")
    }
  }

  /// Member i: ids `4` + 15 digits, token `…-<i>`, settings from the mix, draws from `rng`.
  func member(_ i: Int, _ rng: inout SplitMix) -> Member {
    let id = "4" + Self.padded(i, 15)
    let token = "00000000-0000-4000-8000-" + Self.padded(i, 12)
    let ids = historyIds.enumerated().map { k, old in
      String((old.hasPrefix("3") ? 3_000_000_000_000_000 : 2_000_000_000_000_000) + Population.idOffset(i) + 900_000 + Int64(k))
    }
    let mix = population.mix
    let subscriberSeed = rng.next()
    let churns = Double(rng.next() % 1_000_000) / 1_000_000 < mix.autoRenewOff
    // Drawn only for a mix with products, so a population without them stays as it was.
    var purchase: PurchaseRequest?
    if newCustomers, let plan = mix.plan(at: rng.unit()) {
      purchase = PurchaseRequest(productId: plan.id, useIntroductoryOffer: rng.unit() < mix.introOfferRate)
    }
    return Member(name: id + ".json", text: copy.filled([id, token] + ids),
                  settings: [("seed", .int(Int64(bitPattern: subscriberSeed))), ("failureRate", .number(String(mix.failureRate))),
                             ("transactionIdOffset", .int(Population.idOffset(i)))],
                  purchase: purchase, churns: churns)
  }

  static func padded(_ n: Int, _ width: Int) -> String {
    let digits = String(n)
    return String(repeating: "0", count: max(0, width - digits.count)) + digits
  }
}
