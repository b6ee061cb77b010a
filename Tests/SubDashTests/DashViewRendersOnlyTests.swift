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
    "$s9DashModel9StateFileO", "$s9DashModel5PosixO", "$s9DashModel7JournalO", "$s9DashModel18StateFileDirectoryO",
    "$s9DashModel9FileStampV", "$s9DashModel8FileLockV", "$s9DashModel25DirectorySubscriberStoreV",
    "$s9DashModel17DirectoryFollowerC", "$s9DashModel7ListRowV4read",
  ]

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

  /// The same check sees these calls where they belong: reading rows on every core in the model,
  /// inotify and read(2) in the runtime's watcher.
  @Test func theCheckFindsReadingAndThreadsWhereTheyAre() throws {
    let model = try Self.objects(of: "DashModel").first { $0.lastPathComponent == "ListRow+Read.swift.o" }
    let rowReading = try Self.offenders(in: try #require(model))
    #expect(rowReading.contains { $0.hasPrefix("$s8Dispatch") })
    #expect(rowReading.contains { $0.hasPrefix("$s9DashModel9StateFileO4load") })
    let runtime = try Self.objects(of: "DashRuntime").first { $0.lastPathComponent == "FileWatcher.swift.o" }
    let watching = try Self.offenders(in: try #require(runtime))
    #expect(watching.contains("read") && watching.contains("inotify_init1"), "\(watching)")
  }
}
