import CoreValues
/// Reads an Xcode `.storekit` file (format 3, 4 and 5) as it is: its subscription groups, and its
/// consumables, non-consumables and non-renewing subscriptions (`OtherProduct`, shown, not
/// simulated). The same reader serves an inline catalog in the state file, which uses the same keys.
public enum StoreKitReader {
  public static func read(_ r: ObjectReader) throws(DecodeError) -> Catalog {
    var settings = StoreKitSettings()
    if let s = try r.object("settings") {
      settings.billingGracePeriodEnabled = try s.bool("_billingGracePeriodEnabled") ?? false
      settings.renewalBillingIssuesEnabled = try s.bool("_renewalBillingIssuesEnabled") ?? false
      settings.askToBuyEnabled = try s.bool("_askToBuyEnabled") ?? false
      settings.timeRate = try s.int("_timeRate")
      settings.storefront = try s.string("_storefront")
      settings.locale = try s.string("_locale")
    }
    var version: String?
    if let v = try r.object("version") {
      version = "\(try v.int("major") ?? 0).\(try v.int("minor") ?? 0)"
    }
    let groups = try r.objects("subscriptionGroups") { (g) throws(DecodeError) in try readGroup(g) } ?? []
    let products = try r.objects("products") { (p) throws(DecodeError) in try readOtherProduct(p, defaultType: nil) } ?? []
    let nonRenewing = try r.objects("nonRenewingSubscriptions") { (p) throws(DecodeError) in
      try readOtherProduct(p, defaultType: "NonRenewingSubscription")
    } ?? []
    var seen: Set<String> = []
    for g in groups {
      for p in g.subscriptions {
        if !seen.insert(p.productID).inserted {
          throw DecodeError(r.path.appending("subscriptionGroups"), "product id \"\(p.productID)\" appears twice")
        }
      }
    }
    // One product id names one product: a transaction for it must not read as two things.
    for (key, list) in [("products", products), ("nonRenewingSubscriptions", nonRenewing)] {
      for p in list where !seen.insert(p.productID).inserted {
        throw DecodeError(r.path.appending(key), "product id \"\(p.productID)\" appears twice")
      }
    }
    var catalog = Catalog(groups: groups, settings: settings, formatVersion: version,
                          derivedFromTransactions: try r.bool("_derivedFromTransactions") ?? false)
    catalog.otherProducts = products + nonRenewing
    return catalog
  }

  static func readGroup(_ g: ObjectReader) throws(DecodeError) -> SubscriptionGroup {
    let id = try g.requiredString("id")
    let name = try g.string("name") ?? id
    let subs = try g.objects("subscriptions") { (s) throws(DecodeError) in try readSubscription(s, groupID: id) } ?? []
    return SubscriptionGroup(id: id, name: name, subscriptions: subs)
  }

  static func readSubscription(_ s: ObjectReader, groupID: String) throws(DecodeError) -> SubscriptionProduct {
    let productID = try s.requiredString("productID")
    let reference = try s.string("referenceName") ?? productID
    let localizations = try s.objects("localizations") { (l) throws(DecodeError) in try l.string("displayName") } ?? []
    let displayName = localizations.compactMap { $0 }.first(where: { !$0.isEmpty }) ?? reference
    guard let level = try s.int("groupNumber") else {
      throw DecodeError(s.path.appending("groupNumber"), "required integer is missing (the subscription's level, 1 = highest)")
    }
    guard level >= 1 else { throw DecodeError(s.path.appending("groupNumber"), "level must be 1 or more (1 is the highest)") }
    let period = try s.requiredString("recurringSubscriptionPeriod")
    try checkPeriod(period, at: s.path.appending("recurringSubscriptionPeriod"))
    let displayPrice = try s.requiredString("displayPrice")
    let price = try Money.milliunits(displayPrice, at: s.path.appending("displayPrice"))

    // Format 5 writes the same offer twice, as introductoryOffer and as introductoryOffers[0]:
    // the array, when present, is the whole list.
    var intro = try s.objects("introductoryOffers") { (o) throws(DecodeError) in try readOffer(o, fallbackID: "intro") } ?? []
    if !s.has("introductoryOffers"), let one = try s.object("introductoryOffer") { intro.append(try readOffer(one, fallbackID: "intro")) }
    let promos = try s.objects("adHocOffers") { (o) throws(DecodeError) in try readOffer(o, fallbackID: "promo") } ?? []
    let codes = try s.objects("codeOffers") { (o) throws(DecodeError) in try readCodeOffer(o) } ?? []
    let winBacks = try s.objects("winbackOffers") { (o) throws(DecodeError) in try WinBackReader.read(o, productId: productID) } ?? []
    var product = SubscriptionProduct(
      productID: productID, referenceName: reference, displayName: displayName, groupID: groupID, level: level,
      period: period, displayPrice: displayPrice, priceMilli: price,
      familyShareable: try s.bool("familyShareable") ?? false,
      introductoryOffers: intro, promotionalOffers: promos, codeOffers: codes, winBackOffers: winBacks)
    product.priceKnown = try s.bool("_priceKnown") ?? true
    product.periodKnown = try s.bool("_periodKnown") ?? true
    product.monthlyPlan = try BillingPlansReader.monthlyPlan(s, period: period)
    return product
  }

