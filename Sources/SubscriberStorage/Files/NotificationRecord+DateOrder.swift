import DashModel
extension Array where Element == NotificationRecord {
  /// The inline log oldest first. SubDash writes it in date order, so this is usually the array
  /// itself at the cost of one pass; a hand-made log out of order is sorted stably (undated
  /// entries first), so "newest" never skips a newer event.
  func inDateOrder() -> [NotificationRecord] {
    // Dates compared in place: pairs of copies retained every record's strings twice.
    let inOrder = withUnsafeBufferPointer { r in
      r.indices.dropFirst().allSatisfy { (r[$0 - 1].signedDate ?? .epoch) <= (r[$0].signedDate ?? .epoch) }
    }
    if inOrder { return self }
    return enumerated().sorted {
      let a = $0.element.signedDate ?? .epoch, b = $1.element.signedDate ?? .epoch
      return a != b ? a < b : $0.offset < $1.offset
    }.map(\.element)
  }
}
