import DashModel
/// The write path for servers.
extension StateFile {
  /// `update` for a caller on Swift's cooperative threads (a server's request handler): the lock
  /// is only tried, and while another process holds it the task sleeps, holding no thread, and
  /// tries again, for at most `FileLock.maxWait`. Blocking there instead would stall every other
  /// request on the same few threads (one per core) for the whole wait. Past the bound the failure
  /// is the same `.busy` error as `update`'s, and nothing is written; `apply` runs only once the
  /// lock is held.
  @discardableResult
  public static func updateWithoutBlocking<Refusal: Error>(
    path: String,
    refusing: Refusal.Type,
    unchangedWritesNothing: Bool = false,
    _ apply: (SubscriptionState) throws(Refusal) -> Change
  ) async throws(UpdateFailure<Refusal>) -> Saved {
    let clock = ContinuousClock()
    let deadline = clock.now + FileLock.maxWait
    var pause: Duration = .milliseconds(2)
    while true {
      do throws(UpdateFailure<Refusal>) {
        return try update(path: path, refusing: refusing, unchangedWritesNothing: unchangedWritesNothing, lockWait: .tryOnce, apply)
      } catch {
        guard case .file(let e) = error, e.kind == .busy else { throw error }
        guard clock.now + pause < deadline else { throw .file(FileLock.busy(path, after: .upTo(FileLock.maxWait))) }
      }
      try? await Task.sleep(for: pause)
      pause = min(pause * 2, .milliseconds(100))
    }
  }
}
