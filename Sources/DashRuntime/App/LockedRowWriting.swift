import DashModel

/// Where a dashboard's keys go when its file is a copy of a subscriber kept elsewhere (a row of the
/// team database, mirrored into a private directory). Writing the copy would be overwritten by
/// the next mirror update, and would lose any change committed since the copy was made; instead
/// `write` locks the original, lays its latest state out at a scratch path, lets the dashboard
/// apply its change there through the usual locked, atomic write, and stores the result back
/// before the lock is released (or leaves the original as it was when `body` says not to commit).
///
/// `followFamily` (with `commit`): the change extended a purchaser's renewal date, so once it is
/// stored the purchaser's family members kept with it follow, each through the store's own locked
/// write, as a directory's members do; `family` says how each one fared.
package protocol LockedRowWriting: AnyObject {
  func write<T>(fileName: String, _ body: (_ scratchPath: String) -> (commit: Bool, followFamily: Bool, value: T))
    -> Result<(value: T, family: [FamilyExtension.MemberOutcome]), LockedRowError>
}

/// A row write that did not happen: one line, for the status line.
package struct LockedRowError: Error, Equatable {
  package let message: String
  package init(_ message: String) { self.message = message }
}
