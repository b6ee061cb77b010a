import CoreValues
/// Family Sharing and renewal-date extensions. Apple: "Extending a Family Sharing purchase extends
/// the family members automatically. A member's subscription can't be extended directly"
/// (AD: appstoreserverapi/extend-a-subscription-renewal-date; ../shared/docs/appstore-server-api.md §3.7).
///
/// Apple's payloads do not link a member to the purchaser (the member's transactions are
/// FAMILY_SHARED, with its own originalTransactionId). A SubDash file of a family member names its
/// purchaser in the document's `familyPurchaser` (the purchaser's originalTransactionId), so an
/// extension of that purchaser in the same directory (or store) finds it. Inferred: the member's
/// expiry and renewal date become the purchaser's new ones, and the member's app gets a
/// RENEWAL_EXTENDED of its own (its subscription's date moved, as Apple's notification says).
public enum FamilyExtension {
  public static let key = "familyPurchaser"

  /// The purchaser a family member's file names, if any.
  public static func purchaser(of state: SubscriptionState) -> String? {
    guard let id = state.document.source[key]?.stringValue, !id.isEmpty, id.count <= 64 else { return nil }
    return id
  }

  /// Whether `member` is a family member of the subscription whose originalTransactionId is
  /// `purchaser` (linked, FAMILY_SHARED, and not this file itself).
  public static func isMember(_ member: SubscriptionState, of purchaser: String) -> Bool {
    guard let t = member.subscriber.latestTransaction, t.isFamilyShared else { return false }
    return Self.purchaser(of: member) == purchaser && t.originalTransactionId != purchaser
  }

  /// The purchaser's extension, as its saved change says it: whose subscription, and the new
  /// expiry; nil when the change is not an extension (no RENEWAL_EXTENDED in it).
  public static func extended(_ change: Change) -> (purchaser: String, expires: Instant, group: String?)? {
    guard change.notifications.contains(where: { $0.notificationType == .renewalExtended }) else { return nil }
    return extended(purchaserAfterExtension: change.state)
  }

  /// The same from the purchaser's state as its extension saved it, for a writer that has the
  /// saved state but not the change (`subdash db mirror` storing a dashboard's `e` to a row,
  /// told by the dashboard that the change was an extension).
  public static func extended(purchaserAfterExtension state: SubscriptionState) -> (purchaser: String, expires: Instant, group: String?)? {
    guard let t = state.subscriber.latestTransaction, !t.isFamilyShared,
          let original = t.originalTransactionId, let expires = t.expiresDate else { return nil }
    return (original, expires, t.subscriptionGroupIdentifier)
  }

  /// A family member's dates follow the purchaser's extension: the member's current transaction
  /// expires at `expires` and the renewal date moves there, RENEWAL_EXTENDED in the member's file.
  /// Refused (nothing to write) when the member has no access to extend: revoked, expired, another
  /// group, or already at or past that date.
  public static func follow(_ member: SubscriptionState, purchaser: String, expires: Instant, group: String?,
                            at now: Instant, timing: any RenewalTiming = TimeRate.realTime) -> Result<Change, ActionError> {
    guard isMember(member, of: purchaser), var t = member.subscriber.latestTransaction, let before = t.expiresDate else {
      return .failure(.other("not a family member of \(purchaser)"))
    }
    if let group, let own = t.subscriptionGroupIdentifier, own != group {
      return .failure(.other("the family member's subscription is in another group"))
    }
    let ctx = ActionContext(state: member, now: now, timing: timing)
    guard t.revocationDate == nil, ctx.status == .active || ctx.status == .billingGracePeriod else {
      return .failure(.other("the family member has no active access to extend"))
    }
    guard expires > before else { return .failure(.other("the family member's access already runs to \(Format.date(before, now: now))")) }
    t.expiresDate = expires
    t.signedDate = now
    var renewal = ctx.renewalInfo
    renewal.renewalDate = expires
    renewal.signedDate = now
    var state = member
    state.subscriber.latestTransaction = t
    state.subscriber.renewalInfo = renewal
    // Renewals of the member's simulation count from the new expiry, as the purchaser's do.
    if var settings = try? SimulationSettings(of: member), settings.periodAnchor != nil {
      settings.periodAnchor = nil
      state.setSimulation(settings)
    }
    let name = member.catalog.product(t.productId)?.displayName ?? t.productId ?? "the subscription"
    let text = "\(name) (Family Sharing) extended with the purchaser's subscription \(purchaser): expires \(Format.date(expires, now: now)) instead of \(Format.date(before, now: now))"
    let note = ctx.notification(type: .renewalExtended, subtype: nil, status: .active, productId: t.productId, summary: text)
    return .success(Change(state: state, transactions: [t], notifications: [note], message: text.prefix(1).uppercased() + text.dropFirst() + "."))
  }
}
