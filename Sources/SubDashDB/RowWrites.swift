import DashModel
import Foundation
#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif
import SubscriberDatabase
import CoreValues
import SubscriberStorage

/// A dashboard's key on a subscriber of the team database, through the mirror that shows it. The
/// dashboard (in `subdash`) cannot write the mirror's file: the next commit would overwrite it, and
/// another writer's commit since the mirror last caught up would be lost. So `subdash db mirror`
/// answers a small line protocol on stdin/stdout (MirrorRequest and MirrorReply in DashModel):
/// `write NAME SCRATCH` locks the row and lays its latest state out in SCRATCH (an empty private
/// directory), `locked`; the dashboard applies its key to SCRATCH/NAME with the usual locked write;
/// `commit` or `abort`; `stored` or `unchanged`; `error: WHY` at any step, the row unchanged.
///
/// The row stays locked (`SubscriberDatabase.update`) from `locked` to the answer, so the key acts
/// on the latest committed state and no writer's change is lost either way. The commit's NOTIFY
/// then brings the mirror's file up to date, and the dashboard shows it as any change.
///
/// `commit family` (the key extended a purchaser): after the commit, the purchaser's family members
/// follow as they do in a directory and through `serve --db`: `FamilyExtension.extendMembers` with
/// the store (`PostgresSubscriberStore.update`, each member's row under its own lock), the mirror
/// directory only for the unlocked look at who is a member. Each member's outcome is a line.
enum RowWrites {
  static func serve(_ lines: LineQueue, store: PostgresSubscriberStore, mirror: String) async {
    while let line = await lines.next() {
      guard case .write(let name, let scratch)? = MirrorRequest(line: line) else {
        reply(.error("not a command: \(LogText.clip(line, limit: 80))"))
        continue
      }
      reply(await write(name: name, scratch: scratch, lines: lines, store: store, mirror: mirror))
    }
  }

  private static func write(name: String, scratch: String, lines: LineQueue, store: PostgresSubscriberStore, mirror: String) async -> MirrorReply {
    let database = store.database
    guard StoredSubscriber.isPlainFileName(name) else { return .error("\(LogText.clip(name, limit: 80)) is not a subscriber's file name") }
    do {
      // The catalog is read before the row is locked (it is in its own table and rarely changes);
      // a row that names another catalog by the time it is locked is refused, to be tried again.
      guard let seen = try await database.subscribers(named: [name]).first else { return .error("\(name) is not in the database") }
      let catalogs = try await database.catalogs(named: Set([seen.catalogName].compactMap { $0 }))
      let committed = Flag()
      let followFamily = Flag()
      try await database.update(name) { current in
        guard let current else { throw DatabaseError.file("\(name) was removed from the database") }
        guard current.catalogName == seen.catalogName else { throw DatabaseError.file("\(name) changed its catalog; try again") }
        try DirectoryFiles.write([current], catalogs: catalogs, to: scratch)
        reply(.locked)
        guard let answer = await lines.next() else { Glibc.exit(0) }  // the dashboard quit: the rollback is the server's
        let request = MirrorRequest(line: answer)
        guard request == .commit || request == .commitFollowingFamily else { return nil }
        if request == .commitFollowingFamily { followFamily.set() }
        let written = try DirectoryFiles.read(scratch).subscribers
        guard let next = written.first(where: { $0.name == name }) else { throw DatabaseError.file("\(scratch)/\(name) is gone") }
        committed.set()
        return StoredSubscriber(name: name, document: next.document, journal: next.journal, catalogName: current.catalogName)
      }
      guard committed.isSet else { return .unchanged }
      if followFamily.isSet { await extendFamily(of: name, savedIn: scratch, store: store, mirror: mirror) }
      return .stored
    } catch let e as DatabaseError {
      return .error(LogText.clip(e.description, limit: 300))
    } catch {
      return .error(LogText.clip("\(error)", limit: 300))
    }
  }

  /// The purchaser's state as the dashboard saved it (still in SCRATCH: the dashboard removes it
  /// after `stored`), its new expiry, and each linked member extended to it.
  private static func extendFamily(of name: String, savedIn scratch: String, store: PostgresSubscriberStore, mirror: String) async {
    guard let saved = try? StateFile.load(path: scratch + "/" + name),
          let extended = FamilyExtension.extended(purchaserAfterExtension: saved) else { return }
    _ = await FamilyExtension.extendMembers(of: extended, in: store, lookingIn: DirectorySubscriberStore(directory: mirror),
                                            skipping: name, wall: Instant(ms: (Date().timeIntervalSince1970 * 1000).rounded())) { reply(.member($0)) }
  }

  /// One line on stdout, unbuffered: the dashboard is waiting for it.
  static func reply(_ reply: MirrorReply) {
    FileHandle.standardOutput.write(Data((reply.line + "\n").utf8))
  }
}

/// Lines of stdin, read on a thread of their own (the protocol waits for them inside a database
/// transaction, which must not block a concurrency thread); nil once stdin is closed.
final class LineQueue: @unchecked Sendable {
  private let lock = NSLock()
  private var lines: [String] = []
  private var ended = false
  private var waiter: CheckedContinuation<String?, Never>?

  func startReading() {
    Thread.detachNewThread { [self] in
      while let line = readLine(strippingNewline: true) { push(line) }
      push(nil)
    }
  }

  private func push(_ line: String?) {
    lock.lock()
    if let w = waiter {
      waiter = nil
      if line == nil { ended = true }
      lock.unlock()
      w.resume(returning: line)
      return
    }
    if let line { lines.append(line) } else { ended = true }
    lock.unlock()
  }

  func next() async -> String? {
    await withCheckedContinuation { c in
      lock.lock()
      if !lines.isEmpty {
        let line = lines.removeFirst()
        lock.unlock()
        c.resume(returning: line)
      } else if ended {
        lock.unlock()
        c.resume(returning: nil)
      } else {
        waiter = c
        lock.unlock()
      }
    }
  }
}

/// Set once, read after: whether the row was given a new version.
final class Flag: @unchecked Sendable {
  private let lock = NSLock()
  private var value = false
  func set() { lock.withLock { value = true } }
  var isSet: Bool { lock.withLock { value } }
}
