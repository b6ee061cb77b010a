/// Reads the elements of a projection's array into the reader's own values as they are parsed,
/// so the document never holds them as JSON (`JSONProjection.reader`).
///
/// Why: `show` of a 100,000-transaction file needs each history entry as a `StoryTransaction`.
/// Kept as projected JSON first, the entries were 37 MB of objects that the kernel had to hand
/// out and zero page by page, then read again field by field after the parse. Read here, each
/// entry's JSON is let go as soon as it is read, and its memory is reused for the next one.
///
/// The parser gives every element of that array, in order, to a run; a piece of the array parsed
/// on another thread (`ArrayPieces`) gets a run of its own. The document holds an empty array in
/// its place, and the runs, in document order, come back beside it (`JSONParser.Parsed`).
public protocol ProjectedElementReader: Sendable {
  /// A new, empty run for consecutive elements of the array.
  func makeRun() -> any ProjectedRun
}

/// Consecutive elements of a projected array, read by a `ProjectedElementReader`. A run is filled
/// by one thread and handed to the parser's thread once that thread is done with it.
public protocol ProjectedRun: AnyObject {
  /// The next element: an object projected as the projection says, or any other value as parsed.
  func add(_ element: JSON)
  /// About how many elements the run will hold in all, estimated by the parser from the bytes its
  /// first elements took and the bytes left before the next run: room reserved once instead of
  /// a growing array copied into fresh pages at each doubling. Only a hint: more may come.
  func reserveCapacity(_ elements: Int)
}

extension ProjectedRun {
  public func reserveCapacity(_ elements: Int) {}

  /// Called by the parser once `count` elements are in the run: after the first
  /// `projectedRunSample`, which took `consumed` bytes with `remaining` bytes left before the
  /// run's end, reserves room for the estimate (`projectedRunEstimate`).
  func added(count: Int, consumed: Int, remaining: Int) {
    if count == projectedRunSample { reserveCapacity(projectedRunEstimate(consumed: consumed, remaining: remaining)) }
  }
}

/// When the parser reserves room in a run: after this many elements, whose bytes give the estimate.
let projectedRunSample = 32

/// The elements a run will hold in all: `sample` elements took `consumed` bytes, and `remaining`
/// bytes are left before the run's end (at most the document's rest). Never more than one element
/// per 64 bytes, whatever the sample says (a sample of tiny elements before big ones), and never
/// room for more than 262,144: a long document on one line has no pieces, so its one run's rest
/// is the whole document. More elements than reserved are still taken, by growing.
func projectedRunEstimate(consumed: Int, remaining: Int) -> Int {
  let perElement = max(64, consumed / projectedRunSample)
  return min(projectedRunSample + max(0, remaining) / perElement, 1 << 18)
}
