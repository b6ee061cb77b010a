import Dispatch

/// A big document's long arrays parsed in pieces on the other cores while the parser's own thread
/// reads up to them: a 100,000-transaction state file is 100 MB, and one thread parsing it was
/// half of `show --json` (docs/benchmarks.md).
///
/// The document is cut into eight pieces per core, sixteen at most: pieces cost the same bytes but
/// not the same time (a projected history entry is cheaper than a notification built whole), and
/// with small pieces no core waits long for the last one (four pieces on two cores: the parse of a
/// 100,000-transaction file took 192 ms, sixteen: 168 ms, medians of 25 alternating rounds, the
/// same CPU time). Each cut moves forward to the next *element boundary*: a comma, white
/// space with a line break, then `{` or `[`. A raw line break cannot be inside a JSON string, so in
/// a valid document that comma separates two elements of some array, and what follows is one of
/// them. A piece parses elements from there, as the array loop would, until its array's `]` or
/// until it lands on the next piece's start.
///
/// Nothing is trusted: the parser's own thread uses a piece only when it arrives at the piece's
/// start as the start of an element of an array, exactly where the piece began, and only when the
/// piece parsed without an error and within the depth limit counted from that array. Otherwise it
/// parses those bytes itself, so a damaged file gets the same error, at the same line and column,
/// as it would with one thread.
///
/// With a projection (`JSONProjection`), a piece whose first element has the projection's
/// signature keys guesses it is inside the projected array and keeps only the kept members of
/// its object elements. The parser takes such a piece only inside the projected array.
package final class ArrayPieces: @unchecked Sendable {
  /// Smaller documents are parsed by one thread: starting others costs more than it saves.
  package static let parallelFrom = 8 << 20
  /// How far past a cut to look for an element boundary before giving that cut up.
  static let searchWindow = 1 << 20

  /// What a piece parsed: its elements, where the array goes on (or just past its `]`), and how
  /// deep it nested, relative to the array.
  struct Piece {
    var items: [JSON]
    var end: Int
    var closesArray: Bool
    var deepest: Int
    /// Whether its object elements were projected (see the type's comment).
    var projected = false
    /// Its elements as the projection's reader read them, when it has one (then `items` is empty).
    var run: (any ProjectedRun)? = nil
  }

  private final class Slot: @unchecked Sendable {
    let start: Int
    /// The next piece's start: this piece stops there if it lands on it between two elements.
    let stopAt: Int
    /// Written once by the piece's task, read after `done` is signalled.
    var piece: Piece?
    let done = DispatchSemaphore(value: 0)
    init(start: Int, stopAt: Int) { self.start = start; self.stopAt = stopAt }
  }

  private struct Bytes: @unchecked Sendable { let buffer: UnsafeBufferPointer<UInt8> }

  private let slots: [Slot]
  private var next = 0
  /// How many pieces the parser used.
  private(set) var taken = 0
  private let group = DispatchGroup()

  private init(slots: [Slot]) { self.slots = slots }

  /// Starts the pieces of `bytes`, or returns nil when one thread should parse it all. The caller
  /// must call `waitForAll` before `bytes` is released.
  static func start(_ bytes: UnsafeBufferPointer<UInt8>, maxDepth: Int, from minimum: Int = parallelFrom, cores: Int = OrderedParallelMap.cores,
                    projection: JSONProjection? = nil) -> ArrayPieces? {
    guard cores > 1, bytes.count >= minimum, bytes.count >= 2 else { return nil }
    let count = min(16, cores * 8)
    var starts: [Int] = []
    for k in 1..<count {
      let cut = bytes.count / count * k
      if let s = elementStart(in: bytes, from: max(cut, (starts.last ?? 0) + 1)) { starts.append(s) }
    }
    guard !starts.isEmpty else { return nil }
    let slots = starts.indices.map { k in Slot(start: starts[k], stopAt: k + 1 < starts.count ? starts[k + 1] : Int.max) }
    let pieces = ArrayPieces(slots: slots)
    let shared = Bytes(buffer: bytes)
    for slot in slots {
      DispatchQueue.global().async(group: pieces.group) {
        slot.piece = JSONParser.parsePiece(shared.buffer, from: slot.start, stopAt: slot.stopAt, maxDepth: maxDepth, projection: projection)
        slot.done.signal()
      }
    }
    return pieces
  }

  /// Where the next piece not yet passed starts (Int.max when none is left).
  var nextStart: Int { next < slots.count ? slots[next].start : Int.max }

  /// The piece that starts at `offset`, the start of an element of an array at `depth`, once it
  /// has been parsed; nil when none starts there or it cannot be used (the caller parses on),
  /// which a projected piece cannot outside the `projected` array.
  func take(at offset: Int, depth: Int, maxDepth: Int, projected: Bool) -> Piece? {
    while next < slots.count, slots[next].start < offset { next += 1 }
    guard next < slots.count, slots[next].start == offset else { return nil }
    let slot = slots[next]
    next += 1
    // Not a wait on anything outside: the task parses memory this process holds, and ends.
    slot.done.wait()
    guard let piece = slot.piece, depth + piece.deepest <= maxDepth, projected || !piece.projected else { return nil }
    slot.piece = nil
    taken += 1
    return piece
  }

  /// Waits until every piece's task has ended (they read the caller's buffer).
  func waitForAll() { group.wait() }

  /// The first element boundary at or after `from` (see the type's comment), within the window.
  static func elementStart(in bytes: UnsafeBufferPointer<UInt8>, from: Int) -> Int? {
    var k = from
    let end = min(bytes.count, from + searchWindow)
    while k < end {
      if bytes[k] == UInt8(ascii: ",") {
        var j = k + 1
        var lineBreak = false
        while j < bytes.count {
          let b = bytes[j]
          if b == 0x0A { lineBreak = true } else if b != 0x20 && b != 0x09 && b != 0x0D { break }
          j += 1
        }
        if lineBreak, j < bytes.count, bytes[j] == UInt8(ascii: "{") || bytes[j] == UInt8(ascii: "[") { return j }
        k = j
      } else {
        k += 1
      }
    }
    return nil
  }
}

