import ArgumentParser
import DashModel
import DashView

/// `--original-transaction-id` for `show` and the dashboard: picks one subscriber of an input
/// holding several (a Get All Subscription Statuses response), as `import` does. On a state file,
/// which holds one subscriber, it is a check that the file is the customer asked about.
struct SubscriberChoice: ParsableArguments {
  @Option(name: .customLong("original-transaction-id"), help: ArgumentHelp("For an input holding several subscribers (a Get All Subscription Statuses response): the one to show. On a state file: refuse it unless it is this subscriber.", valueName: "ID"))
  var originalTransactionId: String?

  /// A state file whose subscriber is another customer is refused, naming the one it holds.
  func check(_ state: SubscriptionState, file: String) throws {
    try Wanted(originalTransactionId: originalTransactionId).check(state, file: file)
  }

  /// The choice as a plain value (`show` is also parsed without ArgumentParser: ShowRequest).
  struct Wanted {
    var originalTransactionId: String?

    func check(_ state: SubscriptionState, file: String) throws {
      guard let wanted = originalTransactionId else { return }
      let held = state.subscriber.originalTransactionId
      guard held != wanted else { return }
      throw badInput("\(Sanitizer.clean(file)): holds originalTransactionId \(held.map(Sanitizer.clean) ?? "(none)"), not \(Sanitizer.clean(wanted))")
    }
  }
}
