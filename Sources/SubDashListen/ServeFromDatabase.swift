import AppStoreSigning
import DashModel
import LocalAppStoreAPI
import NotificationDelivery
import NotificationReceiver
import SubscriberDatabase
import SubscriberStorage

extension ListenCommand {
  /// `subdash serve --db URL`: the App Store Server API answered from the team database as
  /// `serve DIR` answers from DIR. The API reads state files, so it reads a private mirror of the
  /// rows (`DirectoryMirror`, kept current by NOTIFY); every write goes to the row through the
  /// subscriber store (`PostgresSubscriberStore`: row lock, latest version, NOTIFY), and the row it
  /// committed is laid into the mirror before the answer, so the next request reads it. Nothing is
  /// ever written to the mirror by the API, so no change of another writer is lost.
  func serveFromDatabase(_ db: SubscriberDatabase, receiver: NotificationReceiver, authority: LocalCertificateAuthority,
                         scratch: String, url: DatabaseURL) async throws {
    let mirrorDirectory = scratch + "/mirror", workDirectory = scratch + "/work"
    for dir in [mirrorDirectory, workDirectory] {
      if let why = PrivateDirectory.create(dir) { throw fail("\(dir): \(why)") }
    }
    let mirror = DirectoryMirror(directory: mirrorDirectory) { log($0) }
    let store = PostgresSubscriberStore(database: db, scratch: workDirectory) { row, catalogs in
      do { try mirror.write(row, catalogs: catalogs) } catch { log("\(error); the mirror catches up at the next change") }
    }
    let sender = HTTPNotificationSender()
    do {
      try await withThrowingTaskGroup(of: Void.self) { group in
        let ready = AsyncStream<Int>.makeStream()
        group.addTask {
          defer { ready.continuation.finish() }
          try await mirror.run(store) { ready.continuation.yield($0) }
        }
        var count: Int?
        for await n in ready.stream {
          count = n
          break
        }
        guard count != nil else {
          try await group.next()
          throw fail("\(url.description): the database could not be read")
        }
        let api = try makeAPI(directory: mirrorDirectory, authority: authority, sender: sender, store: store,
                              retentionStorage: RetentionInDatabase(database: db))
        group.addTask { try await serve(receiver, api: api, target: url.description) }
        // Either ending (a signal stops the server; a lost connection stops the mirror) ends both.
        try await group.next()
        group.cancelAll()
      }
    } catch {
      await sender.shutdown()
      throw error
    }
    await sender.shutdown()
  }
}
