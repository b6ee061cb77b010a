import DashModel

/// Send Consumption Information (v2): the developer's answer to a CONSUMPTION_REQUEST. Apple
/// answers 202 Accepted with no body and sends no notification; here the answer is kept in the
/// subscriber's pending refund request (through the locked write), dated at the file's clock, so
/// the dashboard shows it arrived and whether within the 12 hours. When there is nothing to keep it
/// in (no refund request pending, another transaction's request, Production data) the answer is
/// still 202, as Apple's would be, and the server's log line says why nothing was recorded.
extension LocalAppStoreAPI {
  func sendConsumption(_ transactionId: String, _ body: [UInt8], _ env: AppStoreEnvironment) async throws -> Answer {
    let s = try directory.subscriber(owning: transactionId, environment: env)
    let info = try ConsumptionRequestBody.parse(body)
    switch await change(s, { (current) throws(ActionError) -> Change in
      try Simulator.recordConsumption(info, transactionId: transactionId, in: current, at: self.now(of: current)).get()
    }) {
    case .applied(let c), .created(let c): return Answer(status: 202, note: c.message)
    case .unchanged: return Answer(status: 202, note: "nothing recorded")
    case .refused(let why): return Answer(status: 202, note: "nothing recorded: \(why.message)")
    case .busy(let e), .failed(let e): throw APIFailure.unreadable(s.path, e.description)
    }
  }
}
