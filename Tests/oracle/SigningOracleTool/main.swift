import AppStoreSigning
import Foundation

// Two jobs for Tests/oracle (never shipped):
//   SigningOracleTool corpus DIR   a fresh test CA (DIR/ca, root in DIR/ca/root.der) and DIR/jws/*.jws:
//                                  valid transaction, renewal info and notification, plus tampered copies
//   SigningOracleTool bench FILE N [ROOT]  µs per verify of FILE, warm (N rounds after one), release build

let arguments = CommandLine.arguments.dropFirst()
switch arguments.first {
case "corpus" where arguments.count == 2:
  try writeCorpus(to: arguments[arguments.startIndex + 1])
case "bench" where arguments.count >= 3:
  let list = Array(arguments)
  try await bench(file: list[1], rounds: Int(list[2]) ?? 1000, root: list.count > 3 ? list[3] : nil)
default:
  FileHandle.standardError.write(Data("usage: SigningOracleTool corpus DIR | bench FILE N [ROOT]\n".utf8))
  exit(64)
}

func writeCorpus(to directory: String) throws {
  let ca = try LocalCertificateAuthority.create()
  try FileManager.default.createDirectory(atPath: directory + "/jws", withIntermediateDirectories: true)
  try ca.save(to: directory + "/ca")
  let expired = try LocalCertificateAuthority.create(.init(name: "Expired Leaf", leafNotValidAfter: Date(timeIntervalSince1970: 1_650_000_000)))
  let noLeafOID = try LocalCertificateAuthority.create(.init(name: "No Leaf OID", leafHasAppleOID: false))
  let noIntermediateOID = try LocalCertificateAuthority.create(.init(name: "No Intermediate OID", intermediateHasAppleOID: false))
  // These three roots are trusted too, so only the defect named in the file name can fail them.
  for (name, other) in [("expired", expired), ("noleafoid", noLeafOID), ("nointermediateoid", noIntermediateOID)] {
    try Data(other.rootDER).write(to: URL(fileURLWithPath: "\(directory)/ca/\(name)-root.der"))
  }
  let stranger = try LocalCertificateAuthority.create(.init(name: "Stranger"))

  let signed: Int64 = 1_700_000_000_000
  let transaction = #"{"transactionId":"2000000111","originalTransactionId":"2000000100","webOrderLineItemId":"2000000055","bundleId":"com.example","productId":"pro.monthly","subscriptionGroupIdentifier":"21000000","purchaseDate":1699990000000,"originalPurchaseDate":1690000000000,"expiresDate":1702590000000,"quantity":1,"type":"Auto-Renewable Subscription","inAppOwnershipType":"PURCHASED","signedDate":\#(signed),"environment":"Sandbox","transactionReason":"RENEWAL","storefront":"USA","storefrontId":"143441","price":9990,"currency":"USD"}"#
  let renewal = #"{"originalTransactionId":"2000000100","autoRenewProductId":"pro.monthly","productId":"pro.monthly","autoRenewStatus":1,"signedDate":\#(signed),"environment":"Sandbox","recentSubscriptionStartDate":1690000000000,"renewalDate":1702590000000}"#
  let signedTransaction = try ca.sign(payloadJSON: Array(transaction.utf8))
  let signedRenewal = try ca.sign(payloadJSON: Array(renewal.utf8))
  let notification = #"{"notificationType":"DID_RENEW","subtype":"BILLING_RECOVERY","notificationUUID":"4b0c6c8a-0000-4000-8000-000000000001","version":"2.0","signedDate":\#(signed),"data":{"appAppleId":1234,"bundleId":"com.example","bundleVersion":"1.0","environment":"Sandbox","signedTransactionInfo":"\#(signedTransaction)","signedRenewalInfo":"\#(signedRenewal)","status":1}}"#
  let good = try ca.sign(payloadJSON: Array(notification.utf8))

  func parts(_ jws: String) -> [String] { jws.split(separator: ".", omittingEmptySubsequences: false).map(String.init) }
  func b64url(_ text: String) -> String {
    Data(text.utf8).base64EncodedString().replacingOccurrences(of: "+", with: "-").replacingOccurrences(of: "/", with: "_").replacingOccurrences(of: "=", with: "")
  }
  let t = parts(signedTransaction)
  let headerJSON = String(decoding: Data(base64Encoded: t[0].padding(toLength: (t[0].count + 3) / 4 * 4, withPad: "=", startingAt: 0))!, as: UTF8.self)
  let x5c = headerJSON[headerJSON.range(of: "[")!.lowerBound..<headerJSON.range(of: "]")!.upperBound]

  var files: [(String, String)] = [
    ("valid-transaction", signedTransaction),
    ("valid-renewal-info", signedRenewal),
    ("valid-notification", good),
    ("tampered-payload", t[0] + "." + b64url(transaction.replacingOccurrences(of: "9990", with: "1")) + "." + t[2]),
    ("null-payload", t[0] + "." + b64url("null") + "." + t[2]),
    ("truncated-signature", t[0] + "." + t[1] + "." + String(t[2].dropLast(10))),
    ("wrong-alg", b64url(#"{"alg":"ES384","x5c":"# + x5c + "}") + "." + t[1] + "." + t[2]),
    ("two-segments", t[0] + "." + t[1]),
    ("bad-base64-header", "%%%." + t[1] + "." + t[2]),
    ("foreign-chain", try stranger.sign(payloadJSON: Array(transaction.utf8))),
    ("expired-leaf-at-signeddate", try expired.sign(payloadJSON: Array(transaction.utf8))),
    ("leaf-without-apple-oid", try noLeafOID.sign(payloadJSON: Array(transaction.utf8))),
    ("intermediate-without-apple-oid", try noIntermediateOID.sign(payloadJSON: Array(transaction.utf8))),
  ]
  let forgedNested = parts(signedTransaction)[0] + "." + b64url(transaction.replacingOccurrences(of: "pro.monthly", with: "pro.yearly")) + "." + t[2]
  files.append(("notification-with-tampered-nested-transaction",
                try ca.sign(payloadJSON: Array(notification.replacingOccurrences(of: signedTransaction, with: forgedNested).utf8))))
  for (name, jws) in files {
    try Data(jws.utf8).write(to: URL(fileURLWithPath: "\(directory)/jws/\(name).jws"))
  }
  print("wrote \(files.count) JWS to \(directory)/jws")
}

func bench(file: String, rounds: Int, root: String?) async throws {
  let jws = try String(contentsOfFile: file, encoding: .utf8).trimmingCharacters(in: .whitespacesAndNewlines)
  var extra: [TrustedRoot] = []
  if let root { extra.append(try TrustedRoot(fileContents: Array(try Data(contentsOf: URL(fileURLWithPath: root))), source: root)) }
  let verifier = try JWSVerifier(extraRoots: extra)
  _ = try await verifier.verify(jws)  // warm: chain cached, code paged in
  let clock = ContinuousClock()
  let elapsed = try await clock.measure {
    for _ in 0..<rounds { _ = try await verifier.verify(jws) }
  }
  let coldRounds = max(1, rounds / 10)
  let cold = try await clock.measure {
    for _ in 0..<coldRounds { _ = try await JWSVerifier(extraRoots: extra).verify(jws) }
  }
  func microseconds(_ d: Duration) -> Double { Double(d.components.seconds) * 1e6 + Double(d.components.attoseconds) / 1e12 }
  print(String(format: "swift: %.1f us per verify warm (chain cached, %d rounds); %.0f us uncached (new verifier each time, %d rounds)",
               microseconds(elapsed) / Double(rounds), rounds, microseconds(cold) / Double(coldRounds), coldRounds))
}