extension JSONParser {
  /// Elements of an array from `start` (an element's first byte), as `parseArray`'s loop reads
  /// them, up to the array's `]` or to `stopAt` between two elements; nil on any error.
  static func parsePiece(_ bytes: UnsafeBufferPointer<UInt8>, from start: Int, stopAt: Int, maxDepth: Int,
                         projection: JSONProjection? = nil) -> ArrayPieces.Piece? {
    var p = JSONParser(bytes: bytes, maxDepth: maxDepth)
    p.i = start
    p.projection = projection
    var items: [JSON] = []
    var projecting = false
    // The projection's reader reads the elements here, on this thread, when the piece is projected.
    var run: (any ProjectedRun)? = nil
    var first = true, count = 0
    do throws(JSONSyntaxError) {
      while true {
        let itemStart = p.i
        var item = try p.parseElement(projected: projecting)
        if first, let projection, projection.looksLikeElement(item) {
          // Read again, projected, so that what is kept does not depend on where pieces start.
          projecting = true
          p.i = itemStart
          item = try p.parseElement(projected: true)
          run = projection.reader?.makeRun()
        }
        first = false
        if let run {
          run.add(item)
          count += 1
          run.added(count: count, consumed: p.i - start, remaining: min(stopAt, bytes.count) - p.i)
        } else {
          items.append(item)
        }
        p.skipSpace()
        guard p.i < bytes.count else { return nil }
        switch bytes[p.i] {
        case UInt8(ascii: ","):
          p.i += 1
          p.skipSpace()
          if p.i == stopAt { return .init(items: items, end: p.i, closesArray: false, deepest: p.deepest, projected: projecting, run: run) }
          if p.i >= bytes.count || bytes[p.i] == UInt8(ascii: "]") { return nil }
        case UInt8(ascii: "]"):
          return .init(items: items, end: p.i + 1, closesArray: true, deepest: p.deepest, projected: projecting, run: run)
        default:
          return nil
        }
      }
    } catch {
      return nil
    }
  }

  /// The piece that starts here, if another thread parsed one (see `ArrayPieces`).
  mutating func takePiece(projected: Bool) -> ArrayPieces.Piece? {
    guard let pieces else { return nil }
    defer { nextPieceStart = pieces.nextStart }
    return pieces.take(at: i, depth: depth, maxDepth: maxDepth, projected: projected)
  }
}
