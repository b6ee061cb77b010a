// SubscriberStorage: where subscribers live on disk, and the one way to change one.
//
// What it holds: the state file (decode, load for viewing, save), the journal's file (append,
// tail, read), locks (`FileLock`: one byte of `.subdash.lock` per state file), atomic writes
// (temp file + fsync + rename in the same directory), spare files, the directory store with its
// follower, and `SubscriberStore.update(name, change)`: read the latest stored state under the
// lock, apply the change, write atomically. Besides: private files (secrets, the Retention
// configuration), child processes, and the files the model's features keep (list rows, mass
// extensions, the nonce record).
//
// What it may import: DashModel, RetentionMessaging, CoreValues and swift-system; never a view,
// a server or a network client. Linux-only calls sit in Platform/, each with the portable path
// beside it (docs/platforms.md).
