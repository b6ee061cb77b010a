import CoreValues
import DashModel
import SubscriberStorage
/// The import API: bytes in (each with a label for messages and provenance), one subscriber's
/// state out, in memory (`viewingState`) or written through the locked, atomic, journalled path
/// (`write`). `subdash import`, `subdash FILE` on an importable input and `subdash fetch` use it.
public enum Importer {
  public static let noCatalogMessage = Catalog.noCatalogMessage

  public struct Options: Sendable {
    public var originalTransactionId: String?
    public var checker: any SignedDataChecking
    public init(originalTransactionId: String? = nil, checker: any SignedDataChecking = NoSignatureChecking()) {
      self.originalTransactionId = originalTransactionId
      self.checker = checker
    }
  }

  /// Where the state's catalog comes from.
  public enum CatalogChoice: Sendable {
    /// Built from the transactions (levels unknown; plan actions refused).
    case derived
    /// A .storekit file beside the state file, named relative to its directory.
    case file(String)
    /// A .storekit file's JSON, copied inline (the file lives elsewhere).
    case inline(JSONObject)
  }

  /// Reads every input and merges them. `defaultSubscriber` (the existing state's
  /// originalTransactionId) applies when no option is given and the inputs include it.
  public static func merge(inputs: [ImportInput], options: Options, defaultSubscriber: String? = nil) throws(ImportError) -> ImportMerge {
    var items = ImportedItems()
    for input in inputs { items.append(try read(input, options: options)) }
    return try merge(items: items, options: options, defaultSubscriber: defaultSubscriber)
  }

  /// What one input holds. Reading inputs one at a time and appending their items keeps only the
  /// decoded payloads alive, never every page's bytes at once (memory flat in the number of pages).
  public static func read(_ input: ImportInput, options: Options) throws(ImportError) -> ImportedItems {
    try InputReader.read(input, checker: options.checker)
  }

  public static func merge(items: ImportedItems, options: Options, defaultSubscriber: String? = nil) throws(ImportError) -> ImportMerge {
    var chosen = options.originalTransactionId
    if chosen == nil, let d = defaultSubscriber,
       items.transactions.contains(where: { $0.originalTransactionId == d }) || items.renewalInfos.contains(where: { $0.originalTransactionId == d }) {
      chosen = d
    }
    return try ImportMerge.merge(items, originalTransactionId: chosen)
  }

  /// The new state document for a merge. `inlineHistory` puts the history in the document (for
  /// viewing in memory); otherwise `write` sends it to the journal.
  public static func document(_ m: ImportMerge, catalog: CatalogChoice, inlineHistory: Bool) -> JSONObject {
    var sub = JSONObject()
    if let t = m.latestTransaction { sub["latestTransaction"] = t.json }
    if let r = m.renewalInfo { sub["renewalInfo"] = r.json }
    if inlineHistory {
      if !m.transactions.isEmpty { sub["transactions"] = .array(m.transactions.map(\.json)) }
      if !m.notifications.isEmpty { sub["notifications"] = .array(m.notifications.map(\.json)) }
    }
    var doc = JSONObject([("format", .string(DashModelInfo.stateFormat)), ("subscriber", .object(sub))])
    switch catalog {
    case .derived: doc["catalog"] = .object(DerivedCatalog.build(transactions: m.transactions, renewalInfo: m.renewalInfo))
    case .file(let name): doc["catalogFile"] = .string(name)
    case .inline(let o): doc["catalog"] = .object(o)
    }
    doc["imported"] = .object(importedBlock(sources: m.sources, otherStores: m.otherStores))
    return doc
  }

  static func importedBlock(sources: [Provenance], otherStores: [JSONObject]) -> JSONObject {
    var o = JSONObject([("sources", .array(sources.map(\.json)))])
    if !otherStores.isEmpty { o["otherStores"] = .array(otherStores.map(JSON.object)) }
    return o
  }

