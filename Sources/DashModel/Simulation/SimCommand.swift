import CoreValues
/// One step a developer asks the simulator to take on a non-Production file. The dashboard only
/// names the step (`UIEffect.simulate`); the simulation engine decides what it does to the state.
public enum SimCommand: Equatable, Sendable {
  case advanceToNextEvent
  case advance(Span)
  case failNextRenewal
  /// Every armed failure off (`f`, `--fail-renewals`, a failure rate, scripted outcomes): renewals succeed.
  case renewalsSucceed
  case resolveBillingIssue
  case expireNow
  case refund
  /// The customer asks for a refund: CONSUMPTION_REQUEST; `refund` approves, `declineRefund` declines.
  case requestRefund(ConsumptionRequestReason)
  case declineRefund
  case reverseRefund
  case refundProrated
  case requestPriceIncrease
  case consentPriceIncrease
  case declinePriceIncrease
  case approveAskToBuy
  case declineAskToBuy
}
