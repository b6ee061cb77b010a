import CoreValues
import DashModel
import SubscriberStorage
extension Importer {
  /// Reads and decodes the input files one per core at a time (`read` for each), their items
  /// appended in input order. The first input, in order, that fails stops the import with its
  /// error, as reading them one after another would; nothing is written either way. At most one
  /// window of inputs (a page each, for a history) is held at once, so memory stays flat in the
  /// number of pages. While one input's signatures are verified, the next is being parsed.
  public static func read(paths: [String], options: Options) throws(ImportError) -> ImportedItems {
    var items = ImportedItems()
    let cores = OrderedParallelMap.cores
    // Standard input can be named more than once (the second read finds it empty): kept in order.
    guard cores > 1, paths.count > 1, !paths.contains("-") else {
      for p in paths { items.append(try read(try readInput(p), options: options)) }
      return items
    }
    var start = 0
    while start < paths.count {
      let window = Array(paths[start..<min(start + cores, paths.count)])
      let results = OrderedParallelMap.map(window) { path in
        Result { () throws(ImportError) -> ImportedItems in try read(try readInput(path), options: options) }
      }
      for result in results { items.append(try result.get()) }
      start += window.count
    }
    return items
  }
}
