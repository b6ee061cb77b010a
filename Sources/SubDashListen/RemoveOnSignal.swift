import DashModel
import Dispatch
#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif
import SubscriberStorage

/// Removes `listen --db`'s scratch directory when the process is told to stop (Ctrl-C, SIGTERM
/// from a service manager): those end the process without running `defer`, and customer data
/// must not be left behind in the temporary directory. The signal is then raised again with its
/// default action, so the process still ends as the sender meant.
final class RemoveOnSignal: @unchecked Sendable {
  private var sources: [DispatchSourceSignal] = []

  init(_ directory: String) {
    for sig in [SIGINT, SIGTERM] {
      signal(sig, SIG_IGN)
      let source = DispatchSource.makeSignalSource(signal: sig, queue: .global())
      source.setEventHandler {
        PrivateDirectory.remove(directory)
        signal(sig, SIG_DFL)
        raise(sig)
      }
      source.resume()
      sources.append(source)
    }
  }

  deinit {
    for s in sources { s.cancel() }
  }
}