  static func readOffer(_ o: ObjectReader, fallbackID: String) throws(DecodeError) -> SubscriptionOffer {
    let modeText = try o.requiredString("paymentMode")
    guard let mode = PaymentMode(rawValue: modeText) else {
      throw DecodeError(o.path.appending("paymentMode"), "unknown payment mode \"\(modeText)\" (expected free, payAsYouGo or payUpFront)")
    }
    let period = try o.requiredString("subscriptionPeriod")
    try checkPeriod(period, at: o.path.appending("subscriptionPeriod"))
    let price: Int64
    if let p = try o.string("displayPrice") { price = try Money.milliunits(p, at: o.path.appending("displayPrice")) } else { price = 0 }
    let reference = try o.string("referenceName")
    let offerID = try o.string("offerID")
    let internalID = try o.string("internalID")
    let id = offerID ?? reference ?? internalID ?? fallbackID
    let periods = try o.int("numberOfPeriods") ?? 1
    guard periods >= 1 else { throw DecodeError(o.path.appending("numberOfPeriods"), "must be 1 or more") }
    var offer = SubscriptionOffer(id: id, referenceName: reference ?? id, paymentMode: mode, period: period,
                                  numberOfPeriods: periods, priceMilli: mode == .freeTrial ? 0 : price)
    offer.billingPlanType = try BillingPlansReader.planType(o)
    return offer
  }

  static func readCodeOffer(_ o: ObjectReader) throws(DecodeError) -> CodeOffer {
    let terms = try readOffer(o, fallbackID: "code")
    var eligibility: Set<CodeEligibility> = []
    for (json, path) in try o.array("eligibility") ?? [] {
      guard case .string(let s) = json, let e = CodeEligibility(rawValue: s) else {
        throw DecodeError(path, "expected \"new\", \"existing\" or \"expired\"")
      }
      eligibility.insert(e)
    }
    if try o.array("eligibility") == nil { eligibility = Set(CodeEligibility.allCases) }
    return CodeOffer(terms: terms, eligibility: eligibility, isStackable: try o.bool("isStackable") ?? false)
  }

  /// Rejects periods the simulator could not step (P0D, garbage).
  static func checkPeriod(_ text: String, at path: JSONPath) throws(DecodeError) {
    guard PeriodSyntax.isValid(text) else {
      throw DecodeError(path, "\"\(text)\" is not an ISO 8601 period such as P1W, P1M or P1Y")
    }
  }
}

/// Minimal ISO 8601 period syntax check (PnYnMnWnD with at least one non-zero part).
enum PeriodSyntax {
  static func isValid(_ text: String) -> Bool {
    var s = Substring(text)
    guard s.first == "P" else { return false }
    s = s.dropFirst()
    var any = false
    var digits = ""
    var lastUnitRank = -1
    let ranks: [Character: Int] = ["Y": 0, "M": 1, "W": 2, "D": 3]
    for c in s {
      if c.isASCII, c.isNumber { digits.append(c); continue }
      guard let rank = ranks[c], !digits.isEmpty, rank > lastUnitRank, let n = Int(digits) else { return false }
      if n > 0 { any = true }
      lastUnitRank = rank
      digits = ""
    }
    return digits.isEmpty && any
  }
}
