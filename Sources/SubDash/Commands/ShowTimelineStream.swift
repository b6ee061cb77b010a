import DashModel
import Dispatch

/// `show --json`'s long timeline streamed out in chunks, two at a time: a 100,000-period timeline
/// is 26 MB of text, and building it whole (then its second half apart, then joining them) made
/// 36 MB of memory the process touched for the first time, which on a virtual machine costs more
/// than writing the text. Here each thread formats its chunks (the even ones, the odd ones) into
/// one buffer it reuses, and the two hand the turn to write back and forth, so the chunks reach
/// standard output in order while the next ones are being formatted. The bytes are those
/// `writeTimelineJSON` writes (`writeTimelinePeriods` makes ranges that join into the same text).
enum ShowTimelineStream {
  /// Periods per chunk: about a megabyte of text.
  static let chunkPeriods = 4096

  /// Sends `head` (the document up to the timeline), then the timeline array at `indent`,
  /// through `sink`, which is called in order, one call at a time (not always from this
  /// thread). On return `head` is what follows the array's last period (its closing bracket),
  /// still to be written. Returns the error the first failed call returned; no call follows it.
  static func stream(_ story: CustomerStory, head: inout [UInt8], indent: Int, chunkPeriods: Int = chunkPeriods,
                     sink: @escaping @Sendable ([UInt8]) -> Int32?) -> Int32? {
    let count = story.timeline.periods.count
    let chunk = max(1, chunkPeriods)
    let chunks = (count + chunk - 1) / chunk
    guard chunks >= 2 else {
      story.writeTimelineJSON(into: &head, indent: indent)
      return nil
    }
    head.append(0x5B)
    if let failure = sink(head) { return failure }
    head.removeAll(keepingCapacity: true)
    let relay = Relay(story: story, count: count, chunk: chunk, indent: indent, sink: sink)
    let group = DispatchGroup()
    DispatchQueue.global().async(group: group) { relay.run(stride(from: 1, to: chunks, by: 2)) }
    relay.run(stride(from: 0, to: chunks, by: 2))
    // Not a wait on anything outside: the task formats memory this process holds, and its turns
    // come from this thread's, which all happened.
    group.wait()
    if let failure = relay.failure { return failure }
    head.append(0x0A)
    for _ in 0..<indent { head.append(0x20) }
    head.append(0x5D)
    return nil
  }

  /// The two threads' shared state. `failure` is read and written only by the thread whose turn
  /// it is to write; the turn passes through the semaphores, which order those accesses.
  private final class Relay: @unchecked Sendable {
    let story: CustomerStory
    let count: Int, chunk: Int, indent: Int
    let sink: @Sendable ([UInt8]) -> Int32?
    /// Signalled when the even (this thread's) or the odd chunks' thread may write. Both start
    /// at 0, and end no lower: chunk 0 is written without a wait.
    let evenTurn = DispatchSemaphore(value: 0), oddTurn = DispatchSemaphore(value: 0)
    var failure: Int32?

    init(story: CustomerStory, count: Int, chunk: Int, indent: Int, sink: @escaping @Sendable ([UInt8]) -> Int32?) {
      self.story = story
      self.count = count
      self.chunk = chunk
      self.indent = indent
      self.sink = sink
    }

    func run(_ chunks: StrideTo<Int>) {
      var buffer: [UInt8] = []
      buffer.reserveCapacity(chunk * 320)
      var stopped = false
      for c in chunks {
        let even = c % 2 == 0
        buffer.removeAll(keepingCapacity: true)
        // After a failed write, nothing more is formatted; the turns still go round so the
        // other thread ends too.
        if !stopped { story.writeTimelinePeriods(c * chunk..<min(count, (c + 1) * chunk), into: &buffer, indent: indent) }
        if c > 0 { (even ? evenTurn : oddTurn).wait() }
        if failure == nil { failure = sink(buffer) }
        stopped = failure != nil
        (even ? oddTurn : evenTurn).signal()
      }
    }
  }
}
