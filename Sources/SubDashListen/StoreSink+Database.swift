import DashModel
import NotificationReceiver
import SubscriberDatabase

extension StoreSink {
  /// `listen --db`: notifications into the team database through its subscriber store (row lock,
  /// the directory store's rules on a private copy of the row, NOTIFY), answered by the same typed
  /// results as a directory. Made here, in the executable: the receiver itself never depends on
  /// PostgreSQL code.
  static func database(_ database: SubscriberDatabase, scratch: String) -> StoreSink {
    let place = database.url.description
    return StoreSink(store: PostgresSubscriberStore(database: database, scratch: scratch)) { "\($0) in \(place)" }
  }
}
