import AppStoreSigning
import Foundation
import Testing
@testable import SubDash

/// What a support person hands `import`, `show` and `verify` that is not a subscriber: each is
/// told what it is, in one line, and nothing is written. And the inputs they can give: a pipe,
/// a file an editor saved with a byte order mark.
@Suite struct InputShapeTests {
  let dir: String

  init() throws {
    dir = NSTemporaryDirectory() + "input-shape-" + UUID().uuidString
    try FileManager.default.createDirectory(atPath: dir, withIntermediateDirectories: true)
  }

  func file(_ name: String, _ bytes: [UInt8]) throws -> String {
    let path = dir + "/" + name
    try Data(bytes).write(to: URL(fileURLWithPath: path))
    return path
  }

  static let decodedTransaction = #"{"transactionId":"11","originalTransactionId":"11","productId":"pro.monthly","purchaseDate":1770000000000,"expiresDate":1772592000000,"type":"Auto-Renewable Subscription","environment":"Sandbox"}"#

  /// Responses of the App Store Server API that hold no subscriber, and what each is called.
  static let responses: [(json: String, name: String)] = [
    (#"{"signedAppTransactionInfo":"eyJhbGciOiJFUzI1NiJ9.e30.c2ln"}"#, "Get App Transaction Info response"),
    (#"{"requestIdentifier":"758883e8-151b-47b7-abd0-60c4d804c2f5","complete":true,"completeDate":1698148900000,"succeededCount":30,"failedCount":2}"#,
     "Get Status of Subscription Renewal Date Extensions response"),
    (#"{"originalTransactionId":"2312412","webOrderLineItemId":"9993","success":true,"effectiveDate":1698148900000}"#, "Extend a Subscription Renewal Date response"),
    (#"{"errorCode":4040010,"errorMessage":"Transaction id not found."}"#, "error response (4040010 Transaction id not found.)"),
  ]

  @Test(arguments: 0..<responses.count) func anAPIResponseWithoutASubscriberIsNamedByImportAndShow(_ index: Int) throws {
    let (json, name) = Self.responses[index]
    let path = try file("response.json", Array(json.utf8))
    let output = dir + "/state.json"
    for args in [["import", path, "-o", output], ["show", path]] {
      let r = try CommandLineTests().run(args)
      #expect(r.status == 2, "\(args[0])")
      #expect(r.stderr == "subdash: \(path):1: $: this is an App Store Server API \(name); it holds \(index == 0 ? "the app's purchase, no subscriber" : "no subscriber")\n", "\(args[0])")
    }
    #expect(!FileManager.default.fileExists(atPath: output))
  }

  @Test func verifyNamesAResponseThatHoldsNoSignedData() async throws {
    let path = try file("status.json", Array(Self.responses[1].json.utf8))
    let lines = await Verify.report(input: path, verifier: try JWSVerifier(), json: false)
    #expect(lines.map(\.text) == ["\(path): invalid: this is an App Store Server API Get Status of Subscription Renewal Date Extensions response; it holds no signed data"])
  }

  @Test func verifySkipsAUTF8ByteOrderMark() async throws {
    let ca = try LocalCertificateAuthority.create()
    let verifier = try JWSVerifier(extraRoots: [TrustedRoot(certificate: ca.root, name: "ca/root.pem")])
    let jws = try ca.sign(payloadJSON: Array(#"{"transactionId":"7","environment":"Sandbox","signedDate":1700000000000}"#.utf8))
    let path = try file("bom.jws", [0xEF, 0xBB, 0xBF] + Array(jws.utf8) + [0x0D, 0x0A])
    let lines = await Verify.report(input: path, verifier: verifier, json: false)
    #expect(lines.map(\.valid) == [true], "\(lines.map(\.text))")
  }

  /// An API response that lists nothing (an empty history page) is refused, whatever else the
  /// file carries: a state file of nobody would look like a customer who never subscribed.
  @Test func nothingToImportIsRefusedAndNothingIsWritten() throws {
    let padding = String(repeating: "x", count: 4 << 20)
    let path = try file("empty-page.json", Array(#"{"signedTransactions":[],"hasMore":false,"notes":"\#(padding)"}"#.utf8))
    let output = dir + "/state.json"
    let r = try CommandLineTests().run(["import", path, "-o", output])
    #expect(r.status == 2)
    #expect(r.stderr == "subdash: \(path): nothing to import: no transaction, renewal info, notification or purchase in it; nothing written\n")
    #expect(!FileManager.default.fileExists(atPath: output))
  }

  /// `-o` naming a directory is refused before anything is locked: no lock file (`.subdash.lock`)
  /// is left beside it.
  @Test func importIntoADirectoryLeavesNothingBehind() throws {
    let input = try file("t.json", Array(Self.decodedTransaction.utf8))
    let target = dir + "/a-directory"
    try FileManager.default.createDirectory(atPath: target, withIntermediateDirectories: false)
    let before = try FileManager.default.contentsOfDirectory(atPath: dir).sorted()
    let r = try CommandLineTests().run(["import", input, "-o", target])
    #expect(r.status == 2)
    #expect(r.stderr == "subdash: \(target): is a directory; -o names the state file to create or add to\n")
    #expect(try FileManager.default.contentsOfDirectory(atPath: dir).sorted() == before)
  }

  @Test func importDashReadsAPipe() throws {
    let output = dir + "/piped.json"
    let p = Process()
    p.executableURL = CommandLineTests.binary
    p.arguments = ["import", "-", "-o", output]
    let input = Pipe(), err = Pipe()
    p.standardInput = input
    p.standardOutput = FileHandle.nullDevice
    p.standardError = err
    try p.run()
    input.fileHandleForWriting.write(Data(Self.decodedTransaction.utf8))
    try input.fileHandleForWriting.close()
    let stderr = String(decoding: err.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)
    p.waitUntilExit()
    #expect(p.terminationStatus == 0, "\(stderr)")
    let written = try String(contentsOfFile: output, encoding: .utf8)
    #expect(written.contains(#""transactionId": "11""#))
  }

  /// Peak memory of `subdash import` on 30 MB of small junk objects, alone or beside an empty
  /// history page: refused without building the junk into a tree (which costs eight to twelve
  /// times its bytes: 1.4 GB for 100 MB before this was fixed).
  @Test(arguments: [false, true]) func aLargeFileOfJunkIsRefusedWithoutParsingItWhole(besideAnEmptyPage: Bool) throws {
    let one = Array(#"{"a":1,"b":"xxxxxxxxxxxxxxxxxxxx","c":[1,2,3]},"#.utf8)
    var bytes: [UInt8] = Array((besideAnEmptyPage ? #"{"signedTransactions":[],"hasMore":false,"junk":["# : "[").utf8)
    bytes.reserveCapacity(32 << 20)
    while bytes.count < 30 << 20 { bytes += one }
    bytes[bytes.count - 1] = UInt8(ascii: "]")
    if besideAnEmptyPage { bytes.append(UInt8(ascii: "}")) }
    let path = try file("junk.json", bytes)
    bytes = []
    // Measured by /usr/bin/time (apt-get install time): a child spawned from this test process
    // would report this process's resident size as its own peak (vfork shares it until exec).
    try #require(FileManager.default.isExecutableFile(atPath: "/usr/bin/time"), "needs /usr/bin/time (apt-get install time)")
    let p = Process()
    p.executableURL = URL(fileURLWithPath: "/usr/bin/time")
    p.arguments = ["-f", "peak-kb %M", CommandLineTests.binary.path, "import", path, "-o", dir + "/junk-state.json"]
    let err = Pipe()
    p.standardError = err
    p.standardOutput = FileHandle.nullDevice
    try p.run()
    let stderr = String(decoding: err.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)
    p.waitUntilExit()
    #expect(stderr.contains(besideAnEmptyPage ? "nothing to import" : "$[0]: not an App Store or RevenueCat input"), "\(stderr)")
    let peakKB = try #require(stderr.split(separator: "\n").last { $0.hasPrefix("peak-kb ") }.flatMap { Int($0.dropFirst("peak-kb ".count)) })
    // The file is 30 MB; the process itself (debug build, its libraries) takes about 20 MB.
    #expect(peakKB / 1024 < 30 * 2 + 40, "peak \(peakKB / 1024) MB for a 30 MB file")
    #expect(!FileManager.default.fileExists(atPath: dir + "/junk-state.json"))
  }

  /// The fields an API response is read from are parsed, and their errors located, on their own.
  @Test func aBrokenFieldOfAResponseIsNamedByLine() throws {
    let path = try file("page.json", Array("{\"hasMore\": false,\n \"signedTransactions\": [\n  \"not-a-jws.x\"\n ]}".utf8))
    let r = try CommandLineTests().run(["import", path, "-o", dir + "/state.json"])
    #expect(r.status == 2)
    #expect(r.stderr == "subdash: \(path):3: $.signedTransactions[0]: not a compact JWS: expected 3 dot-separated parts, found 2\n")
  }

}