  /// The merged subscriber as a state in memory, nothing written (`subdash FILE` on an input).
  public static func viewingState(_ m: ImportMerge, catalog: CatalogChoice, label: String,
                                  catalogFile: (String) throws(StateFileError) -> Catalog) throws(StateFileError) -> SubscriptionState {
    let bytes = JSONWriter.write(.object(document(m, catalog: catalog, inlineHistory: true)))
    return try StateFile.decode(bytes, fileName: label, catalogFile: catalogFile)
  }

  /// What `write` did, for the command's summary line.
  public struct Written: Sendable {
    /// What happened to the state file, decided where it was written (never read back from text).
    public enum Outcome: Sendable, Equatable {
      /// A new state file.
      case created
      /// Added to the existing file.
      case added
      /// The file already held all of it (a re-import, a redelivered notification): nothing written.
      case alreadyHeld
    }
    public var outcome: Outcome
    public var newTransactions: Int
    public var newNotifications: Int
    public var state: SubscriptionState
    public var created: Bool { outcome == .created }
  }

  /// Writes the merge to `path` through the subscriber store (`DirectorySubscriberStore`): a new
  /// state file, or added to the existing one, either way under its lock, re-read, journal
  /// appended, document renamed atomically. A merge the file already holds whole (a re-import, a
  /// redelivered notification) writes nothing. `finishing` edits the document last (fetch records
  /// how to fetch again), in the same write. A lock held past `lockWait` throws a `.busy` error.
  public static func write(_ m: ImportMerge, to path: String, catalog: CatalogChoice?,
                           lockWait: FileLock.Wait = .bounded,
                           finishing: (inout JSONObject) -> Void = { _ in }) throws(StateFileError) -> Written {
    let (store, name) = DirectorySubscriberStore.holding(path)
    let result = store.update(name, wait: lockWait) { (current) throws(StateFileError) -> SubscriberEdit in
      try edit(m, current, catalog: catalog, finishing: finishing)
    }
    switch result {
    case .created(let c): return Written(outcome: .created, newTransactions: c.transactions.count, newNotifications: c.notifications.count, state: c.state)
    case .applied(let c): return Written(outcome: .added, newTransactions: c.transactions.count, newNotifications: c.notifications.count, state: c.state)
    case .unchanged(let state?): return Written(outcome: .alreadyHeld, newTransactions: 0, newNotifications: 0, state: state)
    case .unchanged(nil): throw StateFileError(file: name, message: "nothing to import; nothing was created")
    case .refused(let e), .busy(let e), .failed(let e): throw e
    }
  }

  /// What a merge does to the stored subscriber: a new one from the merge, or what it adds.
  public static func edit(_ m: ImportMerge, _ current: SubscriberSnapshot?, catalog: CatalogChoice?,
                          finishing: (inout JSONObject) -> Void = { _ in }) throws(StateFileError) -> SubscriberEdit {
    guard let current else {
      var doc = document(m, catalog: catalog ?? .derived, inlineHistory: false)
      finishing(&doc)
      return .create(NewSubscriber(document: doc, history: m.transactions.map(Journal.Entry.transaction) + m.notifications.map(Journal.Entry.notification),
                                   message: "imported \(counted(m.transactions.count, "transaction")), \(counted(m.notifications.count, "notification"))"))
    }
    var change = try addition(m, to: current, catalog: catalog)
    finishing(&change.state.document.source)
    return .saveIfChanged(change, from: current.state)
  }

