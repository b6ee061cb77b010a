#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#elseif canImport(Darwin)
import Darwin
#endif
import CoreValues
import DashModel

/// The write path: the only code that changes or creates a state file in a directory.
extension DirectorySubscriberStore {
  /// `update` for a synchronous caller (a command, the dashboard, the simulator): waits for the
  /// lock as `wait` says (`.bounded` unless the caller retries elsewhere).
  ///
  /// When the directory has no file of this name, `change` is first asked, without the lock,
  /// whether it creates one: if it does not, nothing is locked and no lock file is left behind
  /// (`subdash simulate missing.json`); if it does, it is asked again under the lock, with what is
  /// there by then (another writer may have created it meanwhile).
  public func update<Refusal: Error>(
    _ name: String, wait: FileLock.Wait,
    _ change: (SubscriberSnapshot?) throws(Refusal) -> SubscriberEdit
  ) -> UpdateResult<Refusal> {
    do throws(StateFileError) { try Self.check(name) } catch { return .failed(error) }
    let path = path(of: name)
    var st = stat()
    if lstat(path, &st) != 0 {
      let code = errno
      guard code == ENOENT else { return .failed(StateFileError(file: name, message: "cannot read: \(Posix.errorText(code))")) }
      let probe: SubscriberEdit
      do throws(Refusal) { probe = try change(nil) } catch { return .refused(error) }
      switch probe {
      case .leave: return .unchanged(nil)
      case .save: return .failed(StateFileError(file: name, message: "no such state file; nothing was created"))
      case .create: break
      }
    } else if st.st_mode & S_IFMT == S_IFDIR {
      return .failed(StateFileError(file: name, message: "is a directory, not a state file; nothing was changed"))
    }
    let lock: FileLock
    do throws(StateFileError) { lock = try FileLock(for: path, wait: wait) } catch {
      return error.kind == .busy ? .busy(error) : .failed(error)
    }
    return withExtendedLifetime(lock) { underLock(name, path: path, lock: lock, change) }
  }

  /// The async `update` (`SubscriberStore`): the lock is only tried, on `blockingWork`'s thread;
  /// while another writer holds it the task sleeps, holding no thread, and tries again, for at most
  /// `lockWait`, then answers `.busy` having written nothing.
  public func update<Refusal: Error>(
    _ name: String,
    _ change: @Sendable (SubscriberSnapshot?) throws(Refusal) -> SubscriberEdit
  ) async -> UpdateResult<Refusal> {
    let clock = ContinuousClock()
    let deadline = clock.now + lockWait
    var pause: Duration = .milliseconds(2)
    return await withoutActuallyEscaping(change) { change in
      let attempt = AttemptBox(store: self, name: name, change: change)
      // The change must not outlive this call, even if `blockingWork` keeps the work it was given.
      defer { attempt.forget() }
      while true {
        guard await blockingWork.run({ attempt.run() }), let result = attempt.result else {
          return .failed(StateFileError(file: name, message: "the store is shutting down; nothing was changed"))
        }
        guard case .busy = result else { return result }
        // The last try is at the bound, not a pause before it: a writer that lets go just then is waited for.
        let left = deadline - clock.now
        guard left > .zero else { return .busy(FileLock.busy(path(of: name), after: .upTo(lockWait))) }
        try? await Task.sleep(for: min(pause, left))
        pause = min(pause * 2, .milliseconds(100))
      }
    }
  }

  /// Everything after the lock is held: re-read, decide, write.
  private func underLock<Refusal: Error>(
    _ name: String, path: String, lock: FileLock, _ change: (SubscriberSnapshot?) throws(Refusal) -> SubscriberEdit
  ) -> UpdateResult<Refusal> {
    var current: SubscriberSnapshot?
    var st = stat()
    if lstat(path, &st) == 0 {
      do throws(StateFileError) {
        current = snapshot(name, try StateFile.load(path: path, followSymlinks: false))
      } catch { return .failed(error) }
    } else if errno != ENOENT {
      return .failed(StateFileError(file: name, message: "cannot read: \(Posix.errorText())"))
    }
    let edit: SubscriberEdit
    do throws(Refusal) { edit = try change(current) } catch { return .refused(error) }
    do throws(StateFileError) {
      switch edit {
      case .leave:
        return .unchanged(current?.state)
      case .save(var c):
        guard current != nil else { return .failed(StateFileError(file: name, message: "no such state file; nothing was created")) }
        try StateFile.checkDates(c, path: path)
        try StateFile.commit(&c, at: path, swappingSpares: keepsSpareFiles ? lock : nil)
        return .applied(c)
      case .create(let new):
        guard current == nil else {
          return .failed(StateFileError(file: name, message: "exists already; a new subscriber is never written over one"))
        }
        return .created(try create(new, name: name, path: path))
      }
    } catch { return .failed(error) }
  }

  /// A new state file, with its catalog placed first (the document names it) and its history
  /// appended before the document that vouches for it is renamed into place.
  private func create(_ new: NewSubscriber, name: String, path: String) throws(StateFileError) -> Change {
    if let catalog = new.catalog { try place(catalog) }
    let bytes = JSONWriter.write(.object(new.document))
    let state = try StateFile.decode(bytes, fileName: name) { (relative) throws(StateFileError) in
      try StateFile.loadCatalogFile(relative, besides: path)
    }
    var transactions: [TransactionPayload] = []
    var notifications: [NotificationRecord] = []
    for e in new.history {
      switch e {
      case .transaction(let t): transactions.append(t)
      case .notification(let n): notifications.append(n)
      }
    }
    var change = Change(state: state, transactions: transactions, notifications: notifications, message: new.message)
    try StateFile.checkDates(change, path: path)
    try StateFile.commit(&change, entries: new.history, at: path)
    return change
  }

  /// A catalog beside the new subscriber, under its own lock: kept when the same bytes are there,
  /// refused when others are (a catalog is shared by every subscriber naming it).
  private func place(_ catalog: NewCatalog) throws(StateFileError) {
    try Self.check(catalog.name)
    let path = path(of: catalog.name)
    let lock = try FileLock(for: path)
    defer { withExtendedLifetime(lock) {} }
    var st = stat()
    if lstat(path, &st) == 0 {
      switch Posix.readAll(path: path, limit: StateFile.maxCatalogBytes, followSymlinks: false,
                           symlinkRefusal: "is a symbolic link; SubDash places a catalog only as a plain file") {
      case .success(let existing) where existing == catalog.bytes: return
      case .success:
        throw StateFileError(file: catalog.name, message: "exists and differs from the new subscriber's catalog; not replaced (write the subscriber in another directory)")
      case .failure(let why): throw StateFileError(file: catalog.name, message: "cannot read: \(why)")
      }
    }
    try AtomicWriter.write(catalog.bytes, to: path, sweep: .callerHoldsTheLock)
  }
}

/// One attempt handed to another thread and read back after it ran (`blockingWork` runs it to
/// completion before returning, so the two never touch it at once).
private final class AttemptBox<Refusal: Error>: @unchecked Sendable {
  let store: DirectorySubscriberStore
  let name: String
  private var change: ((SubscriberSnapshot?) throws(Refusal) -> SubscriberEdit)?
  var result: UpdateResult<Refusal>?
  init(store: DirectorySubscriberStore, name: String, change: @escaping (SubscriberSnapshot?) throws(Refusal) -> SubscriberEdit) {
    self.store = store
    self.name = name
    self.change = change
  }
  func run() {
    guard let change else { return }
    result = store.update(name, wait: .tryOnce, change)
  }

  func forget() { change = nil }
}
