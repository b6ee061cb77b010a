import CoreValues
/// The inline history of a file `show` loads (`StateFile.loadForViewing`, with
/// `InlineHistory.storyProjection`): each entry is read as a `StoryTransaction` on the thread that parsed it, and its
/// JSON is let go at once (`ProjectedElementReader`). The summary is folded from those, and the
/// story takes them as they are (`CustomerHistory.load`).
///
/// Nothing is read more loosely than by `InlineHistory(_:key:)`: an entry that does not read as a
/// story transaction (not an object, a field of the wrong type) stays JSON, and is then read
/// exactly as there, with the same error at the same path, or left out of the story the same way.
/// An entry that reads as a story transaction has the summary's fields (a subset, read by the
/// same readers) of the right types, so folding it typed is folding its JSON.
struct ViewedEntriesReader: ProjectedElementReader {
  func makeRun() -> any ProjectedRun { ViewedEntries() }
}

/// Consecutive inline entries, read (see `ViewedEntriesReader`).
final class ViewedEntries: ProjectedRun {
  /// The entries that read as story transactions, in order.
  private(set) var story: [StoryTransaction] = []
  /// The others, as parsed, with their place in this run.
  private(set) var kept: [(index: Int, element: JSON)] = []
  private(set) var count = 0

  func reserveCapacity(_ elements: Int) { story.reserveCapacity(elements) }

  func add(_ element: JSON) {
    defer { count += 1 }
    // The path is only for errors, which are not kept here: a kept entry is read again with its own.
    if case .object(let o) = element, let t = try? StoryTransaction(ObjectReader(o, at: .root)) {
      story.append(t)
    } else {
      kept.append((count, element))
    }
  }
}

extension InlineHistory {
  /// The history of `runs` (a parse's `projectedRuns` with `storyProjection`), at `path`.
  package init(viewing runs: [any ProjectedRun], path: JSONPath) throws(DecodeError) {
    self.init(path: path)
    // Every run comes from the projection's one reader; another kind would be a parser bug.
    let read = runs.compactMap { $0 as? ViewedEntries }
    guard read.count == runs.count else { throw DecodeError(path, "internal error: the history was read by another reader") }
    var story: [StoryTransaction] = []
    story.reserveCapacity(read.reduce(0) { $0 + $1.story.count })
    var index = 0
    for run in read {
      var next = run.kept.startIndex, typed = 0
      for k in 0..<run.count {
        if next < run.kept.endIndex, run.kept[next].index == k {
          let element = run.kept[next].element
          next += 1
          guard case .object(let o) = element else {
            throw DecodeError(path.appending(index + k), "expected an object, found \(element.kindName)")
          }
          let r = ObjectReader(o, in: path, index: index + k)
          try summary.add(r)
          if let t = try? StoryTransaction(r) { story.append(t) }
        } else {
          summary.add(run.story[typed])
          story.append(run.story[typed])
          typed += 1
        }
      }
      index += run.count
    }
    viewed = Viewed(count: index, story: story)
  }
}