  /// The change that adds a merge to an existing state: history entries it does not hold yet
  /// (by transactionId and notificationUUID), the newer latest transaction and renewal info.
  static func addition(_ m: ImportMerge, to stored: SubscriberSnapshot, catalog: CatalogChoice?) throws(StateFileError) -> Change {
    let name = stored.name
    let current = stored.state
    let theirs = current.subscriber.originalTransactionId
    let ours = m.latestTransaction?.originalTransactionId ?? m.renewalInfo?.originalTransactionId
    if let theirs, let ours, theirs != ours {
      throw StateFileError(file: name, message: "holds originalTransactionId \(theirs) but the inputs are for \(ours); import into another file")
    }
    // Checked here, on the state as it is under the lock, so no writer racing this one can make
    // a subscriber hold both environments' data.
    if let held = current.subscriber.environment,
       let other = ([m.latestTransaction?.environment, m.renewalInfo?.environment] + m.transactions.map(\.environment)).compactMap({ $0 }).first(where: { $0 != held }) {
      throw StateFileError(file: name, message: "holds a \(held.rawValue) subscriber; the inputs are \(other.rawValue) data, which is never merged into it",
                           kind: .otherEnvironment(subscriber: held.rawValue, incoming: other.rawValue))
    }
    var knownIds = Set<String>()
    var knownUUIDs = Set<String>()
    do {
      knownIds.formUnion(try current.subscriber.transactions.transactionIds())
    } catch {
      throw StateFileError(file: name, path: error.path, message: error.message)
    }
    for n in current.subscriber.notifications { if let u = n.identity { knownUUIDs.insert(u) } }
    // Only the merge's own keys are looked up in the journal: reading the whole history on every
    // notification made each one cost the history's length (92 ms at 10,000 entries).
    let asked = HistoryKeys(transactionIds: Set(m.transactions.compactMap(\.transactionId)).subtracting(knownIds),
                            notificationUUIDs: Set(m.notifications.compactMap(\.identity)).subtracting(knownUUIDs))
    let held = try stored.held(asked)
    knownIds.formUnion(held.transactionIds)
    knownUUIDs.formUnion(held.notificationUUIDs)
    var state = current
    let newTransactions = m.transactions.filter { $0.transactionId.map { !knownIds.contains($0) } ?? true }
    // A notification is known by its UUID, or without one by its signed payload's digest
    // (NotificationRecord.identity): a redelivery of either adds nothing.
    let newNotifications = m.notifications.filter { $0.identity.map { !knownUUIDs.contains($0) } ?? true }
    if let t = m.latestTransaction {
      if let old = state.subscriber.latestTransaction {
        let replace = old.transactionId == t.transactionId ? ImportMerge.newerVersion(t, than: old) : ImportMerge.latest(of: [old, t]) == t
        if replace { state.subscriber.latestTransaction = t }
      } else {
        state.subscriber.latestTransaction = t
      }
    }
    if let r = m.renewalInfo {
      if let old = state.subscriber.renewalInfo, !ImportMerge.newerRenewal(r, than: old) {} else { state.subscriber.renewalInfo = r }
    }
    // The document's list of sources and other-store purchases grows by what is new.
    let old = state.document.source["imported"]?.objectValue
    let oldSources = (old?["sources"]?.arrayValue ?? []).compactMap { Provenance($0) }
    let sources = Provenance.distinctSorted(oldSources + m.sources)
    var others: [String: JSONObject] = [:]
    for o in (old?["otherStores"]?.arrayValue ?? []).compactMap(\.objectValue) + m.otherStores { others[ImportMerge.canonical(.object(o))] = o }
    var block = importedBlock(sources: sources, otherStores: others.sorted { $0.key < $1.key }.map(\.value))
    for (k, v) in old?.entries ?? [] where block[k] == nil { block[k] = v }  // unknown keys are kept
    state.document.source["imported"] = .object(block)
    switch catalog {
    case nil: break
    case .derived?: break  // an existing catalog is never replaced by a guess
    case .file(let f)?:
      state.document.source["catalog"] = nil
      state.document.source["catalogFile"] = .string(f)
    case .inline(let o)?:
      state.document.source["catalogFile"] = nil
      state.document.source["catalog"] = .object(o)
    }
    return Change(state: state, transactions: newTransactions, notifications: newNotifications,
                  message: "imported \(counted(newTransactions.count, "new transaction")), \(counted(newNotifications.count, "new notification"))")
  }
}
