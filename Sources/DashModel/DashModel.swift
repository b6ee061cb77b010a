// DashModel: the pure subscription model, the room every other one is built around.
//
// What it holds: a subscriber's state as the App Store describes it (the state document and its
// codec, transaction and renewal-info payloads, notifications, the signed-data envelope), the
// catalog (.storekit files, levels in a subscription group, prices as exact milli-units), the
// lifecycle rules (status, grace period, billing retry, expiry and refund reasons, win-back
// eligibility), the actions a key or a command takes (upgrade, downgrade, crossgrade, redeem a
// code, accept a win-back offer, toggle auto-renew, refunds, extensions) and the simulator's rules
// that advance a virtual App Store clock. Given a state and `now`, it answers a change.
//
// What it may import: CoreValues, and nothing else of ours. It opens no file, starts no thread and
// never reads the wall clock: every rule that depends on time takes `now` as an argument, and a
// large parse is spread over cores only inside CoreValues' parallel map. Files are
// SubscriberStorage's; `DashViewRendersOnlyTests.thePureRoomsReadNoFilesAndNoClock` checks the
// compiled objects for file, thread and clock calls.
import CoreValues

public enum DashModelInfo {
  public static let stateFormat = "subdash-state/1"
}
