import Foundation
import Testing

/// DashView renders: it is handed states and rows and gives back frames. It never reads files,
/// watches them or starts threads or tasks (issue 20 §1): reading the list's rows is the model's
/// (`ListRow.read` through the directory store), following changes the store's and the runtime's.
/// Checked on what the compiler made of DashView, not on how its sources spell things: every
/// symbol its object files use from elsewhere, so a wrapper, a typealias or an inlined helper
/// from another module cannot hide a call.
@Suite struct DashViewRendersOnlyTests {
  /// C library calls that read or watch files, map them, or start threads and processes.
  static let forbiddenCalls: Set<String> = [
    "open", "open64", "openat", "openat64", "creat", "read", "pread", "pread64", "readv", "fopen", "fopen64", "fread",
    "opendir", "fdopendir", "readdir", "readdir64", "scandir", "stat", "stat64", "lstat", "lstat64", "fstat", "fstat64",
    "fstatat", "fstatat64", "statx", "mmap", "mmap64", "inotify_init", "inotify_init1", "inotify_add_watch", "poll",
    "pthread_create", "fork", "vfork", "posix_spawn", "posix_spawnp", "execve", "swift_task_create",
  ]

  /// Swift symbols by prefix: Dispatch (queues, concurrentPerform), Foundation (Thread,
  /// FileManager, Data(contentsOf:)), and DashModel's file readers and followers.
  static let forbiddenPrefixes = [
    "dispatch_", "$s8Dispatch", "$s10Foundation", "$s20FoundationEssentials11FileManager", "$s20FoundationEssentials4Data",
    // Whole rooms that read and write files: storage, import, the simulator's runs.
    "$s17SubscriberStorage", "$s16SubscriberImport", "$s14SimulationRuns",
    // Threads: the parallel map of the values every room shares.
    "$s10CoreValues18OrderedParallelMap",
  ]

  /// The model's rooms keep no clock either: time is an input (`now` is always an argument).
  static let clockCalls: Set<String> = ["clock_gettime", "gettimeofday", "time", "$ss15ContinuousClockV3nowAB7InstantVvgZ",
                                        "$s20FoundationEssentials4DateVACycfC"]

  static func offenders(in object: URL) throws -> [String] {
    try ELFFile(contentsOf: object.path).undefinedSymbols().filter { symbol in
      forbiddenCalls.contains(symbol) || forbiddenPrefixes.contains(where: symbol.hasPrefix)
    }.sorted()
  }

  /// The target's object files as the build that made this test bundle compiled them: the ones its
  /// output file map names for its current sources (an object left from a file since moved away
  /// stays in the directory, and is not DashView any more).
  static func objects(of target: String) throws -> [URL] {
    let map = CommandLineTests.directory.appendingPathComponent("\(target).build/output-file-map.json")
    let entries = try JSONSerialization.jsonObject(with: Data(contentsOf: map)) as? [String: [String: String]] ?? [:]
    return entries.compactMap { source, outputs in
      guard source.hasSuffix(".swift"), let object = outputs["object"] else { return nil }
      return URL(fileURLWithPath: object)
    }
  }

  @Test func dashViewReadsNoFilesAndStartsNoThreads() throws {
    let objects = try Self.objects(of: "DashView")
    #expect(objects.count > 20, "DashView's object files were not found beside the test bundle: \(objects)")
    var found: [String] = []
    for object in objects {
      for symbol in try Self.offenders(in: object) { found.append("\(object.lastPathComponent): \(symbol)") }
    }
    #expect(found.isEmpty, "DashView only renders; move file reading and threads to DashModel or DashRuntime: \(found)")
  }

  /// The pure model (and the values it is made of, and Retention Messaging) reads no files,
  /// starts no threads of its own, calls no storage and reads no clock: what the rooms promise
  /// (docs/architecture.md), checked on the compiled objects. CoreValues' parallel map is the one
  /// exception the model may call: a fork-join inside one call on a large input.
  @Test func thePureRoomsReadNoFilesAndNoClock() throws {
    var found: [String] = []
    for target in ["CoreValues", "DashModel", "RetentionMessaging"] {
      let objects = try Self.objects(of: target)
      #expect(objects.count > 5, "\(target)'s object files were not found beside the test bundle")
      // CoreValues is where the fork-join lives (the parallel map, a large parse in pieces).
      let threadsAllowed = target == "CoreValues"
      for object in objects {
        let symbols = try ELFFile(contentsOf: object.path).undefinedSymbols()
        for symbol in symbols where Self.forbiddenCalls.contains(symbol) || Self.clockCalls.contains(symbol)
          || (Self.forbiddenPrefixes.contains(where: symbol.hasPrefix) && !symbol.hasPrefix("$s10CoreValues18OrderedParallelMap")
              && !(threadsAllowed && (symbol.hasPrefix("$s8Dispatch") || symbol.hasPrefix("dispatch_")))) {
          found.append("\(target)/\(object.lastPathComponent): \(symbol)")
        }
      }
    }
    #expect(found.isEmpty, "the pure rooms only compute; move file access, threads and clocks to storage or the runtime: \(found)")
  }

  /// The same check sees these calls where they belong: reading rows on every core in storage,
  /// inotify and read(2) in the runtime's watcher.
  @Test func theCheckFindsReadingAndThreadsWhereTheyAre() throws {
    let storage = try Self.objects(of: "SubscriberStorage").first { $0.lastPathComponent == "ListRow+Read.swift.o" }
    let rowReading = try ELFFile(contentsOf: try #require(storage).path).undefinedSymbols()
    #expect(rowReading.contains { $0.hasPrefix("$s10CoreValues18OrderedParallelMap") || $0.hasPrefix("$s8Dispatch") })
    #expect(rowReading.contains { $0.hasPrefix("$s17SubscriberStorage9StateFileO4load") })
    let runtime = try Self.objects(of: "DashRuntime").first { $0.lastPathComponent == "FileWatcher.swift.o" }
    let watching = try Self.offenders(in: try #require(runtime))
    #expect(watching.contains("read") && watching.contains("inotify_init1"), "\(watching)")
  }
}
