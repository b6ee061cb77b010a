import DashModel
import Dispatch

/// `show --json`'s timeline written on both cores: a 100,000-period timeline is 26 MB of text,
/// and its second half is written at the same time as its first, into a buffer of its own, then
/// appended. The bytes are those `writeTimelineJSON` writes in one go (the halves are written by
/// `writeTimelinePeriods`, which makes ranges that join into the same text).
enum ShowTimelineBytes {
  /// Below this many periods one thread writes it all: starting a second costs more than it saves.
  static let parallelFrom = 20_000

  static func write(_ story: CustomerStory, into out: inout [UInt8], indent: Int, parallelFrom: Int = parallelFrom) {
    let count = story.timeline.periods.count
    guard count >= max(2, parallelFrom) else {
      story.writeTimelineJSON(into: &out, indent: indent)
      return
    }
    let middle = count / 2
    let second = SecondHalf()
    second.bytes.reserveCapacity((count - middle) * 300)
    let group = DispatchGroup()
    DispatchQueue.global().async(group: group) {
      story.writeTimelinePeriods(middle..<count, into: &second.bytes, indent: indent)
    }
    out.append(0x5B)
    story.writeTimelinePeriods(0..<middle, into: &out, indent: indent)
    // Not a wait on anything outside: the task formats memory this process holds, and ends.
    group.wait()
    out.append(contentsOf: second.bytes)
    out.append(0x0A)
    for _ in 0..<indent { out.append(0x20) }
    out.append(0x5D)
  }

  /// The second half's buffer: written only by its task, read only after the group is waited on.
  private final class SecondHalf: @unchecked Sendable { var bytes: [UInt8] = [] }
}
