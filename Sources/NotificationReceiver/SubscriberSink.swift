import DashModel
import SubscriberDatabase

/// Where received notifications go: a directory of state files, or a team database.
public protocol SubscriberSink: Sendable {
  /// Applies one notification body to subscriber `originalTransactionId`, durably, and says what
  /// changed ("applied to 2000000123.json: 1 new notification" / "already applied (redelivery)").
  func apply(_ input: ImportInput, verdicts: any SignedDataChecking, originalTransactionId: String, notificationUUID: String) async throws -> String
}

/// `DIR/<originalTransactionId>.json`, created when new, written by `Importer.write` (locked,
/// atomic, journalled, fsynced before it returns). Blocking file work runs on the receiver's own
/// threads (`BlockingWorkers`), never on Swift's cooperative threads, where a waiting lock would
/// stall every other request.
public struct DirectorySink: SubscriberSink {
  public let directory: String
  public init(directory: String) { self.directory = directory }

  public func apply(_ input: ImportInput, verdicts: any SignedDataChecking, originalTransactionId: String, notificationUUID: String) async throws -> String {
    let path = directory + "/" + originalTransactionId + ".json"
    return try await BlockingWorkers.shared.run {
      try Self.applyNow(input, verdicts: verdicts, path: path, otid: originalTransactionId)
    }
  }

  /// The redelivery check happens under the file's lock, inside the importer's merge (known
  /// notificationUUIDs are never added twice), and a merge that adds nothing writes nothing: no
  /// unlocked read of the subscriber and its whole journal before the locked one.
  static func applyNow(_ input: ImportInput, verdicts: any SignedDataChecking, path: String, otid: String) throws -> String {
    let name = PathName.fileName(of: path)
    let merged = try Importer.merge(inputs: [input], options: .init(originalTransactionId: otid, checker: verdicts))
    let written = try Importer.write(merged, to: path, catalog: nil)
    if written.newNotifications == 0 && written.newTransactions == 0 {
      // The notification itself is in every merge, so nothing new means its UUID was there.
      return "already applied to \(name) (redelivery; nothing changed)"
    }
    return "\(written.created ? "created" : "applied to") \(name): \(counted(written.newNotifications, "new notification")), \(counted(written.newTransactions, "new transaction"))"
  }
}

/// The team database: the subscriber's row is changed under its row lock, through the same
/// importer on a private copy of its files, so both sinks follow one set of rules.
public struct DatabaseSink: SubscriberSink {
  public let database: SubscriberDatabase
  let scratch: String
  public init(database: SubscriberDatabase, scratch: String) {
    self.database = database
    self.scratch = scratch
  }

  public func apply(_ input: ImportInput, verdicts: any SignedDataChecking, originalTransactionId: String, notificationUUID: String) async throws -> String {
    let name = originalTransactionId + ".json"
    let work = scratch + "/" + notificationUUID.filter { $0.isLetter || $0.isNumber || $0 == "-" } + "-" + String(UInt64.random(in: 0...UInt64.max))
    let outcome = OutcomeBox()
    try await database.update(name) { current in
      try DirectoryFiles.reset(work)
      defer { DirectoryFiles.remove(work) }
      if let current { try DirectoryFiles.write(current, to: work) }
      outcome.text = try DirectorySink.applyNow(input, verdicts: verdicts, path: work + "/" + name, otid: originalTransactionId)
      if outcome.text.hasPrefix("already") { return nil }
      return try DirectoryFiles.read(work).subscribers.first { $0.name == name }
    }
    return outcome.text.replacingOccurrences(of: name, with: "\(name) in \(database.url.description)")
  }
}

final class OutcomeBox: @unchecked Sendable { var text = "" }
