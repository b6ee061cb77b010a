import Testing

@testable import DashModel
@testable import CoreValues

/// A family member has the organizer's subscription through Family Sharing
/// (`inAppOwnershipType` FAMILY_SHARED) but cannot manage it: plan changes, cancelling and codes
/// for existing subscribers belong to the family member who bought it.
@Suite("Actions: Family Sharing")
struct ActionsFamilySharingTests {
  func familyMember() -> SubscriptionState {
    var s = ActionsFixture.state()
    s.subscriber.latestTransaction?.inAppOwnershipType = .familyShared
    return s
  }

  @Test func aFamilyMemberCannotChangeOrCancelTheSharedPlan() {
    let s = familyMember()
    let actions: [PlanAction] = [
      .upgrade(toProductId: "pass.premium"), .downgrade(toProductId: "pass.individual"),
      .crossgrade(toProductId: "pass.duo"), .setAutoRenew(false),
    ]
    for action in actions {
      #expect(refusal(action, in: s, at: ActionsFixture.midPeriod) == .familyShared, "\(action)")
    }
    #expect(ActionError.familyShared.message.contains("inAppOwnershipType FAMILY_SHARED"))
  }

  @Test func theOrganizerWhoBoughtItCanUpgrade() throws {
    let change = try applied(.upgrade(toProductId: "pass.premium"), to: ActionsFixture.state(), at: ActionsFixture.midPeriod)
    #expect(change.state.subscriber.latestTransaction?.productId == "pass.premium")
  }
}
