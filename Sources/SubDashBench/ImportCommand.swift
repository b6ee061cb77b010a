import AppStoreSigning
import ArgumentParser
import DashModel

#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif
import CoreValues
import SubscriberStorage

/// `SubDashBench import`: a Get Transaction History of N transactions split into P pages, each
/// transaction a compact JWS signed by a local test CA exactly as the App Store signs (a three-
/// certificate x5c chain, ES256), imported by the real `subdash import --root` process, which
/// verifies every signature, into a new state file. Time and peak memory for several page
/// counts over the same transactions show the cost is in the transactions, not the pages.
struct ImportBench: ParsableCommand {
  static let configuration = CommandConfiguration(commandName: "import", abstract: "Time `subdash import` of a paged transaction history.")

  @OptionGroup var location: BenchDirectory
  @Option(help: "Transactions in the history.")
  var transactions = 10_000
  @Option(help: "Comma-separated page counts to compare.")
  var pages = "10,100,1000"
  @Option(help: "Runs per page count; the table shows medians.")
  var runs = 5

  func run() throws {
    print(Machine.describe())
    let subdash = PathName.directory(of: ChildProcess.selfPath()) + "/subdash"
    print("""

      `subdash import --root root.der page-*.json -o out.json` (a new file each run: read, verify and decode every JWS, merge, derive the catalog,
      write the journal and the document); median wall time of \(runs) processes; peak RSS by /usr/bin/time -f %M.

      | transactions | pages | input bytes | import process | per transaction | peak RSS |
      |---:|---:|---:|---:|---:|---:|
      """)
    for p in pages.split(separator: ",").compactMap({ Int($0) }) {
      let dir = location.dir + "/import-\(transactions)-\(p)"
      let (files, root) = try Self.generate(transactions: transactions, pages: p, in: dir)
      var times: [Double] = [], rss: [Double] = []
      for _ in 0..<runs {
        // The directory's lock file (.subdash.lock) stays, as it does for a new subscriber in a used directory.
        unlink(dir + "/out.json"); unlink(dir + "/out.journal.jsonl")
        let r = ChildProcess.measure([subdash, "import", "--root", root] + files + ["-o", dir + "/out.json"])
        guard r.exitStatus == 0 else { throw ValidationError("subdash import exited \(r.exitStatus)") }
        times.append(r.seconds)
        rss.append(Double(r.maxRSSKiB))
      }
      let size = files.reduce(0) { $0 + StateFiles.size($1) }
      let t = Stats.median(times)
      print("| \(transactions) | \(p) | \(Stats.bytes(size)) | \(Stats.time(t)) | \(Stats.time(t / Double(transactions))) | \(Stats.bytes(Int(Stats.median(rss)) * 1024)) |")
    }
  }

  /// Writes the pages and the CA's root certificate once (kept between runs) and returns their
  /// paths. The root is written last: pages without it (an interrupted run, or the unsigned
  /// filler an older bench wrote) are made again.
  static func generate(transactions n: Int, pages: Int, in dir: String) throws -> (pages: [String], root: String) {
    mkdir(PathName.directory(of: dir), 0o755)
    mkdir(dir, 0o755)
    let rootPath = dir + "/root.der"
    let fresh = access(rootPath, F_OK) != 0
    let ca = try LocalCertificateAuthority.create(.init(name: "SubDash bench CA"))
    let start: Int64 = 1_700_000_000_000
    var paths: [String] = []
    let perPage = (n + pages - 1) / pages
    for page in 0..<pages {
      let path = dir + "/page-\(page).json"
      paths.append(path)
      if !fresh && access(path, F_OK) == 0 { continue }
      var jws: [String] = []
      for i in (page * perPage)..<min(n, (page + 1) * perPage) {
        let p = start + Int64(i) * 2_592_000_000 / 8640  // sandbox-like 5-minute renewals
        let payload = #"{"transactionId":"\#(2_000_000_000 + i)","originalTransactionId":"2000000000","webOrderLineItemId":"\#(3_000_000_000 + i)","bundleId":"com.example","productId":"pro.monthly","subscriptionGroupIdentifier":"G1","purchaseDate":\#(p),"originalPurchaseDate":\#(start),"expiresDate":\#(p + 300_000),"quantity":1,"type":"Auto-Renewable Subscription","inAppOwnershipType":"PURCHASED","signedDate":\#(p + 1000),"environment":"Sandbox","transactionReason":"RENEWAL","storefront":"USA","storefrontId":"143441","price":9990,"currency":"USD"}"#
        jws.append("\"" + (try ca.sign(payloadJSON: Array(payload.utf8))) + "\"")
      }
      let body = #"{"revision":"r\#(page)","bundleId":"com.example","appAppleId":1,"environment":"Sandbox","hasMore":\#(page < pages - 1),"signedTransactions":[\#(jws.joined(separator: ","))]}"#
      guard let f = fopen(path, "w") else { throw ValidationError("cannot write \(path)") }
      fputs(body, f)
      fclose(f)
    }
    if fresh { try write(ca.rootDER, to: rootPath) }
    return (paths, rootPath)
  }

  private static func write(_ bytes: [UInt8], to path: String) throws {
    guard let f = fopen(path, "w") else { throw ValidationError("cannot write \(path)") }
    defer { fclose(f) }
    guard fwrite(bytes, 1, bytes.count, f) == bytes.count else { throw ValidationError("cannot write \(path)") }
  }
}
