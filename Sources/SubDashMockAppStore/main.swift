import AppStoreSigning
import Crypto
import Foundation
import AppStoreAuth
import MockAppStore

// A loopback App Store Server API for the e2e script (Tests/e2e/fetch.e2e.sh). It makes a team key,
// writes it (mode 600) with a profile and a test CA root into DIR, serves one production customer whose 45th renewal
// was ten days ago (order MK5TTTVWJH), prints its base URL on stdout and runs until killed.
// Creating DIR/renew adds one renewal (the file is removed), so a refresh has something new to find.
//   SubDashMockAppStore DIR
let arguments = CommandLine.arguments
guard arguments.count == 2 else {
  FileHandle.standardError.write(Data("usage: SubDashMockAppStore DIR\n".utf8))
  exit(64)
}
let dir = arguments[1]
let key = P256.Signing.PrivateKey()
let keyPath = dir + "/SubscriptionKey_MOCKKEY01.p8"
let issuer = "57246542-96fe-1a63-e053-0824d011072a"
FileManager.default.createFile(atPath: keyPath, contents: Data(key.pemRepresentation.utf8), attributes: [.posixPermissions: 0o600])
let profile = "key-file = \(keyPath)\nkey-id = MOCKKEY01\nissuer-id = \(issuer)\nbundle-id = com.example.subdash\n"
FileManager.default.createFile(atPath: dir + "/appstore.profile", contents: Data(profile.utf8), attributes: [.posixPermissions: 0o600])

// Signed data comes from a local test CA with Apple's OIDs (the signing engineer's); its root is
// DIR/test-root.pem, for `subdash fetch --root`.
let ca = try LocalCertificateAuthority.create()
FileManager.default.createFile(atPath: dir + "/test-root.pem", contents: Data(ca.rootPEM.utf8))
let mock = MockAppStore(check: BearerCheck(publicKey: key.publicKey, keyID: "MOCKKEY01", issuerID: issuer, bundleID: "com.example.subdash"),
                        signer: { payload in (try? ca.sign(payloadJSON: Array(payload.utf8))) ?? "" })
let day: Int64 = 86_400_000
let start = Int64(Date().timeIntervalSince1970 * 1000) - 45 * 30 * day - 10 * day
func customer(renewals: Int) -> MockCustomer {
  .monthly(originalTransactionID: "2000000500", renewals: renewals, environment: "Production", start: start, orderID: "MK5TTTVWJH")
}
mock.add(customer(renewals: 45), environment: "production")

let renewTrigger = dir + "/renew"
let renewals = Task {
  var count = 45
  while !Task.isCancelled {
    if FileManager.default.fileExists(atPath: renewTrigger) {
      try? FileManager.default.removeItem(atPath: renewTrigger)
      count += 1
      mock.replace(customer(renewals: count), environment: "production")
    }
    try? await Task.sleep(nanoseconds: 50_000_000)
  }
}
try await mock.run(ready: { url in FileHandle.standardOutput.write(Data((url + "\n").utf8)) })
renewals.cancel()
