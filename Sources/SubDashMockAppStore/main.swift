import Crypto
import Foundation
import MockAppStore

// A loopback App Store Server API for the e2e script (Tests/e2e/fetch.e2e.sh). It makes a team key,
// writes it (mode 600) with a profile into DIR, serves one production customer with a 45-renewal
// history, prints its base URL on stdout and runs until killed.
//   SubDashMockAppStore DIR
let arguments = CommandLine.arguments
guard arguments.count == 2 else {
  FileHandle.standardError.write(Data("usage: SubDashMockAppStore DIR\n".utf8))
  exit(64)
}
let dir = arguments[1]
let key = P256.Signing.PrivateKey()
let keyPath = dir + "/SubscriptionKey_MOCKKEY01.p8"
FileManager.default.createFile(atPath: keyPath, contents: Data(key.pemRepresentation.utf8), attributes: [.posixPermissions: 0o600])
let profile = "key-file = \(keyPath)\nkey-id = MOCKKEY01\nissuer-id = 57246542-96fe-1a63-e053-0824d011072a\nbundle-id = com.example.subdash\n"
FileManager.default.createFile(atPath: dir + "/appstore.profile", contents: Data(profile.utf8), attributes: [.posixPermissions: 0o600])

let mock = MockAppStore(check: BearerCheck(publicKey: key.publicKey, keyID: "MOCKKEY01",
                                           issuerID: "57246542-96fe-1a63-e053-0824d011072a", bundleID: "com.example.subdash"))
mock.add(.monthly(originalTransactionID: "2000000500", renewals: 45, environment: "Production", orderID: "MK5TTTVWJH"), environment: "production")
try await mock.run(ready: { url in
  FileHandle.standardOutput.write(Data((url + "\n").utf8))
})
